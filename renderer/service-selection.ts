import type { ServiceSummary } from '../shared/services.ts';

/**
 * The Services tab's selection, as in a file manager: keyed by project and service (stable across
 * refreshes and searches), a click on its own, Ctrl to add or take out, Shift for a range from the
 * anchor. Each change is one new set; the rows compare only their own key. Pure.
 */

/** A service's key in the selection and the rows: a slash is in no project or service name. */
export const serviceKey = (service: Pick<ServiceSummary, 'projectName' | 'name'>) => `${service.projectName}/${service.name}`;

export const NO_SERVICES: ReadonlySet<string> = new Set();

/** `key` added, or taken out when it was in. */
export function toggled(selected: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(selected);
  if (!next.delete(key)) next.add(key);
  return next;
}

/** The rows from `from` to `to` (either way round), added to `base`. */
export function withRange(base: ReadonlySet<string>, rows: readonly ServiceSummary[], from: number, to: number): ReadonlySet<string> {
  const next = new Set(base);
  for (let index = Math.min(from, to); index <= Math.max(from, to); index++) {
    const row = rows[index];
    if (row) next.add(serviceKey(row));
  }
  return next;
}

/** Whether every row shown is selected, some are, or none. */
export function shownSelection(selected: ReadonlySet<string>, rows: readonly ServiceSummary[]): 'all' | 'some' | 'none' {
  if (selected.size === 0) return 'none';
  let count = 0;
  for (const row of rows) if (selected.has(serviceKey(row))) count++;
  return count === 0 ? 'none' : count === rows.length ? 'all' : 'some';
}

/** Every row shown added to the selection (`on`), or taken out of it. */
export function withShown(selected: ReadonlySet<string>, rows: readonly ServiceSummary[], on: boolean): ReadonlySet<string> {
  const next = new Set(selected);
  for (const row of rows) {
    if (on) next.add(serviceKey(row));
    else next.delete(serviceKey(row));
  }
  return next;
}

/** The services selected, in the table's order; those gone since (a refresh) drop out. */
export function selectedServices(sorted: readonly ServiceSummary[], selected: ReadonlySet<string>): ServiceSummary[] {
  return selected.size === 0 ? [] : sorted.filter((service) => selected.has(serviceKey(service)));
}
