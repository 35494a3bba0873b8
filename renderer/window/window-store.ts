import type { AlertTab } from '../../shared/alerts.ts';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import type { AppStatus, BoardView, Panel } from '../../shared/types.ts';
import { readWindowMemory, writeWindowMemory, type SessionMemory, type WindowMemory } from './window-memory.ts';

export { groupsInUse, markedPanels, selectedPanel } from './panel-selection.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { ServiceAction, ServiceActionPhase } from '../../shared/service-actions.ts';

type ServiceActionEvent = Extract<PanelEvent, { type: 'serviceActionChanged' }>;

/** What of the list's view the sidebar changes; the selection is the window's. */
export type ListView = Pick<BoardView, 'sort' | 'attentionOnly' | 'collapsedGroups' | 'layout' | 'paneWidth' | 'table' | 'servicesGroupBy'>;

/** What is open over the window: one at a time (opening one closes the other). */
export type WindowDialog =
  | { kind: 'addPanel' }
  /** Add panel with this panel's settings and labels. */
  | { kind: 'duplicatePanel'; of: Panel }
  | { kind: 'importPanels' }
  | { kind: 'preferences' }
  | { kind: 'palette' }
  /** One email and password for these panels (a selection of several). */
  | { kind: 'fleetLogIn'; panelIds: readonly string[] }
  /** The row menu, at this point of the window. */
  | { kind: 'rowMenu'; at: { x: number; y: number } };

/**
 * Where the keyboard goes once a panel chosen by keyboard is shown: its row in the list, or its
 * log in form (the password when the email is known). Taken once by the part that moves it.
 */
export interface FocusRequest {
  panelId: string;
  to: 'row' | 'logIn';
}

/** What an export or an import did, until dismissed. */
export interface WindowNotice {
  text: string;
  failed: boolean;
}

/** The window's own state (main's data is the panel store's), as one immutable value per change. */
export interface WindowSnapshot {
  /** The panel shown; a panel that is gone falls back to the first (see `selectedPanel`). */
  readonly selectedId: string | null;
  /** Two or more panels selected together (Shift/Ctrl click, Shift+arrows); empty when one is. */
  readonly marked: ReadonlySet<string>;
  readonly dialog: WindowDialog | null;
  readonly notice: WindowNotice | null;
  /** Why the panel list could not be read, until it is. */
  readonly listError: ErrorInfo | null;
  /** Main's status (settings, token protection, what was repaired at start); null until it arrives. */
  readonly status: AppStatus | null;
  readonly startupProblemsDismissed: boolean;
  readonly listView: ListView;
  /** Whether the list's view is the operator's yet (adopted from the settings): only then is it saved. */
  readonly listViewAdopted: boolean;
  /** A newer Paneldeck downloaded (main's `updateReady`), and whether the operator put it off. */
  readonly update: { version: string; dismissed: boolean } | null;
  /** Grows each time this window removed panels: the view that had the focus went with them. */
  readonly removals: number;
  /** The log in to several panels under way (main's `logInProgress`); null when none runs. */
  readonly fleetProgress: { done: number; total: number } | null;
  /** Where the keyboard goes once the panel chosen is shown; null when nothing is asked. */
  readonly focusRequest: FocusRequest | null;
  /** The activity log is shown in place of the panel; choosing a panel in the list shows the panel again. */
  readonly activityOpen: boolean;
  /** Grows at each `activityChanged` from main: the activity view reads the log again. */
  readonly activityRevision: number;
  /** The Alerts list is shown in place of the panel (never with the activity log); grows at each `alertRaised`. */
  readonly alertsOpen: boolean;
  readonly alertsRevision: number;
  /** The console across panels is shown in place of the panel (never with the activity log or the Alerts). */
  readonly fleetConsoleOpen: boolean;
  /** The fleet's Services view (every service of every signed-in panel) is shown in place of the panel. */
  readonly servicesOpen: boolean;
  /** The tab to show a panel at once it is shown (a notification clicked); null when nothing is asked. */
  readonly tabRequest: { panelId: string; tab: AlertTab } | null;
  /** Each service's last action in this window (main's `serviceActionChanged`), by `serviceActionKey`. */
  readonly serviceActions: ReadonlyMap<string, ServiceActionState>;
}

/** A service action as the window last heard of it. */
export interface ServiceActionState {
  action: ServiceAction;
  /**
   * Main's phase, or the window's own words: `queued`, chosen with others and waiting for its turn;
   * `cancelled`, never sent because Cancel came first (an action across panels).
   */
  phase: ServiceActionPhase | 'queued' | 'cancelled';
  message: string | null;
}

/** A service of a panel, as service actions name it. */
export interface ServiceActionTarget {
  projectName: string;
  serviceName: string;
}

/** The key of a service of a panel in `serviceActions`: a slash is in no project or service name. */
export const serviceActionKey = (panelId: string, projectName: string, serviceName: string) => `${panelId}/${projectName}/${serviceName}`;

const NO_PANELS: ReadonlySet<string> = new Set();
/** Choosing a panel shows it in place of the activity log, the Alerts list, the fleet's Services or the console across panels. */
const CLOSED_VIEWS = { activityOpen: false, alertsOpen: false, fleetConsoleOpen: false, servicesOpen: false } as const;

function listViewOf({ sort, attentionOnly, collapsedGroups, layout, paneWidth, table, servicesGroupBy }: BoardView): ListView {
  // The table's fields only when the operator set them: a view of an older version has none.
  return {
    sort,
    attentionOnly,
    collapsedGroups,
    ...(layout && { layout }),
    ...(paneWidth !== undefined && { paneWidth }),
    ...(table && { table }),
    ...(servicesGroupBy && { servicesGroupBy }),
  };
}

/**
 * The window's state beside the panel store: selection, the dialog open, notices, main's status
 * and the list's view. Read it with `useSyncExternalStore(store.subscribe, store.getSnapshot)`.
 * What a reload must not lose (a downloaded update, notices put away) is kept in the tab's
 * sessionStorage when one is given; nothing secret is ever in this store.
 */
export class WindowStore {
  #snapshot: WindowSnapshot;
  /** The sidebar changed the view before the settings arrived: the operator's change wins. */
  #listViewTouched = false;
  readonly #memory: SessionMemory | null;
  readonly #listeners = new Set<() => void>();

  constructor(memory: SessionMemory | null = null) {
    this.#memory = memory;
    const remembered = readWindowMemory(memory);
    this.#snapshot = {
      selectedId: null,
      marked: NO_PANELS,
      dialog: null,
      notice: null,
      listError: null,
      status: null,
      startupProblemsDismissed: remembered.startupProblemsDismissed,
      listView: listViewOf(DEFAULT_SETTINGS.boardView),
      listViewAdopted: false,
      update: remembered.update,
      removals: 0,
      fleetProgress: null,
      focusRequest: null,
      activityOpen: false,
      activityRevision: 0,
      alertsOpen: false,
      alertsRevision: 0,
      fleetConsoleOpen: false,
      servicesOpen: false,
      tabRequest: null,
      serviceActions: new Map(),
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): WindowSnapshot => this.#snapshot;

  /** One panel, on its own. */
  selectOne(id: string): void {
    this.#set({ selectedId: id, marked: NO_PANELS, ...CLOSED_VIEWS });
  }

  /** One panel, on its own, and the keyboard to its row or its log in form (Enter in the list, the palette). */
  focusPanel(id: string, to: FocusRequest['to']): void {
    this.#set({ selectedId: id, marked: NO_PANELS, focusRequest: { panelId: id, to }, ...CLOSED_VIEWS });
  }

  /** The focus request was carried out (or its panel is gone): it is not carried out again. */
  focusRequestDone(request: FocusRequest): void {
    if (this.#snapshot.focusRequest === request) this.#set({ focusRequest: null });
  }

  /** Several panels; `focusId` is the one the keyboard is on. One id is simply that panel selected. */
  selectMany(ids: readonly string[], focusId: string): void {
    this.#set({ selectedId: focusId, marked: ids.length > 1 ? new Set(ids) : NO_PANELS, ...CLOSED_VIEWS });
  }

  /** This window removed panels: the selection of several ends, and the list takes the focus. */
  removedHere(): void {
    this.#set({ marked: NO_PANELS, removals: this.#snapshot.removals + 1 });
  }

  openDialog(dialog: WindowDialog): void {
    this.#set({ dialog });
  }

  closeDialog(): void {
    if (this.#snapshot.dialog !== null) this.#set({ dialog: null });
  }

  showNotice(notice: WindowNotice | null): void {
    this.#set({ notice });
  }

  setListError(listError: ErrorInfo | null): void {
    if (listError !== this.#snapshot.listError) this.#set({ listError });
  }

  /** Main's status, first or changed; the first one brings the list's view as the operator left it. */
  setStatus(status: AppStatus | null): void {
    if (!status || this.#snapshot.listViewAdopted) return this.#set({ status });
    const remembered = status.settings.boardView;
    if (this.#listViewTouched) return this.#set({ status, listViewAdopted: true });
    this.#set({
      status,
      listViewAdopted: true,
      listView: listViewOf(remembered),
      selectedId: this.#snapshot.selectedId ?? remembered.selectedPanelId,
    });
  }

  changeListView(change: Partial<ListView>): void {
    this.#listViewTouched = true;
    this.#set({ listView: { ...this.#snapshot.listView, ...change } });
  }

  dismissStartupProblems(): void {
    this.#set({ startupProblemsDismissed: true });
    this.#remember();
  }

  /** Main downloaded `version`. Put off once ("Later"), the notice stays away for this window's life. */
  updateReady(version: string): void {
    this.#set({ update: { version, dismissed: this.#snapshot.update?.dismissed ?? false } });
    this.#remember();
  }

  dismissUpdate(): void {
    const { update } = this.#snapshot;
    if (!update || update.dismissed) return;
    this.#set({ update: { ...update, dismissed: true } });
    this.#remember();
  }

  /** Main's progress of a log in to several panels; the last one (done === total) ends it. */
  logInProgress(done: number, total: number): void {
    const current = this.#snapshot.fleetProgress;
    if (done >= total) return this.#set({ fleetProgress: null });
    if (current?.done !== done || current.total !== total) this.#set({ fleetProgress: { done, total } });
  }

  showActivity(open: boolean): void {
    this.#set({ ...CLOSED_VIEWS, activityOpen: open });
  }

  showAlerts(open: boolean): void {
    this.#set({ ...CLOSED_VIEWS, alertsOpen: open });
  }

  showFleetConsole(open: boolean): void {
    this.#set({ ...CLOSED_VIEWS, fleetConsoleOpen: open });
  }

  showServices(open: boolean): void {
    this.#set({ ...CLOSED_VIEWS, servicesOpen: open });
  }

  /** Main raised an alert: the Alerts list reads the list again. */
  alertRaised(): void {
    this.#set({ alertsRevision: this.#snapshot.alertsRevision + 1 });
  }

  /** The panel, on its own, at `tab` (a notification clicked): the panel view carries out the request. */
  showPanelAt(id: string, tab: AlertTab | null): void {
    this.#set({ selectedId: id, marked: NO_PANELS, tabRequest: tab && { panelId: id, tab }, ...CLOSED_VIEWS });
  }

  /** Main's activity log changed. */
  activityChanged(): void {
    this.#set({ activityRevision: this.#snapshot.activityRevision + 1 });
  }

  tabRequestDone(): void {
    this.#set({ tabRequest: null });
  }

  /** A service action moved on: shown as under way (a deploy as deploying) until it ends, then its outcome. */
  serviceActionChanged({ panelId, projectName, serviceName, action, phase, message }: ServiceActionEvent): void {
    this.setServiceActions(panelId, [{ projectName, serviceName }], { action, phase, message });
  }

  /**
   * The services' action stands thus: the window's own steps (queued, and an outcome main had no
   * event for, such as a refusal before anything was sent). One change for all of them.
   */
  setServiceActions(panelId: string, targets: readonly ServiceActionTarget[], state: ServiceActionState): void {
    const serviceActions = new Map(this.#snapshot.serviceActions);
    for (const { projectName, serviceName } of targets) serviceActions.set(serviceActionKey(panelId, projectName, serviceName), state);
    this.#set({ serviceActions });
  }

  /** Each service (by `serviceActionKey`) stands as said: one change for thousands (the results of an action across panels). */
  setServiceActionStates(states: Iterable<readonly [key: string, state: ServiceActionState]>): void {
    const serviceActions = new Map(this.#snapshot.serviceActions);
    for (const [key, state] of states) serviceActions.set(key, state);
    this.#set({ serviceActions });
  }

  #remember(): void {
    const { update, startupProblemsDismissed } = this.#snapshot;
    const memory: WindowMemory = { update, startupProblemsDismissed };
    writeWindowMemory(this.#memory, memory);
  }

  #set(change: Partial<WindowSnapshot>): void {
    const current = this.#snapshot;
    if ((Object.keys(change) as (keyof WindowSnapshot)[]).every((key) => Object.is(change[key], current[key]))) return;
    this.#snapshot = { ...current, ...change };
    for (const listener of [...this.#listeners]) listener();
  }
}
