import { useRef } from 'react';
import { useDialog, usePanels, useStatus, useWindowContext } from '../window/app-context.tsx';
import { useSelection } from '../panel-list/views.tsx';
import { isMac } from '../window/shortcuts.ts';
import { plural } from '../../shared/counts.ts';
import { availableCommands, importedText, rowMenuItems } from '../panel-list/views.tsx';
import { AddPanelDialog } from '../panel/views.tsx';
import { FleetLoginDialog } from '../sign-in/views.tsx';
import { ImportDialog } from '../transfer/views.tsx';
import { PreferencesDialog } from '../preferences/views.tsx';
import { RowMenu } from '../ui/row-menu.tsx';
import { UpgradeDialog } from '../upgrades/views.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { lazyView } from '../ui/lazy-view.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { type EarlyInput, PaletteShell } from './palette-shell.tsx';

/** The palette and its libraries (cmdk and what it brings) load when it is first opened, not at start. */
const CommandPalette = lazyView('the command palette', () => import('./command-palette.tsx').then((module) => module.CommandPalette), {
  // Opened by Ctrl+K and typed into at once: its stand-in takes the keys until it is here.
  loading: ({ early, onClose }) => <PaletteShell early={early} onClose={onClose} />,
  warmFirst: true,
});

/**
 * The one dialog (or the row menu) open over the window, as the window store says. One that fails
 * (its code did not load, or it threw while rendering) says so in a dialog of its own, which
 * closes as the failed one would have; another dialog opened starts afresh.
 */
export function WindowDialogs() {
  const { dialogStore } = useWindowContext();
  const { dialog } = useDialog();
  if (!dialog) return null;
  return (
    <ErrorBoundary
      key={dialog.kind}
      frame={(failure) => (
        <ModalDialog title="This dialog could not be opened" onClose={() => dialogStore.closeDialog()}>
          {failure}
        </ModalDialog>
      )}
    >
      <OpenDialog />
    </ErrorBoundary>
  );
}

function OpenDialog() {
  const { dialogStore, locationStore, statusStore, commands, panelStore } = useWindowContext();
  // This opening's keys typed before the palette's code arrived (a new opening mounts afresh).
  const early = useRef<EarlyInput>({ query: '', enter: false });
  const { panels } = usePanels();
  const { dialog } = useDialog();
  const { status } = useStatus();
  const { selected, marked } = useSelection();
  const close = () => dialogStore.closeDialog();
  const run = (command: Parameters<typeof commands.run>[0]) => void commands.run(command);
  switch (dialog?.kind) {
    case undefined:
      return null;
    case 'palette':
      return (
        <CommandPalette
          panels={panels ?? []}
          commands={availableCommands(selected, marked, panels ?? [], status !== null)}
          mac={isMac()}
          // The keyboard follows: to the panel's row, or to its log in form when it is signed out.
          onSelectPanel={(id) => locationStore.focusPanel(id, panels?.find((panel) => panel.id === id)?.signedIn ? 'row' : 'logIn')}
          onRun={run}
          onClose={close}
          early={early.current}
        />
      );
    case 'rowMenu':
      if (!selected) return null;
      return (
        <RowMenu
          at={dialog.at}
          label={marked.length > 1 ? `${marked.length} panels` : selected.name}
          items={rowMenuItems(selected, marked)}
          onRun={run}
          onClose={close}
        />
      );
    case 'addPanel':
    case 'duplicatePanel':
      return (
        <AddPanelDialog
          copyOf={dialog.kind === 'duplicatePanel' ? dialog.of : undefined}
          onAdded={(panel) => {
            close();
            panelStore.upsert(panel);
            locationStore.selectOne(panel.id);
          }}
          onClose={close}
        />
      );
    case 'importPanels':
      return (
        <ImportDialog
          onImported={(result) => {
            close();
            const panelIds = result.addedIds;
            statusStore.showNotice({
              text: importedText(result),
              failed: false,
              ...(panelIds.length > 0 && {
                action: {
                  label: `Log in to ${plural(panelIds.length, 'imported panel')}…`,
                  run: () => dialogStore.openDialog({ kind: 'fleetLogIn', panelIds }),
                },
              }),
            });
          }}
          onClose={close}
        />
      );
    case 'fleetLogIn':
      return <FleetLoginDialog panelIds={dialog.panelIds} onClose={close} />;
    case 'upgradePanels':
      return <UpgradeDialog panelIds={dialog.panelIds} run={dialog.run ?? null} onClose={close} />;
    case 'preferences':
      // The panels whose token storage a setting moved come back as events.
      return <PreferencesDialog onClose={close} />;
  }
}
