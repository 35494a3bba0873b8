import { type CSSProperties, type FunctionComponent, useEffect } from 'react';
import type { PanelBridge } from '../../shared/contract/bridge.ts';
import { usePanelListChoices, useLocation, usePanels, useStatus, useWindowContext, WindowProvider } from '../window/app-context.tsx';
import type { FleetWideView } from '../window/location-store.ts';
import { useSelection } from '../panel-list/views.tsx';
import { ConsoleStoreProvider } from '../console/views.tsx';
import { followServiceRuns, warmFleetRows } from '../services/index.ts';
import { ActivityView } from '../activity/views.tsx';
import { AlertsView, StartSummaryNotice } from '../alerts/views.tsx';
import { BulkView } from '../panel-list/views.tsx';
import { FleetConsoleView } from '../console/views.tsx';
import { EmptyState } from '../ui/empty-state.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { warmLazyViews } from '../ui/lazy-view.tsx';
import { FleetServicesView } from '../services/views.tsx';
import { CertificatesView } from '../certificates/views.tsx';
import { BackupsView } from '../backups/views.tsx';
import { PanelView } from '../panel/views.tsx';
import { PanelListPane } from '../panel-list/views.tsx';
import { StartupProblems } from './startup-problems.tsx';
import { UpdateNotice } from './update-notice.tsx';
import { WindowDialogs } from './window-dialogs.tsx';
import { loadPanelList } from '../window/event-router.ts';
import { useTheme } from '../window/theme.ts';
import { useFocusAfterRemoval, usePanelListChoicesSaving, useRowFocusRequest, useWindowCommands } from '../window/window-commands.ts';

/** The views of the whole fleet, each shown in place of the panels when the location says so. */
const FLEET_WIDE_PARTS: Readonly<Record<FleetWideView, FunctionComponent>> = {
  activity: ActivityView,
  alerts: AlertsView,
  allServices: FleetServicesView,
  certificates: CertificatesView,
  fleetConsole: FleetConsoleView,
  backups: BackupsView,
};

/** The window: the panel list on the left, the selected panel on the right. */
export function App({ api }: { api: PanelBridge | null }) {
  if (!api) {
    return (
      <main className="fatal" role="alert">
        <h1>Paneldeck could not start</h1>
        <p>The connection between this window and Paneldeck is missing. Quit Paneldeck and open it again.</p>
      </main>
    );
  }
  return (
    <WindowProvider api={api}>
      <ConsoleStoreProvider>
        <Workspace />
      </ConsoleStoreProvider>
    </WindowProvider>
  );
}

function Workspace() {
  const context = useWindowContext();
  useEffect(() => warmFleetRows(context.panelStore, context.fleetServicesStore), [context]);
  useEffect(() => followServiceRuns({ ...context, services: context.reads.services }), [context]);
  // The views left out of the first bundle are fetched once the first screen is up and the window
  // idle, one at a time, so each opens at once later without the start doing their work.
  useEffect(() => warmLazyViews(), []);
  const { statusStore, dialogStore, locationStore } = context;
  const { panels } = usePanels();
  const { status, notice, listError, startupProblemsDismissed } = useStatus();
  const { panelListChoices } = usePanelListChoices();
  const { view } = useLocation();
  const FleetWideShown = view === 'panels' ? null : FLEET_WIDE_PARTS[view];
  const { selected, marked, groups } = useSelection();
  useTheme(status?.settings.theme ?? 'system');
  useWindowCommands();
  usePanelListChoicesSaving();
  useFocusAfterRemoval();
  useRowFocusRequest();
  return (
    // The table's pane is as wide as the operator dragged it, never hiding the panel view (styles.css).
    <div
      className={panelListChoices.layout === 'table' ? 'workspace is-table' : 'workspace'}
      style={
        panelListChoices.layout === 'table' && panelListChoices.paneWidth !== undefined
          ? ({ '--pane': `min(${panelListChoices.paneWidth}px, calc(100vw - 240px))` } as CSSProperties)
          : undefined
      }
    >
      <PanelListPane />
      <main className="content">
        <UpdateNotice />
        {notice && (
          // Kept in view at the top of the content however far it is scrolled: an export from the
          // palette while the settings are scrolled down must still be seen to have happened.
          <div
            className={`notice window-notice ${notice.failed ? 'notice-error' : 'notice-info'}`}
            role={notice.failed ? 'alert' : 'status'}
          >
            <p>{notice.text}</p>
            <div className="notice-actions">
              {notice.action && (
                <button
                  type="button"
                  className="button-primary"
                  onClick={() => {
                    statusStore.showNotice(null);
                    notice.action!.run();
                  }}
                >
                  {notice.action.label}
                </button>
              )}
              <button type="button" onClick={() => statusStore.showNotice(null)}>
                Dismiss
              </button>
            </div>
          </div>
        )}
        {status && !startupProblemsDismissed && (
          <StartupProblems problems={status.startupProblems} onDismiss={() => statusStore.dismissStartupProblems()} />
        )}
        <StartSummaryNotice />
        {listError ? (
          <div className="notice notice-error" role="alert">
            <p>{listError.message}</p>
            <button type="button" onClick={() => void loadPanelList(context.api, context)}>
              Try again
            </button>
          </div>
        ) : panels === null ? (
          <p className="muted" role="status">
            Loading panels…
          </p>
        ) : FleetWideShown ? (
          // Keyed by the view: one that failed to render is tried afresh when another is opened.
          <ErrorBoundary key={view}>
            <FleetWideShown />
          </ErrorBoundary>
        ) : marked.length > 1 ? (
          <BulkView panels={marked} groups={groups} onClear={() => selected && locationStore.selectOne(selected.id)} />
        ) : selected ? (
          // A panel whose view fails to render must not take the panel list with it; a new selection resets.
          <ErrorBoundary key={selected.id}>
            <PanelView panel={selected} groups={groups} />
          </ErrorBoundary>
        ) : (
          <EmptyState
            onAdd={() => dialogStore.openDialog({ kind: 'addPanel' })}
            onImport={() => dialogStore.openDialog({ kind: 'importPanels' })}
          />
        )}
      </main>
      <WindowDialogs />
    </div>
  );
}
