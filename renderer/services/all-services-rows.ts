import type { FleetServiceSummary, PanelServices } from '../../shared/fleet-services.ts';
import type { ServiceState } from '../../shared/services.ts';
import type { PanelColour } from '../../shared/labels.ts';
import type { Panel, ServicesGrouping } from '../../shared/types.ts';
import { fold } from '../../shared/text-fold.ts';
import { NO_GROUP, padNumbers } from '../panel-list/index.ts';
import { containsEvery, STATE_ATTENTION_ORDER, STATE_WORDS, searchWords, serviceSearchText, sortServices } from './service-rows.ts';
import { serviceActionKey } from '../window/window-store.ts';
import { isUnreachable } from '../ui/panel-state.ts';
import { madeOnce } from '../../shared/made-once.ts';

/**
 * The fleet's Services view: every service of every signed-in panel as one row, searched, filtered
 * by state and grouped by panel, group, project or state; the search, order and counts are the Services
 * tab's (service-rows.ts), with the panel's name added. Pure, and built for ten thousand rows: each
 * panel's rows (and their search text) are made once per read of its services, kept by identity;
 * a keystroke only compares strings.
 */

export interface FleetServiceRow extends FleetServiceSummary {
  /** The row's key, in the selection and in the window's service actions (`serviceActionKey`). */
  key: string;
  panelId: string;
  panelName: string;
  panelColour: PanelColour | null;
  /** The panel's group (a client, a region); null when it has none. */
  panelGroup: string | null;
  /** When its panel's services were read, ISO 8601. */
  readAt: string;
  /** Panel, group, project, service, type and state words, folded: what the search looks in. */
  search: string;
}

/** A panel's rows, kept while neither the panel nor its services change (both immutable). */
export type FleetRowCache = WeakMap<PanelServices, { panel: Panel; rows: FleetServiceRow[] }>;

/** The window's one cache of rows: filled ahead by `warmFleetRows`, so opening the view finds them made. */
export const FLEET_ROWS: FleetRowCache = new WeakMap();

function panelRows(panel: Panel, read: PanelServices): FleetServiceRow[] {
  const panelText = panel.group === null ? fold(panel.name) : [fold(panel.name), fold(panel.group)].join(' ');
  return sortServices(read.services).map((service) => ({
    ...(service as FleetServiceSummary),
    key: serviceActionKey(panel.id, service.projectName, service.name),
    panelId: panel.id,
    panelName: panel.name,
    panelColour: panel.colour,
    panelGroup: panel.group,
    readAt: read.readAt,
    // Joined, not a template: one flat string (see serviceSearchText).
    search: [panelText, serviceSearchText(service)].join(' '),
  }));
}

/** The signed-in panels main read the services of, by name (numbers as numbers), with what was read. */
export function readPanels(
  panels: readonly Panel[],
  services: ReadonlyMap<string, PanelServices>,
): { panel: Panel; read: PanelServices }[] {
  const read = panels.flatMap((panel) => {
    const one = panel.signedIn ? services.get(panel.id) : undefined;
    return one ? [{ panel, read: one, name: padNumbers(fold(panel.name)) }] : [];
  });
  read.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.panel.address < b.panel.address ? -1 : 1));
  return read.map(({ panel, read: one }) => ({ panel, read: one }));
}

/**
 * The signed-in panels whose services were not read: `toRead`, those a read (Check all) would
 * bring; `unreachable`, those whose last check got no answer, which a Check all cannot help.
 */
export function unreadPanels(
  panels: readonly Panel[],
  services: ReadonlyMap<string, PanelServices>,
): { toRead: Panel[]; unreachable: Panel[] } {
  const unread = panels.filter((panel) => panel.signedIn && !services.has(panel.id));
  return { toRead: unread.filter((panel) => !isUnreachable(panel)), unreachable: unread.filter(isUnreachable) };
}

/** One panel's rows, from the cache when neither the panel nor its services changed. */
export function rowsOfPanel(panel: Panel, read: PanelServices, cache: FleetRowCache): FleetServiceRow[] {
  let known = cache.get(read);
  if (known === undefined || known.panel !== panel) {
    known = { panel, rows: panelRows(panel, read) };
    cache.set(read, known);
  }
  return known.rows;
}

/** Every row, panel by panel (by name), then project and service within a panel. */
export function fleetServiceRows(
  read: readonly { panel: Panel; read: PanelServices }[],
  cache: FleetRowCache = new WeakMap(),
): FleetServiceRow[] {
  const rows: FleetServiceRow[] = [];
  for (const { panel, read: one } of read) for (const row of rowsOfPanel(panel, one, cache)) rows.push(row);
  return rows;
}

/** Which states the filter keeps: one, every state but running, or all. */
export type StateFilter = ServiceState | 'not-running' | 'all';

export const STATE_FILTER_NAMES: Readonly<Record<StateFilter, string>> = {
  all: 'All states',
  'not-running': 'Not running',
  ...STATE_WORDS,
};

/** The rows whose search text holds every word of `query` (case and accents aside), in `filter`'s states; the order kept. */
export function filterFleetServices(rows: readonly FleetServiceRow[], query: string, filter: StateFilter): readonly FleetServiceRow[] {
  const words = searchWords(query);
  if (words.length === 0 && filter === 'all') return rows;
  // One plain loop, no closure per row: this runs over ten thousand rows at each keystroke.
  const kept: FleetServiceRow[] = [];
  for (const row of rows) {
    if (filter !== 'all' && (filter === 'not-running' ? row.state === 'running' : row.state !== filter)) continue;
    if (containsEvery(row.search, words)) kept.push(row);
  }
  return kept;
}

/** A group's heading, or a service's row. */
export type FleetServiceItem =
  | {
      kind: 'group';
      key: string;
      name: string;
      /** Its rows shown, for the heading's checkbox and its counts (`stateCounts`, worked out only for the headings drawn). */
      rows: readonly FleetServiceRow[];
      /** Why the panel's last read failed (grouped by panel only); null when it worked. */
      problem: string | null;
    }
  | { kind: 'row'; key: string; row: FleetServiceRow };

type FleetRowItem = Extract<FleetServiceItem, { kind: 'row' }>;

/** Each row's item, made once per row (rows are kept by identity): a grouping at each keystroke makes none of its ten thousand anew. */
const ROW_ITEMS = new WeakMap<FleetServiceRow, FleetRowItem>();

function rowItem(row: FleetServiceRow): FleetRowItem {
  let item = ROW_ITEMS.get(row);
  if (item === undefined) {
    item = { kind: 'row', key: row.key, row };
    ROW_ITEMS.set(row, item);
  }
  return item;
}

const collator = madeOnce(() => new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));

function bucket(rows: readonly FleetServiceRow[], keyOf: (row: FleetServiceRow) => string): Map<string, FleetServiceRow[]> {
  const groups = new Map<string, FleetServiceRow[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const members = groups.get(key);
    if (members) members.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/**
 * The rows under a heading per panel (in the panels' order; a panel whose last read failed shows
 * its problem, with no row when nothing matches), per group (by name, the panels with none last),
 * per project (by name), or per state (attention first). Rows keep their order within a group. `read` are the panels read, in order.
 */
export function groupFleetServices(
  rows: readonly FleetServiceRow[],
  grouping: ServicesGrouping,
  read: readonly { panel: Panel; read: PanelServices }[],
  filtered: boolean,
): FleetServiceItem[] {
  const items: FleetServiceItem[] = [];
  const push = (key: string, name: string, members: readonly FleetServiceRow[], problem: string | null) => {
    items.push({ kind: 'group', key: `group:${key}`, name, rows: members, problem });
    for (const row of members) items.push(rowItem(row));
  };
  if (grouping === 'panel') {
    const byPanel = bucket(rows, (row) => row.panelId);
    for (const { panel, read: one } of read) {
      const members = byPanel.get(panel.id) ?? [];
      // A panel with nothing to show is left out while searching, and when its read did not fail.
      if (members.length === 0 && (filtered || readProblem(panel, one) === null)) continue;
      push(`panel:${panel.id}`, panel.name, members, readProblem(panel, one));
    }
    return items;
  }
  if (grouping === 'group') {
    const byGroup = bucket(rows, (row) => row.panelGroup ?? '');
    const names = [...byGroup.keys()].filter((name) => name !== '').sort(collator().compare);
    for (const name of names) push(`group:${name}`, name, byGroup.get(name)!, null);
    const ungrouped = byGroup.get('');
    if (ungrouped) push('group-none', NO_GROUP, ungrouped, null);
    return items;
  }
  if (grouping === 'project') {
    const byProject = bucket(rows, (row) => row.projectName);
    for (const name of [...byProject.keys()].sort(collator().compare)) push(`project:${name}`, name, byProject.get(name)!, null);
    return items;
  }
  const byState = bucket(rows, (row) => row.state);
  for (const state of STATE_ATTENTION_ORDER) {
    const members = byState.get(state);
    if (members) push(`state:${state}`, STATE_WORDS[state], members, null);
  }
  return items;
}

/**
 * Why a panel's services may be out of date: the last read of them failed, or the panel's last
 * check did (unreachable, a timeout: the services shown are then the ones read before). Null when neither.
 */
export function readProblem(panel: Panel, read: PanelServices): string | null {
  if (read.problem) return read.problem.message;
  return panel.lastCheck && !panel.lastCheck.ok ? panel.lastCheck.error.message : null;
}

/** The panels whose last read failed, with why: said above the table when the grouping is not by panel. */
export function readProblems(read: readonly { panel: Panel; read: PanelServices }[]): { panel: Panel; message: string }[] {
  return read.flatMap(({ panel, read: one }) => {
    const message = readProblem(panel, one);
    return message === null ? [] : [{ panel, message }];
  });
}
