import { useCallback, useEffect, useRef } from 'react';
import { plural } from '../../shared/counts.ts';
import { fleetFileName } from '../../shared/fleet-file.ts';
import { MAX_COLLAPSED_GROUPS } from '../../shared/settings.ts';
import { modalOpen, useCommandHandlers, usePanelListChoices, useLocation, usePanels, useWindowContext } from './app-context.tsx';
import { useBusyAction } from './busy-action.ts';
import { viewCommands } from './view-commands.ts';
import { commandForKey, isMac } from './shortcuts.ts';
import { groupsInUse, selectedPanel } from './panel-selection.ts';

/** How long after the last change of the list's view it is saved: walking the list with the arrow keys writes once. */
const VIEW_SAVE_DELAY_MS = 1000;

/** Export panels (all, or `ids`) through main's save dialog; what it did is the window's notice. One at a time. */
export function useExportPanels(): (ids?: readonly string[]) => void {
  const { api, statusStore } = useWindowContext();
  const { run } = useBusyAction();
  return useCallback(
    (ids?: readonly string[]) =>
      void run(
        async () => {
          const { path, count } = await api.exportPanels(ids ? [...ids] : undefined);
          if (path !== null)
            statusStore.showNotice({
              text: `Exported ${plural(count, 'panel')} to ${path}. The file holds no token, password or email.`,
              failed: false,
            });
        },
        (failure) => {
          statusStore.showNotice({ text: failure.message, failed: true });
          return null;
        },
      ),
    [api, statusStore, run],
  );
}

/** Follow a fleet file chosen in main's open dialog; what it did is the window's notice. */
export function useOpenFleetFile(): () => void {
  const { api, statusStore } = useWindowContext();
  const { run } = useBusyAction();
  return useCallback(
    () =>
      void run(
        async () => {
          const file = await api.openFleetFile();
          if (file)
            statusStore.showNotice({
              text: `Following ${fleetFileName(file.path)}: ${plural(file.panels, 'panel')} shared in it. Preferences lists the fleet files.`,
              failed: false,
            });
        },
        (failure) => {
          statusStore.showNotice({ text: failure.message, failed: true });
          return null;
        },
      ),
    [api, statusStore, run],
  );
}

/**
 * The commands the window itself carries out (its dialogs, export), and the shortcuts the menu
 * shows, for the page itself; none while a dialog is open over it.
 */
export function useWindowCommands(): void {
  const { panelStore, dialogStore, locationStore, statusStore, commands } = useWindowContext();
  const exportPanels = useExportPanels();
  const openFleetFile = useOpenFleetFile();
  useCommandHandlers({
    addPanel: () => dialogStore.openDialog({ kind: 'addPanel' }),
    importPanels: () => dialogStore.openDialog({ kind: 'importPanels' }),
    duplicatePanel: () => {
      const { panels, byId } = panelStore.getSnapshot();
      const of = selectedPanel(panels, byId, locationStore.getSnapshot().selectedId);
      if (of) dialogStore.openDialog({ kind: 'duplicatePanel', of });
    },
    preferences: () => {
      if (statusStore.getSnapshot().status) dialogStore.openDialog({ kind: 'preferences' });
    },
    palette: () => dialogStore.openDialog({ kind: 'palette' }),
    ...viewCommands(locationStore),
    exportPanels: () => exportPanels(),
    openFleetFile: () => openFleetFile(),
  });
  useEffect(() => {
    const mac = isMac();
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || modalOpen()) return;
      const command = commandForKey(event, mac);
      if (!command) return;
      event.preventDefault();
      commands.run(command);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [commands]);
}

/** Saves the list's view (sort, filter, folded groups, the panel shown) a moment after it last changed. */
export function usePanelListChoicesSaving(): void {
  const { api } = useWindowContext();
  const { panelListChoices, panelListChoicesAdopted } = usePanelListChoices();
  const { selectedId } = useLocation();
  const { panels, byId } = usePanels();
  const selected = selectedPanel(panels, byId, selectedId);
  const groups = groupsInUse(panels);
  const selectedPanelId = selected?.id ?? null;
  // Read when the view is saved; a change of the groups alone is no reason to save it.
  const groupsRef = useRef(groups);
  groupsRef.current = groups;
  useEffect(() => {
    if (!panelListChoicesAdopted) return;
    const timer = setTimeout(() => {
      // Only how the list looked is lost if this fails; nothing to tell the operator.
      // Folded groups that no longer exist (renamed, emptied) are not kept, so the list stays small.
      const known = new Set(groupsRef.current);
      const collapsedGroups = panelListChoices.collapsedGroups
        .filter((key) => key.startsWith('\u0000') || known.has(key))
        .slice(0, MAX_COLLAPSED_GROUPS);
      api.updateSettings({ panelList: { ...panelListChoices, collapsedGroups, selectedPanelId } }).catch(() => undefined);
    }, VIEW_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [api, panelListChoices, panelListChoicesAdopted, selectedPanelId]);
}

/** After this window removed panels, the view that had the focus is gone: the list (or Add panel) takes it. */
export function useFocusAfterRemoval(): void {
  const { removals } = useLocation();
  const handled = useRef(removals);
  // The removal and the store's change are one render (both follow main's answer at once).
  useEffect(() => {
    if (handled.current === removals) return;
    handled.current = removals;
    const next = panelListElement() ?? document.querySelector<HTMLElement>('.panel-list-header button');
    next?.focus();
  }, [removals]);
}

/** The panel list (one Tab stop; the row it is on is its active item); null when the list is not shown. */
export function panelListElement(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.list-layout[role="tree"]');
}

/** A panel chosen by keyboard to be shown at its row (the palette): the list takes the focus, on that row. */
export function useRowFocusRequest(): void {
  const { locationStore } = useWindowContext();
  const { focusRequest } = useLocation();
  useEffect(() => {
    if (focusRequest?.to !== 'row') return;
    locationStore.focusRequestDone(focusRequest);
    panelListElement()?.focus();
  }, [focusRequest, locationStore]);
}
