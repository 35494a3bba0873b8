import type { AppStatus } from '../../shared/types.ts';
import { DialogStore } from './dialog-store.ts';
import { PanelListChoicesStore } from './panel-list-choices-store.ts';
import { LocationStore } from './location-store.ts';
import { RevisionStore } from './revision-store.ts';
import { ServiceActionStore } from './service-action-store.ts';
import { ServicePickStore } from './service-pick-store.ts';
import { StatusStore } from './status-store.ts';
import type { SessionMemory } from './window-memory.ts';

/**
 * The window's own state (main's data is the panel store's), one small store per subject, each read
 * with `useSyncExternalStore`: a change of one renders only the parts that read it.
 */
export interface WindowStores {
  /** The view shown (the panels, Activity, Alerts, All services, Fleet console) and the list's selection. */
  locationStore: LocationStore;
  /** How the list looks: sort, filter, folded groups, layout. */
  panelListChoicesStore: PanelListChoicesStore;
  /** Main's status and the window's notices (an export's outcome, an update ready, start-up problems). */
  statusStore: StatusStore;
  /** The one dialog open over the window. */
  dialogStore: DialogStore;
  /** How each service's last action stands. */
  serviceActionStore: ServiceActionStore;
  /** When main's activity log and alerts changed. */
  revisionStore: RevisionStore;
  /** The service each panel's Deployments and Logs tabs show. */
  servicePickStore: ServicePickStore;
}

/** The stores of one window; `memory` is the page's sessionStorage, where what a reload keeps is kept. */
export function createWindowStores(memory: SessionMemory | null = null): WindowStores {
  return {
    locationStore: new LocationStore(),
    panelListChoicesStore: new PanelListChoicesStore(),
    statusStore: new StatusStore(memory),
    dialogStore: new DialogStore(),
    serviceActionStore: new ServiceActionStore(),
    revisionStore: new RevisionStore(),
    servicePickStore: new ServicePickStore(),
  };
}

/**
 * Main's status, first or changed. The first one brings the list's view as the operator left it
 * and the panel shown then, unless the operator changed the view (or chose a panel) meanwhile.
 */
export function applyStatus(
  { statusStore, panelListChoicesStore, locationStore }: Pick<WindowStores, 'statusStore' | 'panelListChoicesStore' | 'locationStore'>,
  status: AppStatus | null,
): void {
  statusStore.setStatus(status);
  if (status && panelListChoicesStore.adopt(status.settings.panelList))
    locationStore.adoptSelection(status.settings.panelList.selectedPanelId);
}
