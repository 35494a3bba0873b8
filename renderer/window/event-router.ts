import type { PanelBridge } from '../../shared/contract/bridge.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { CommandRegistry } from './command-registry.ts';
import { failureInfo } from './failure-info.ts';
import type { FleetServicesStore, HealthStore } from './health-store.ts';
import type { PanelStore } from './panel-store.ts';
import { applyStatus, type WindowStores } from './window-stores.ts';

/** Where main's events go: the window's stores and its commands. */
export interface EventTargets extends WindowStores {
  panelStore: PanelStore;
  commands: CommandRegistry;
  /** Each panel's state as the last check read it; absent where nothing shows it. */
  healthStore?: HealthStore;
  /** Each signed-in panel's services as main last read them; absent where nothing shows them. */
  fleetServicesStore?: FleetServicesStore;
  /** Whether a modal dialog is open: a command from main's menu then waits for the operator to close it. */
  modalOpen(): boolean;
}

/** The one place main's events are taken apart: each type goes to the one store or command it concerns. */
export function routePanelEvent(event: PanelEvent, targets: EventTargets): void {
  switch (event.type) {
    case 'panelsRemoved':
      // The service its Logs and Deployments showed goes with the panel.
      for (const panelId of event.panelIds) targets.servicePickStore.forget(panelId);
      return targets.panelStore.apply(event);
    case 'panelsChanged':
    case 'sessionExpiring':
    case 'checkProgress':
      return targets.panelStore.apply(event);
    case 'focusPanel':
      // A notification about a panel removed since has nothing to show.
      if (targets.panelStore.has(event.panelId)) targets.locationStore.showPanelAt(event.panelId, event.tab ?? null);
      return;
    case 'alertRaised':
    case 'alertChanged':
      return targets.revisionStore.alertsChanged();
    case 'runCommand':
      if (!targets.modalOpen()) targets.commands.run(event.command);
      return;
    case 'updateReady':
      return targets.statusStore.updateReady(event.version);
    case 'logInProgress':
      return targets.statusStore.logInProgress(event.done, event.total);
    case 'activityChanged':
      return targets.revisionStore.activityChanged();
    case 'serviceActionChanged':
      return targets.serviceActionStore.serviceActionChanged(event);
    case 'serviceActionsEnded':
      return targets.serviceActionStore.endRun(event.results);
    case 'fleetStateChanged':
      return targets.healthStore?.apply(event.panels);
    case 'fleetServicesChanged':
      return targets.fleetServicesStore?.apply(event.panels, event.gone);
    case 'serviceLogLines':
    case 'serviceLogEnded':
      // The Logs tab listens for these itself (logs-view.tsx): they concern the follow it started.
      return;
    case 'upgradeChanged':
    case 'upgradesEnded':
      // The upgrade run's view listens itself (upgrades-view.tsx): they concern the run it started.
      return;
    case 'fleetFilesChanged':
      // Preferences' fleet files section listens itself: the list of panels hears of their changes as panelsChanged.
      return;
    case 'operationProgress':
      // The console across panels listens itself (fleet-console-view.tsx): they concern the run it started.
      return;
    default:
      // A type added to shared/contract/events.ts without a route here fails to compile.
      event satisfies never;
  }
}

/** Reads main's panel list into the store; a failure is the window's to show, with Try again. */
export async function loadPanelList(
  api: Pick<PanelBridge, 'listPanels'>,
  targets: Pick<EventTargets, 'panelStore' | 'statusStore'>,
): Promise<void> {
  try {
    targets.panelStore.load(await api.listPanels());
    targets.statusStore.setListError(null);
  } catch (caught) {
    targets.statusStore.setListError(failureInfo(caught));
  }
}

/**
 * Connects the window to main: its events first, then the panel list and the app's status. The
 * function returned stops the events.
 */
export function connectWindow(
  api: Pick<PanelBridge, 'onEvent' | 'listPanels' | 'getAppStatus'> &
    Partial<Pick<PanelBridge, 'getFleetState' | 'getFleetServices' | 'getServiceActionRun' | 'getUpgradeRun'>>,
  targets: EventTargets,
): () => void {
  // Listening before asking for the list: an event sent meanwhile is older than the list, never lost.
  const stop = api.onEvent((event) => routePanelEvent(event, targets));
  void loadPanelList(api, targets);
  // The status only adds notices and preferences: without it the panels still work.
  api.getAppStatus().then(
    (status) => applyStatus(targets, status),
    () => applyStatus(targets, null),
  );
  // The state only fills the table's columns: without it the panels still work.
  api.getFleetState?.().then(
    (all) => targets.healthStore?.load(all),
    () => undefined,
  );
  // The services only fill the fleet's Services view: without them the panels still work.
  api.getFleetServices?.().then(
    (all) => targets.fleetServicesStore?.load(all),
    () => undefined,
  );
  // A run of service actions main holds from before this page (a reload): its progress and Cancel.
  api.getServiceActionRun?.().then(
    (run) => run && targets.serviceActionStore.adoptRun(run),
    () => undefined,
  );
  // An upgrade run main holds from before this page: its dialog again, with each panel's step and Cancel.
  api.getUpgradeRun?.().then(
    (run) => run && targets.dialogStore.openDialog({ kind: 'upgradePanels', panelIds: run.panelIds, run }),
    () => undefined,
  );
  return stop;
}
