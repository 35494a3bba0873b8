import type { ListSort, Panel } from '../../shared/types.ts';
import { versionSortKey } from '../../shared/panel-version.ts';
import { type SignInKind, signInKind } from '../ui/panel-status.ts';
import { PANEL_STATE_ORDER, PANEL_STATES, type PanelState } from '../ui/panel-state.ts';
import { type PanelRow, type PanelRowCache, panelRow, fleetCounts, needsAttention } from './panel-rows.ts';
import { matchingRows, rowMatcher, type SearchCache } from './row-search.ts';
import { fold, type PanelFacts } from './panel-search.ts';
import { madeOnce } from '../../shared/made-once.ts';

/**
 * What the panel list shows of the fleet: which panels match the search and the attention
 * filter, how many are in each state, and the short "checked 3 min ago" / "expires in 40 min"
 * texts of a row. Pure functions of the panels and the clock, so they run in tests under Node and
 * stay cheap over ten thousand panels (one pass; a search only groups the rows by rank).
 */

/** The states a row can be in, in the order the counts show them (worst first), and their words: the window's one table. */
export const STATUS_ORDER: readonly PanelState[] = PANEL_STATE_ORDER;
export const STATUS_NAMES: Readonly<Record<PanelState, string>> = Object.fromEntries(
  PANEL_STATE_ORDER.map((state) => [state, PANEL_STATES[state].word]),
) as Record<PanelState, string>;

export interface FleetFilter {
  /** What the operator typed; every word must match (panel-search.ts: name, address, group, tags, version, state, colour). */
  query: string;
  /** Only panels that need attention. */
  attentionOnly: boolean;
  /** What needs attention, when not the facts known of the panel alone (panel-rows.ts's needsAttention). */
  isAttention?: (panel: Panel) => boolean;
}

export interface FleetRow {
  panel: Panel;
  kind: PanelState;
  label: string;
}

export interface PanelListRows {
  /** The rows shown: in the list's order, or while searching by rank (best match first), the list's order within a rank. */
  rows: readonly PanelRow[];
  /** Per state, over the whole fleet (not only the rows shown). */
  counts: Record<PanelState, number>;
  attention: number;
}

/** A panel's facts when nothing of its state is known: only what its version read said. */
const versionOnly = (panel: Panel): PanelFacts => ({
  servicesDown: null,
  diskPercent: null,
  memoryPercent: null,
  cpuPercent: null,
  version: panel.panelVersion,
  updateAvailable: panel.updateAvailable,
});

/** Rows of panels whose state is not known here (panelListRows's callers have none), kept across calls. */
const stateless: PanelRowCache = new WeakMap();

/** The view of `panels` under `filter`; `factsOf` gives what the fact terms (`down`, `disk>90`) test. */
export function panelListRows(
  panels: readonly Panel[],
  filter: FleetFilter,
  cache: SearchCache = new WeakMap(),
  factsOf: (panel: Panel) => PanelFacts = versionOnly,
): PanelListRows {
  const rows = panels.map((panel) => panelRow(stateless, panel, undefined));
  const attends = (row: PanelRow) => (filter.isAttention ? filter.isAttention(row.panel) : needsAttention(row));
  const { counts, attention } = fleetCounts(rows, attends);
  const matcher = rowMatcher(filter, attends, cache, (row) => factsOf(row.panel));
  return { rows: matchingRows(rows, matcher), counts, attention };
}

// The search over rows, apart (row-search.ts); named here too, where panelListRows uses it.
export { buildSearchTexts, matchingRows, type RowMatcher, rowMatcher, type SearchCache } from './row-search.ts';

// The texts of a row, apart (row-texts.ts); named here too, where the list's other pure parts are.
export { type ExpiryTone, expiryText, typeAheadIndex } from './row-texts.ts';

// ---------------------------------------------------------------------------------------------
// Order and sections

const collator = madeOnce(() => new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));

/**
 * A string that sorts as the name reads, with plain `<`: folded, and every run of digits padded
 * so that "web 9" comes before "web 10". Kept per panel (panels are immutable), because a
 * collator over ten thousand names took most of the list's first render.
 */
const nameKeys = new WeakMap<Panel, string>();
export function nameKey(panel: Panel): string {
  let key = nameKeys.get(panel);
  if (key === undefined) {
    key = padNumbers(fold(panel.name));
    nameKeys.set(panel, key);
  }
  return key;
}

/** Attention first: a session the panel ended, then failed checks, then no sign-in, then signed in (by the sign-in alone: the order does not move with each state read). */
const STATUS_RANK: Readonly<Record<SignInKind, number>> = { expired: 0, 'check-failed': 1, 'signed-out': 2, 'signed-in': 3 };

export const SORT_NAMES: Readonly<Record<ListSort, string>> = {
  name: 'Name',
  status: 'Status (attention first)',
  checked: 'Last checked (longest ago first)',
  expiry: 'Session end (soonest first)',
  version: 'Version (oldest first)',
};

/** A time for sorting; unknown goes last. */
function timeOrLast(value: string | null | undefined, last: number): number {
  const time = value ? Date.parse(value) : NaN;
  return Number.isFinite(time) ? time : last;
}

/** Where a panel goes in `sort` order before its name decides; 0 for every panel in name order. */
export function sortKey(panel: Panel, sort: ListSort): number {
  switch (sort) {
    case 'name':
      return 0;
    case 'status':
      return STATUS_RANK[signInKind(panel)];
    case 'checked':
      // Never checked is the longest ago of all.
      return timeOrLast(panel.lastCheck?.at, -Infinity);
    case 'expiry':
      return panel.signedIn ? timeOrLast(panel.sessionExpiresAt, Infinity) : Infinity;
    case 'version':
      // The oldest first (the panels to upgrade); never named last.
      return versionSortKey(panel.panelVersion);
  }
}

/**
 * The panels in `sort` order, ties by name then address: a new array, `panels` untouched.
 * `keyOf` may hand out keys taken earlier, so that rows keep their places while the operator
 * walks the list (a read would otherwise move the row just selected).
 */
export function sortPanels(
  panels: readonly Panel[],
  sort: ListSort,
  keyOf: (panel: Panel) => number = (panel) => sortKey(panel, sort),
): Panel[] {
  return sortByKey(panels, (panel) => panel, keyOf);
}

/** `rows` in `sort` order as sortPanels orders their panels: a new array. */
export function sortRows<R extends FleetRow>(rows: readonly R[], keyOf: (panel: Panel) => number): R[] {
  return sortByKey(rows, (row) => row.panel, keyOf);
}

function sortByKey<T>(items: readonly T[], panelOf: (item: T) => Panel, keyOf: (panel: Panel) => number): T[] {
  const keyed = items.map((item) => {
    const panel = panelOf(item);
    return { item, panel, key: keyOf(panel), name: nameKey(panel) };
  });
  // Two panels of the same name are told apart by their address.
  keyed.sort(
    (a, b) =>
      a.key - b.key ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : a.panel.address < b.panel.address ? -1 : a.panel.address > b.panel.address ? 1 : 0),
  );
  return keyed.map(({ item }) => item);
}

const PAD = '000000000000';

/**
 * `text` with every run of digits padded to twelve, so "7" and "007" sort as the same number and
 * before "10". A loop rather than a regular expression: four times faster over ten thousand names.
 */
export function padNumbers(text: string): string {
  let key = '';
  let start = 0;
  let inDigits = false;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : -1;
    const digit = code >= 48 && code <= 57;
    if (index === text.length || digit !== inDigits) {
      if (index > start) {
        const run = start === 0 && index === text.length ? text : text.slice(start, index);
        key += inDigits && run.length < PAD.length ? PAD.slice(run.length) + run : run;
      }
      start = index;
      inDigits = digit;
    }
  }
  return key;
}

/** The section names that are not a group of the operator's. */
export const FAVOURITES = 'Favourites';
export const NO_GROUP = 'No group';
/** Folded-group keys of the two sections, apart from any group an operator could name. */
export const FAVOURITES_KEY = '\u0000favourites';
export const NO_GROUP_KEY = '\u0000none';

/** `position` (from 1) of `setSize`: where an entry is among its siblings, for screen readers. */
export type ListItem =
  | { kind: 'section'; key: string; name: string; count: number; attention: number; collapsed: boolean; position: number; setSize: number }
  | {
      kind: 'panel';
      key: string;
      row: PanelRow /** The section's key, or null in a list without sections. */;
      section: string | null;
      position: number;
      setSize: number;
    };

/**
 * The rows as the list shows them: favourites first, then each group in name order, then the
 * panels of no group, each under a heading that folds. Without favourites and groups the list
 * has no headings at all. Rows keep the order they come in (already sorted).
 */
export function listItems(rows: readonly PanelRow[], collapsed: ReadonlySet<string>): ListItem[] {
  const sections = listSections(rows, (row) => row.panel);
  if (sections === null) {
    return rows.map((row, index) => ({
      kind: 'panel',
      key: row.panel.id,
      row,
      section: null,
      position: index + 1,
      setSize: rows.length,
    }));
  }
  const items: ListItem[] = [];
  for (const [index, [key, name, members]] of sections.entries()) {
    const folded = collapsed.has(key);
    const attention = members.filter(needsAttention).length;
    items.push({
      kind: 'section',
      key: `section:${key}`,
      name,
      count: members.length,
      attention,
      collapsed: folded,
      position: index + 1,
      setSize: sections.length,
    });
    if (folded) continue;
    for (const [place, row] of members.entries())
      items.push({ kind: 'panel', key: row.panel.id, row, section: key, position: place + 1, setSize: members.length });
  }
  return items;
}

/**
 * The list's sections in order (favourites, each group by name, no group) as [key, name, members],
 * members in the order they come; null when the list has no sections (no favourite, no group).
 */
function listSections<T>(rows: readonly T[], panelOf: (row: T) => Panel): [string, string, T[]][] | null {
  const favourites: T[] = [];
  const groups = new Map<string, T[]>();
  const loose: T[] = [];
  for (const row of rows) {
    const panel = panelOf(row);
    if (panel.favourite) favourites.push(row);
    else if (panel.group !== null) {
      const members = groups.get(panel.group);
      if (members) members.push(row);
      else groups.set(panel.group, [row]);
    } else loose.push(row);
  }
  if (favourites.length === 0 && groups.size === 0) return null;
  const sections: [string, string, T[]][] = [];
  if (favourites.length > 0) sections.push([FAVOURITES_KEY, FAVOURITES, favourites]);
  for (const name of [...groups.keys()].sort(collator().compare)) sections.push([name, name, groups.get(name)!]);
  if (loose.length > 0) sections.push([NO_GROUP_KEY, NO_GROUP, loose]);
  return sections;
}

/** `panels` in the order the list shows them under `sort`, sections included (folded ones too): what the bulk view names. */
export function inListOrder(panels: readonly Panel[], sort: ListSort): Panel[] {
  const sorted = sortPanels(panels, sort);
  return listSections(sorted, (panel) => panel)?.flatMap(([, , members]) => members) ?? sorted;
}

/** The key a section is folded under, from its item. */
export function sectionKey(item: Extract<ListItem, { kind: 'section' }>): string {
  return item.key.slice('section:'.length);
}
