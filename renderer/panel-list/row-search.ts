import { COLOUR_NAMES } from '../../shared/labels.ts';
import { versionLabel } from '../../shared/panel-version.ts';
import type { Panel } from '../../shared/types.ts';
import type { FleetFilter, FleetRow } from './panel-list-rows.ts';
import { byRank, matchRank, NO_MATCH, type PanelFacts, RANK, type SearchEntry, searchEntry, searchQuery } from './panel-search.ts';
import type { PanelState } from '../ui/panel-state.ts';

/**
 * The panel list's search over its rows (the list's and the table's alike): one matcher per keystroke,
 * each row's search text built once per panel and kept.
 */

/**
 * Words an operator types for a state, beside its label ("unknown", "expired", "signed out"): matched
 * whole. Older words ("failing", "down") still find what they found, though the window no longer says them.
 */
const STATUS_WORDS: Readonly<Record<PanelState, string>> = {
  unreachable: 'unreachable failing failed signed in',
  expired: 'expired session expired',
  degraded: 'degraded signed in',
  unknown: 'unknown failing failed error check failed signed in',
  ok: 'ok signed in',
  'signed-in': 'signed in',
  'signed-out': 'signed out logged out',
  new: 'new signed out logged out',
};

/**
 * Each panel's search text, kept by the panel's identity: panels are immutable, so a keystroke
 * over ten thousand of them only compares strings, and a changed panel is a new key.
 */
export type SearchCache = WeakMap<Panel, SearchEntry>;

/** Ranks a row for a search (RANK: smaller first), or NO_MATCH when the search or the filter leaves it out. */
export type RowMatcher<R> = (row: R) => number;

/**
 * What `filter` keeps of the rows, one row at a time; null when it keeps them all (nothing typed,
 * no attention filter). Built once per keystroke; the rows' search texts are built the first time
 * they are searched and kept in `cache`.
 */
export function rowMatcher<R extends FleetRow>(
  filter: Pick<FleetFilter, 'query' | 'attentionOnly'>,
  attends: (row: R) => boolean,
  cache: SearchCache,
  factsOf: (row: R) => PanelFacts,
): RowMatcher<R> | null {
  const query = searchQuery(filter.query);
  const searching = query.terms.length > 0 || query.facts.length > 0;
  if (!searching && !filter.attentionOnly) return null;
  return (row) => {
    if (filter.attentionOnly && !attends(row)) return NO_MATCH;
    if (!searching) return RANK.exactName;
    if (query.facts.length > 0) {
      const facts = factsOf(row);
      if (!query.facts.every((holds) => holds(facts))) return NO_MATCH;
    }
    return matchRank(searchEntryOf(row, cache), query);
  };
}

function searchEntryOf(row: FleetRow, cache: SearchCache): SearchEntry {
  let entry = cache.get(row.panel);
  if (entry === undefined) {
    entry = panelSearchEntry(row.panel, row);
    cache.set(row.panel, entry);
  }
  return entry;
}

/**
 * Builds the search texts of `rows` from `from` on, until `enough()` says stop (checked every 100
 * rows); returns where it stopped (`rows.length`: all built). Run while the window is idle, so the
 * first keystroke only compares strings.
 */
export function buildSearchTexts(rows: readonly FleetRow[], cache: SearchCache, from: number, enough: () => boolean): number {
  let index = from;
  while (index < rows.length) {
    const end = Math.min(rows.length, index + 100);
    for (; index < end; index++) searchEntryOf(rows[index]!, cache);
    if (enough()) break;
  }
  return index;
}

/** The rows `matcher` keeps, best rank first, the order given within a rank; `rows` itself when there is no matcher. */
export function matchingRows<R>(rows: readonly R[], matcher: RowMatcher<R> | null): readonly R[] {
  if (matcher === null) return rows;
  const kept: R[] = [];
  const ranks: number[] = [];
  for (const row of rows) {
    const rank = matcher(row);
    if (rank === NO_MATCH) continue;
    kept.push(row);
    ranks.push(rank);
  }
  return byRank(kept, ranks);
}

/**
 * What a panel's search matches: the version as the header shows it, so "2.30" finds the panels
 * on 2.30.x, "read-only" for a read-only panel and its fleet file's name; the state, the colour and "shared" (a panel of
 * a fleet file) as whole words, so "red" is a colour and never "expi-red".
 */
function panelSearchEntry(panel: Panel, row: FleetRow): SearchEntry {
  const version = panel.panelVersion === null ? '' : versionLabel(panel.panelVersion);
  // "read-only" as the header says it: a field, so the hyphen typed matches too.
  const fields = `${panel.address}\n${panel.group ?? ''}\n${panel.tags.join('\n')}\n${version}${panel.readOnly ? '\nread-only readonly' : ''}${panel.fleetFileName === null ? '' : `\n${panel.fleetFileName}`}`;
  // The colour as its menu names it: "red" and "production" both find the red panels.
  const colour = panel.colour === null ? '' : COLOUR_NAMES[panel.colour];
  // "shared" finds the panels of a fleet file.
  const shared = panel.fleetFile === null ? '' : ' shared';
  return searchEntry(panel.name, fields, `${row.label} ${STATUS_WORDS[row.kind]} ${colour}${shared}`);
}
