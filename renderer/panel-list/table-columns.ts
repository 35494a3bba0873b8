import { agoText } from '../../shared/durations.ts';
import type { PanelHealth } from '../../shared/fleet-state.ts';
import { versionSortKey } from '../../shared/panel-version.ts';
import { FLEET_FILE_SUFFIX } from '../../shared/fleet-file.ts';
import { TABLE_COLUMNS, type TableGrouping, type TableSettings, type Panel, type TableColumn } from '../../shared/types.ts';
import { needsAttention } from './panel-rows.ts';
import { expiryText, NO_GROUP, nameKey } from './panel-list-rows.ts';
import { fold } from './panel-search.ts';
import { diskPercent, memoryPercent, type PanelAttention } from './panel-attention.ts';
import { isApiTokenSignIn } from '../ui/panel-status.ts';
import { staleAge } from '../ui/panel-state.ts';

/**
 * The table layout's columns: what each says of a panel, how wide it starts, and how it sorts.
 * Pure: the table component only lays the texts out. An unknown figure sorts last whichever the
 * direction, so the panels that said nothing never crowd the top.
 */

export interface TableRow {
  panel: Panel;
  attention: PanelAttention;
  health: PanelHealth | undefined;
}

export interface ColumnSpec {
  title: string;
  /** Width before the operator drags it (pixels). */
  width: number;
  /** Figures are right-aligned, to compare them down the column. */
  numeric: boolean;
  text(row: TableRow, now: number): string;
  /** A number or a string to sort by; null (unknown) sorts last. */
  sortValue(row: TableRow): number | string | null;
}

const percent = (value: number | null) => (value === null ? '' : `${value}%`);
const timeOf = (value: string | null | undefined) => {
  const time = value ? Date.parse(value) : NaN;
  return Number.isFinite(time) ? time : null;
};

export const COLUMNS: Readonly<Record<TableColumn, ColumnSpec>> = {
  state: { title: 'State', width: 124, numeric: false, text: (row) => row.attention.word, sortValue: (row) => row.attention.severity },
  name: { title: 'Name', width: 150, numeric: false, text: (row) => row.panel.name, sortValue: (row) => nameKey(row.panel) },
  group: {
    title: 'Group',
    width: 84,
    numeric: false,
    text: (row) => row.panel.group ?? '',
    sortValue: (row) => row.panel.group && fold(row.panel.group),
  },
  file: {
    title: 'Fleet file',
    width: 120,
    numeric: false,
    // Its name without the suffix every fleet file has: the column says what it is.
    text: (row) => fileLabel(row.panel) ?? '',
    sortValue: (row) => {
      const label = fileLabel(row.panel);
      return label === null ? null : fold(label);
    },
  },
  reason: {
    title: 'Reason',
    width: 300,
    numeric: false,
    // Short phrases ("Unreachable · Disk 93% full"): the sentences are the cell's title (`reasonInFull`).
    text: (row, now) => {
      const stale = staleText(row, now);
      return [row.attention.shortReason, stale && `figures ${stale}`].filter(Boolean).join(' · ');
    },
    sortValue: (row) => row.attention.reason,
  },
  version: {
    title: 'Version',
    width: 64,
    numeric: false,
    // The number alone: the column says what it is, and "Easypanel" on every row hides the figure.
    text: (row) => row.panel.panelVersion ?? '',
    sortValue: (row) => (row.panel.panelVersion === null ? null : versionSortKey(row.panel.panelVersion)),
  },
  update: {
    title: 'Update',
    width: 84,
    numeric: false,
    // What the panel's last version read said: a newer Easypanel is out, or it runs the newest.
    text: (row) => (row.panel.updateAvailable === true ? 'Available' : row.panel.updateAvailable === false ? 'Up to date' : ''),
    sortValue: (row) => (row.panel.updateAvailable === null ? null : row.panel.updateAvailable ? 0 : 1),
  },
  disk: {
    title: 'Disk',
    width: 48,
    numeric: true,
    text: (row) => percent(diskPercent(row.health)),
    sortValue: (row) => diskPercent(row.health),
  },
  memory: {
    title: 'Mem',
    width: 48,
    numeric: true,
    text: (row) => percent(memoryPercent(row.health)),
    sortValue: (row) => memoryPercent(row.health),
  },
  cpu: {
    title: 'CPU',
    width: 48,
    numeric: true,
    text: (row) => percent(cpuOf(row)),
    sortValue: cpuOf,
  },
  down: {
    title: 'Down',
    width: 50,
    numeric: true,
    // Not known is "?", never blank or 0: a blank reads as "none down".
    text: (row) =>
      row.health === undefined || !row.panel.signedIn ? '' : row.health.servicesDown === null ? '?' : String(row.health.servicesDown),
    sortValue: (row) => row.health?.servicesDown ?? null,
  },
  session: {
    title: 'Session end',
    width: 100,
    numeric: false,
    text: (row, now) => sessionText(row.panel, now),
    sortValue: (row) => (row.panel.signedIn ? timeOf(row.panel.sessionExpiresAt) : null),
  },
  checked: {
    title: 'Last check',
    width: 90,
    numeric: false,
    text: (row, now) => {
      const at = timeOf(row.panel.lastCheck?.at);
      return at === null ? 'never' : agoText(at, now);
    },
    sortValue: (row) => timeOf(row.panel.lastCheck?.at),
  },
};

/** The reason cell's title: every fact in its full sentence, and the figures' age. */
export function reasonInFull(row: TableRow, now: number): string {
  const stale = staleText(row, now);
  return [row.attention.reason, stale && `figures ${stale}`].filter(Boolean).join(' · ');
}

/** The columns whose figures come from the check's state read, marked when older than the last check. */
export const FIGURE_COLUMNS: ReadonlySet<TableColumn> = new Set(['disk', 'memory', 'cpu', 'down']);

/** "as of 3 h ago" when the row's figures are older than its last check; null when they are its own. */
export function staleText(row: TableRow, now: number): string | null {
  return staleAge(row.panel, row.health, now);
}

function cpuOf(row: TableRow): number | null {
  const cpu = row.health?.cpuPercent ?? null;
  return cpu === null ? null : Math.round(cpu);
}

function sessionText(panel: Panel, now: number): string {
  if (!panel.signedIn) return '';
  if (isApiTokenSignIn(panel)) return 'API token';
  // "in 6 days": the column's name says what ends.
  return expiryText(panel.sessionExpiresAt, now)?.text.replace(/^expires /, '') ?? '';
}

/** A panel's fleet file as the table names it (`acme` for `acme.paneldeck-fleet.json`); null for a panel of this machine only. */
export function fileLabel(panel: Panel): string | null {
  return panel.fleetFileName === null ? null : panel.fleetFileName.replace(FLEET_FILE_SUFFIX, '');
}

/** The table as it first shows: every column but the fleet file's (in the Columns menu), attention first, flat across groups. */
export const DEFAULT_TABLE: TableSettings = {
  columns: TABLE_COLUMNS.filter((column) => column !== 'file'),
  widths: {},
  sortBy: 'state',
  descending: false,
  grouped: false,
};

/** The reason gives way down to this (pixels) before the table scrolls sideways; it takes any room to spare. */
export const REASON_MIN_WIDTH = 120;

/** The columns sized by what they hold (a client's group whole, every name), within these bounds (pixels). */
const FITTED_COLUMNS: Readonly<Partial<Record<TableColumn, { min: number; max: number }>>> = {
  name: { min: 90, max: 260 },
  group: { min: 56, max: 220 },
};
/** A cell's padding and a little air, past its text's width. */
const CELL_PADDING = 16;
/** Only a column's longest texts, by characters, are measured: ten thousand rows cost a few measures. */
const MEASURED_TEXTS = 8;

/** Widths by content: set by `fittedWidths`, overridden by the operator's. */
export type FittedWidths = Readonly<Partial<Record<TableColumn, number>>>;

/**
 * The fitted columns' widths for these rows: the widest of their longest texts (and the column's
 * title, in `measureTitle`'s bolder font) and padding, within the column's bounds.
 */
export function fittedWidths(
  rows: readonly TableRow[],
  measure: (text: string) => number,
  measureTitle: (text: string) => number = measure,
): FittedWidths {
  const widths: Partial<Record<TableColumn, number>> = {};
  for (const [column, bounds] of Object.entries(FITTED_COLUMNS) as [TableColumn, { min: number; max: number }][]) {
    const longest: string[] = [];
    for (const row of rows) {
      const text = COLUMNS[column].text(row, 0);
      if (longest.length < MEASURED_TEXTS) longest.push(text);
      else if (text.length > longest[longest.length - 1]!.length) longest[longest.length - 1] = text;
      else continue;
      longest.sort((a, b) => b.length - a.length);
    }
    const widest = Math.max(
      measureTitle(COLUMNS[column].title) + CELL_PADDING + 10,
      ...longest.map((text) => measure(text) + CELL_PADDING),
    );
    widths[column] = Math.min(bounds.max, Math.max(bounds.min, Math.ceil(widest)));
  }
  return widths;
}

/** A column's width: the operator's, else its width by content, else its default. */
export function columnWidth(table: TableSettings, column: TableColumn, fitted: FittedWidths = {}): number {
  return table.widths[column] ?? fitted[column] ?? COLUMNS[column].width;
}

/** -1, 0 or 1 for two sort values, unknown last. */
function compareValues(a: number | string | null, b: number | string | null, descending: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -order : order;
}

/** A row of the table, or a group's heading when the table is grouped. */
export type TableItem =
  | { kind: 'group'; key: string; name: string; count: number; attention: number }
  | { kind: 'row'; key: string; row: TableRow };

/**
 * The rows in the table's order: by its column (ties by name, then address), flat, or grouped
 * under a heading per group (groups by name, no group last) when `grouped`. A new array.
 */
export function tableItems(
  rows: readonly TableRow[],
  table: Pick<TableSettings, 'sortBy' | 'descending' | 'grouped' | 'groupBy'>,
): TableItem[] {
  return groupTableRows(sortTableRows(rows, table), table.grouped, table.groupBy);
}

/** The rows by the table's column, ties by name, then address: a new array. */
export function sortTableRows<R extends TableRow>(rows: readonly R[], table: Pick<TableSettings, 'sortBy' | 'descending'>): R[] {
  const column = COLUMNS[table.sortBy];
  const name = COLUMNS.name;
  const keyed = rows.map((row) => ({ row, value: column.sortValue(row), name: name.sortValue(row) as string }));
  keyed.sort(
    (a, b) =>
      compareValues(a.value, b.value, table.descending) ||
      compareValues(a.name, b.name, false) ||
      compareValues(a.row.panel.address, b.row.panel.address, false),
  );
  return keyed.map(({ row }) => row);
}

/** A row's item, the same object while the row is: the table's memoised rows skip what did not change. */
const items = new WeakMap<TableRow, TableItem>();
function itemOf(row: TableRow): TableItem {
  let item = items.get(row);
  if (item === undefined) {
    item = { kind: 'row', key: row.panel.id, row };
    items.set(row, item);
  }
  return item;
}

/**
 * Sorted rows as the table shows them: flat, or under a heading per group or per fleet file (by
 * name; no group, or this machine only, last), the order kept within.
 */
export function groupTableRows(sorted: readonly TableRow[], grouped: boolean, by: TableGrouping = 'group'): TableItem[] {
  if (!grouped) return sorted.map(itemOf);
  const headingOf = by === 'file' ? (row: TableRow) => fileLabel(row.panel) ?? '' : (row: TableRow) => row.panel.group ?? '';
  const groups = new Map<string, TableRow[]>();
  for (const row of sorted) {
    const group = headingOf(row);
    const members = groups.get(group);
    if (members) members.push(row);
    else groups.set(group, [row]);
  }
  const names = [...groups.keys()].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : compareValues(fold(a), fold(b), false)));
  return names.flatMap((group): TableItem[] => {
    const members = groups.get(group)!;
    const heading: TableItem = {
      kind: 'group',
      key: `${by}:${group}`,
      name: group === '' ? (by === 'file' ? THIS_MACHINE_ONLY : NO_GROUP) : group,
      count: members.length,
      attention: members.filter(needsAttention).length,
    };
    return [heading, ...members.map(itemOf)];
  });
}

/** The heading of the panels in no fleet file, when the table is grouped by file. */
export const THIS_MACHINE_ONLY = 'This machine only';
