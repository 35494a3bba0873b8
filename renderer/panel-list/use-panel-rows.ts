import { useDeferredValue, useMemo, useRef } from 'react';
import type { PanelHealth } from '../../shared/fleet-state.ts';
import type { ListSort, TableSettings, Panel } from '../../shared/types.ts';
import { type PanelRow, type PanelRowCache, panelRows, fleetCounts, type FleetCounts, needsAttention } from './panel-rows.ts';
import { matchingRows, rowMatcher, type SearchCache } from './row-search.ts';
import { sortKey, sortRows } from './panel-list-rows.ts';
import { panelFacts } from './panel-attention.ts';
import type { TableItem } from './table-columns.ts';
import { tableOf, useSearchTextsWhenIdle, useTableItems } from './table-layout-parts.tsx';

const NO_ROWS: readonly PanelRow[] = [];

interface PanelRowsInput {
  panels: readonly Panel[];
  health: ReadonlyMap<string, PanelHealth>;
  /** What is typed in the search box, and the attention filter. */
  query: string;
  attentionOnly: boolean;
  /** The list's order. */
  sort: ListSort;
  /** The table's view when the panel list is a table; null for the list. */
  table: TableSettings | null;
  /** The keyboard is in the list or the table: rows keep their places meanwhile. */
  listFocused: boolean;
}

interface PanelRowsOutput {
  /** The panels and the query the rows are of (deferred: ten thousand are worked out in a render of their own). */
  listed: readonly Panel[];
  listedHealth: ReadonlyMap<string, PanelHealth>;
  listedQuery: string;
  /** What the operator sees is not yet what was asked (typed, listed). */
  settling: boolean;
  fleet: FleetCounts;
  /** The list's rows, in its order, the search's best first. */
  listRows: readonly PanelRow[];
  /** The table's items and how many panels they show. */
  tableItems: readonly TableItem[];
  /** Every panel's row (the search and folds aside), for the table's widths by content: they hold while the operator types. */
  tableRows: readonly PanelRow[];
  shown: number;
}

/**
 * The panel list's rows from the panels, their state and what the operator asked: each panel's row
 * built once per panel and state, sorted once per order, and a keystroke only matching them.
 */
export function usePanelRows({ panels, health, query, attentionOnly, sort, table, listFocused }: PanelRowsInput): PanelRowsOutput {
  // Per panel and state, across renders: a keystroke over ten thousand panels reads them back.
  const rowCache = useRef<PanelRowCache>(new WeakMap()).current;
  const searchText = useRef<SearchCache>(new WeakMap()).current;
  // Ten thousand panels are sorted, filtered and grouped in a render of their own, which React
  // may interrupt: the rest of the window (the panel shown, what is typed) never waits behind it.
  // The list's first listing is not deferred: with nothing shown yet, a render of the window without
  // the rows, then one with them, only put the first row one more render, commit and layout further
  // off (about 25 ms at ten thousand panels). The table's is: its sort by column and widths by
  // content over ten thousand rows would make one task of over 100 ms.
  const deferredPanels = useDeferredValue(panels);
  const firstListing = table === null && deferredPanels.length === 0 && panels.length > 0;
  const listed = firstListing ? panels : deferredPanels;
  const listedQuery = useDeferredValue(query);
  // A check's state read comes from a store (a render that cannot wait): the rows follow it in a render of their own.
  const deferredHealth = useDeferredValue(health);
  const listedHealth = firstListing ? health : deferredHealth;
  const rows = useMemo(() => panelRows(listed, listedHealth, rowCache), [listed, listedHealth, rowCache]);
  // "Needs attention" is the facts' (panel-rows.ts), in the list as in the table: the same panels in both.
  const fleet = useMemo(() => fleetCounts(rows), [rows]);
  // While the operator works in the list, rows keep the places they had (a session read would
  // move the row just selected when sorted by last check, status or session end); new panels get
  // theirs. Out of the list, the order is live. A search puts the best matches first within each
  // section (the headings stay in place) and keeps this order among equal matches.
  // The keys are the order's own: another order (chosen while the list keeps the focus) starts afresh.
  const frozenKeys = useRef({ sort, keys: new Map<string, number>() });
  const tabled = table !== null;
  const sorted = useMemo(() => {
    if (!listFocused || frozenKeys.current.sort !== sort) frozenKeys.current = { sort, keys: new Map() };
    const { keys } = frozenKeys.current;
    // The table sorts by its own column (table-layout-parts.tsx): the list's order would be work thrown away.
    if (tabled) return NO_ROWS;
    return sortRows(rows, (panel) => {
      let key = keys.get(panel.id);
      if (key === undefined) {
        key = sortKey(panel, sort);
        keys.set(panel.id, key);
      }
      return key;
    });
  }, [rows, sort, listFocused, tabled]);
  // One matcher per keystroke, over rows built already: nothing is counted or sorted again.
  const matcher = useMemo(
    () =>
      rowMatcher({ query: listedQuery, attentionOnly }, needsAttention, searchText, (row: PanelRow) => panelFacts(row.panel, row.health)),
    [listedQuery, attentionOnly, searchText],
  );
  const listRows = useMemo(() => matchingRows(sorted, matcher), [sorted, matcher]);
  useSearchTextsWhenIdle(rows, searchText);
  const tableRows = table ? rows : NO_ROWS;
  const { items: tableItems, shown } = useTableItems(tableRows, table ?? tableOf(undefined), matcher);
  return {
    listed,
    listedHealth,
    listedQuery,
    settling: listed !== panels || listedQuery !== query,
    fleet,
    listRows,
    tableItems,
    tableRows,
    shown,
  };
}
