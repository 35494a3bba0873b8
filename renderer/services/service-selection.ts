import type { ServiceSummary } from '../../shared/services.ts';

/**
 * The services tables' selection, as in a file manager: keyed by a stable key (project and service
 * in a panel's tab; the panel too across panels), a click on its own, Ctrl to add or take out,
 * Shift for a range from the anchor. Each change is one new set; the rows compare only their own
 * key. A row whose key is null (a group's heading) is never selected. Pure.
 */

/** A service's key in the selection and the rows: a slash is in no project or service name. */
export const serviceKey = (service: Pick<ServiceSummary, 'projectName' | 'name'>) => `${service.projectName}/${service.name}`;

/** A row's key in a selection; null for a row that is not selected (a heading). */
export type SelectionKey<T> = (row: T) => string | null;

export const NO_SERVICES: ReadonlySet<string> = new Set();

/** `key` added, or taken out when it was in. */
export function toggled(selected: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(selected);
  if (!next.delete(key)) next.add(key);
  return next;
}

/** The rows from `from` to `to` (either way round), added to `base`. */
export function withRange(base: ReadonlySet<string>, rows: readonly ServiceSummary[], from: number, to: number): ReadonlySet<string>;
export function withRange<T>(
  base: ReadonlySet<string>,
  rows: readonly T[],
  from: number,
  to: number,
  keyOf: SelectionKey<T>,
): ReadonlySet<string>;
export function withRange<T>(
  base: ReadonlySet<string>,
  rows: readonly T[],
  from: number,
  to: number,
  keyOf: SelectionKey<T> = serviceKey as SelectionKey<unknown>,
): ReadonlySet<string> {
  const next = new Set(base);
  for (let index = Math.min(from, to); index <= Math.max(from, to); index++) {
    const key = index < rows.length ? keyOf(rows[index]!) : null;
    if (key !== null) next.add(key);
  }
  return next;
}

/** Whether every row shown is selected, some are, or none. */
export function shownSelection(selected: ReadonlySet<string>, rows: readonly ServiceSummary[]): 'all' | 'some' | 'none';
export function shownSelection<T>(selected: ReadonlySet<string>, rows: readonly T[], keyOf: SelectionKey<T>): 'all' | 'some' | 'none';
export function shownSelection<T>(
  selected: ReadonlySet<string>,
  rows: readonly T[],
  keyOf: SelectionKey<T> = serviceKey as SelectionKey<unknown>,
): 'all' | 'some' | 'none' {
  if (selected.size === 0) return 'none';
  let count = 0;
  let keyed = 0;
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    keyed++;
    if (selected.has(key)) count++;
  }
  return count === 0 ? 'none' : count === keyed ? 'all' : 'some';
}

/** Every row shown added to the selection (`on`), or taken out of it. */
export function withShown(selected: ReadonlySet<string>, rows: readonly ServiceSummary[], on: boolean): ReadonlySet<string>;
export function withShown<T>(selected: ReadonlySet<string>, rows: readonly T[], on: boolean, keyOf: SelectionKey<T>): ReadonlySet<string>;
export function withShown<T>(
  selected: ReadonlySet<string>,
  rows: readonly T[],
  on: boolean,
  keyOf: SelectionKey<T> = serviceKey as SelectionKey<unknown>,
): ReadonlySet<string> {
  const next = new Set(selected);
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    if (on) next.add(key);
    else next.delete(key);
  }
  return next;
}

/** The services selected, in the table's order; those gone since (a refresh) drop out. */
export function selectedServices(sorted: readonly ServiceSummary[], selected: ReadonlySet<string>): ServiceSummary[];
export function selectedServices<T>(sorted: readonly T[], selected: ReadonlySet<string>, keyOf: SelectionKey<T>): T[];
export function selectedServices<T>(
  sorted: readonly T[],
  selected: ReadonlySet<string>,
  keyOf: SelectionKey<T> = serviceKey as SelectionKey<unknown>,
): T[] {
  if (selected.size === 0) return [];
  return sorted.filter((row) => {
    const key = keyOf(row);
    return key !== null && selected.has(key);
  });
}
