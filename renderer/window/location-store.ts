import type { AlertTab } from '../../shared/alerts.ts';
import type { CommandId } from '../../shared/contract/commands.ts';
import { SnapshotStore } from './snapshot-store.ts';

/** The views of the whole fleet: each is also the command that shows it (shared/contract/commands.ts). */
export const FLEET_WIDE_VIEWS = [
  'activity',
  'alerts',
  'allServices',
  'backups',
  'certificates',
  'fleetConsole',
] as const satisfies readonly CommandId[];
export type FleetWideView = (typeof FLEET_WIDE_VIEWS)[number];

/**
 * What the window shows beside the list, one at a time: `panels` is the list's selection (one
 * panel's view, the several selected together, or the welcome of an empty list); the others are
 * the fleet's views, shown in its place.
 */
export type WindowView = 'panels' | FleetWideView;

export const WINDOW_VIEWS: readonly WindowView[] = ['panels', ...FLEET_WIDE_VIEWS];

/**
 * Where the keyboard goes once a panel chosen by keyboard is shown: its row in the list, or its
 * log in form (the password when the email is known). Taken once by the part that moves it.
 */
export interface FocusRequest {
  panelId: string;
  to: 'row' | 'logIn';
}

/**
 * Where the window is: the view shown and the list's selection. The selection is kept while a
 * fleet-wide view is shown, so that going back shows the panel that was shown before.
 */
export interface LocationSnapshot {
  readonly view: WindowView;
  /** The panel shown; a panel that is gone falls back to the first (see `selectedPanel`). */
  readonly selectedId: string | null;
  /** Two or more panels selected together (Shift/Ctrl click, Shift+arrows); empty when one is. */
  readonly marked: ReadonlySet<string>;
  /** Where the keyboard goes once the panel chosen is shown; null when nothing is asked. */
  readonly focusRequest: FocusRequest | null;
  /** The tab to show a panel at once it is shown (a notification clicked, a service row's Logs); null when nothing is asked. */
  readonly tabRequest: { panelId: string; tab: RequestedTab } | null;
  /** Grows each time this window removed panels: the view that had the focus went with them. */
  readonly removals: number;
}

/** A tab a panel can be asked to show at: an alert's, or a service's Deployments and Logs (from its row). */
export type RequestedTab = AlertTab | 'deployments' | 'logs';

const NO_PANELS: ReadonlySet<string> = new Set();

/** The view shown and the list's selection; choosing a panel shows the panels again, whatever was shown. */
export class LocationStore extends SnapshotStore<LocationSnapshot> {
  constructor() {
    super({ view: 'panels', selectedId: null, marked: NO_PANELS, focusRequest: null, tabRequest: null, removals: 0 });
  }

  /** Shows `view` in place of what is shown (the selection stays for when the panels are shown again). */
  show(view: WindowView): void {
    this.update({ view });
  }

  /** A button of the panel list: its view, or, when that is what is shown, the panels again. */
  toggle(view: WindowView): void {
    this.update({ view: this.getSnapshot().view === view ? 'panels' : view });
  }

  /** One panel, on its own. */
  selectOne(id: string): void {
    this.update({ view: 'panels', selectedId: id, marked: NO_PANELS });
  }

  /** One panel, on its own, and the keyboard to its row or its log in form (Enter in the list, the palette). */
  focusPanel(id: string, to: FocusRequest['to']): void {
    this.update({ view: 'panels', selectedId: id, marked: NO_PANELS, focusRequest: { panelId: id, to } });
  }

  /** The focus request was carried out (or its panel is gone): it is not carried out again. */
  focusRequestDone(request: FocusRequest): void {
    if (this.getSnapshot().focusRequest === request) this.update({ focusRequest: null });
  }

  /** Several panels; `focusId` is the one the keyboard is on. One id is simply that panel selected. */
  selectMany(ids: readonly string[], focusId: string): void {
    this.update({ view: 'panels', selectedId: focusId, marked: ids.length > 1 ? new Set(ids) : NO_PANELS });
  }

  /** The panel, on its own, at `tab` (a notification clicked, a service row's Logs): the panel view carries out the request. */
  showPanelAt(id: string, tab: RequestedTab | null): void {
    this.update({ view: 'panels', selectedId: id, marked: NO_PANELS, tabRequest: tab && { panelId: id, tab } });
  }

  tabRequestDone(): void {
    this.update({ tabRequest: null });
  }

  /** This window removed panels: the selection of several ends, and the list takes the focus. */
  removedHere(): void {
    this.update({ marked: NO_PANELS, removals: this.getSnapshot().removals + 1 });
  }

  /** The panel shown when the window last closed (the settings), unless one was chosen since. */
  adoptSelection(id: string | null): void {
    if (this.getSnapshot().selectedId === null) this.update({ selectedId: id });
  }
}
