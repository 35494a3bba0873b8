import type { PanelOperationResult } from '../../shared/operations-console.ts';
import { MASKED_VALUE } from '../../shared/secret-fields.ts';
import { cellText, toCsv } from '../ui/csv.ts';
import { parseFieldPath } from '../../shared/field-path.ts';
import { isSecretKey, isSecretValue } from './secret-keys.ts';
import { maskInput } from './secret-mask.ts';

/** The read across panels as a table: one row per panel, sortable by each column, exported as CSV. */

export type ResultColumn = 'panel' | 'status' | 'ms' | 'value';
export interface ResultSort {
  column: ResultColumn;
  descending: boolean;
}

export interface ResultRow extends PanelOperationResult {
  panelName: string;
  panelAddress: string;
  /** The panel's group (a client), '' when it has none or is no longer in the list. */
  panelGroup: string;
  /** The value as one cell of text (JSON for objects), or the reason it failed. */
  valueText: string;
}

export const COLUMN_NAMES: Record<ResultColumn, string> = { panel: 'Panel', status: 'Status', ms: 'Time (ms)', value: 'Value' };

/**
 * The rows of the results so far; a panel no longer in the list keeps its id as its name. A value
 * at a secret-looking path, or inside one, is masked here and in the CSV, as in a panel's answer.
 */
export function resultRows(
  results: readonly PanelOperationResult[],
  panels: ReadonlyMap<string, { name: string; address: string; group: string | null }>,
  field: string | null,
): ResultRow[] {
  const secretPath = parseFieldPath(field ?? '')?.some((segment) => typeof segment === 'string' && isSecretKey(segment)) ?? false;
  return results.map((result) => {
    const panel = panels.get(result.panelId);
    const value = secretPath && result.value !== null && result.value !== '' ? MASKED_VALUE : maskCell(result.value);
    const valueText = result.outcome === 'done' ? cellText(value) : (result.message ?? result.outcome);
    return {
      ...result,
      value,
      panelName: panel?.name ?? result.panelId,
      panelAddress: panel?.address ?? '',
      panelGroup: panel?.group ?? '',
      valueText,
    };
  });
}

/** Keys in JSON text, even cut short: `"name":`. */
const JSON_KEYS = /"((?:[^"\\]|\\.){1,200})"\s*:/g;

/**
 * A cell as main sends it (an object or list as its JSON text, maybe cut and ending in "…") with
 * its secrets masked: parsed and masked when whole, masked entirely when cut and any key in it
 * looks secret; a password-hash-shaped string is masked whatever the path.
 */
export function maskCell(value: PanelOperationResult['value']): PanelOperationResult['value'] {
  if (typeof value !== 'string') return value;
  if (isSecretValue(value)) return MASKED_VALUE;
  if (!/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.stringify(maskInput(JSON.parse(value)));
  } catch {
    for (const match of value.matchAll(JSON_KEYS)) if (isSecretKey(match[1]!)) return MASKED_VALUE;
    return value;
  }
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Sorted by one column; rows without a value (failed, cancelled) go last either way, ties by panel name. */
export function sortRows(rows: readonly ResultRow[], sort: ResultSort): ResultRow[] {
  const sign = sort.descending ? -1 : 1;
  const missing = (row: ResultRow) =>
    sort.column === 'status'
      ? row.status === null
      : sort.column === 'ms'
        ? row.ms === null
        : sort.column === 'value'
          ? row.outcome !== 'done'
          : false;
  const compare = (a: ResultRow, b: ResultRow): number => {
    if (sort.column === 'status') return (a.status ?? 0) - (b.status ?? 0);
    if (sort.column === 'ms') return (a.ms ?? 0) - (b.ms ?? 0);
    if (sort.column === 'value') {
      if (typeof a.value === 'number' && typeof b.value === 'number') return a.value - b.value;
      return collator.compare(a.valueText, b.valueText);
    }
    return collator.compare(a.panelName, b.panelName);
  };
  return [...rows].sort(
    (a, b) => Number(missing(a)) - Number(missing(b)) || sign * compare(a, b) || collator.compare(a.panelName, b.panelName),
  );
}

/** The table as CSV, in the order shown: panel, its group, address, outcome, status, time, value or reason. */
export function resultsCsv(rows: readonly ResultRow[], field: string | null): string {
  const header = ['panel', 'group', 'address', 'outcome', 'status', 'ms', field ? `value (${field})` : 'value', 'message'];
  return toCsv([
    header,
    ...rows.map((row) => [
      row.panelName,
      row.panelGroup,
      row.panelAddress,
      row.outcome,
      row.status === null ? '' : String(row.status),
      row.ms === null ? '' : String(Math.round(row.ms)),
      row.outcome === 'done' ? row.valueText : '',
      row.message ?? '',
    ]),
  ]);
}
