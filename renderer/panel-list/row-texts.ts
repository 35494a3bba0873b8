import { HOUR_MS, untilText } from '../../shared/durations.ts';
import { diskPercent, servicesDownText, staleAge } from '../ui/panel-state.ts';
import { fold } from './panel-search.ts';
import type { PanelRow } from './panel-rows.ts';

/** Texts and moves of a row of the panel list and the table: pure, so they run in tests under Node. */

/** `stale`: the end the panel gave before its last check failed, which may no longer hold. */
export type ExpiryTone = 'ok' | 'soon' | 'ended' | 'stale';

/**
 * A row's session end: "expires in 40 min" (amber under an hour), "expired" (red), or null when
 * unknown. After a failed check (`lastKnown`) the panel may have ended the session meanwhile: the
 * end is "last known: expires in 6 days", in plain colour; a time gone by is "expired" all the same.
 */
export function expiryText(expiresAt: string | null, now: number, lastKnown = false): { text: string; tone: ExpiryTone } | null {
  if (expiresAt === null) return null;
  const end = Date.parse(expiresAt);
  if (!Number.isFinite(end)) return null;
  if (end <= now) return { text: 'expired', tone: 'ended' };
  if (lastKnown) return { text: `last known: expires ${untilText(end, now)}`, tone: 'stale' };
  return { text: `expires ${untilText(end, now)}`, tone: end - now < HOUR_MS ? 'soon' : 'ok' };
}

/**
 * Type-ahead in the list: the next entry after `from` (wrapping) whose name starts with `typed`,
 * or -1. Repeating one letter steps through the entries starting with it, as in a file manager.
 */
export function typeAheadIndex(names: readonly string[], typed: string, from: number): number {
  const prefix = fold(typed);
  if (prefix === '' || names.length === 0) return -1;
  const repeated = prefix.length > 1 && [...prefix].every((letter) => letter === prefix[0]);
  const wanted = repeated ? prefix[0]! : prefix;
  // A new prefix may match the current entry itself; a repeated letter moves on.
  const start = repeated || prefix.length === 1 ? from + 1 : from;
  for (let step = 0; step < names.length; step++) {
    const index = (((start + step) % names.length) + names.length) % names.length;
    if (fold(names[index]!).startsWith(wanted)) return index;
  }
  return -1;
}

/**
 * What a list row says of its panel's state beside the dot: the state's word, or for services down
 * which ones ("web, api +3 down"), and when its figures are older than the last check, their age
 * ("as of 3 h ago"); `tab`, the panel's tab a click on the text opens (services down: where they
 * are listed), null when the text has none of its own. Null for a panel that is simply OK, signed
 * out or new: the dot says it.
 */
export function rowStateText(
  row: Pick<PanelRow, 'panel' | 'health' | 'kind' | 'label'>,
  now: number,
): { text: string; asOf: string | null; tab: 'services' | null } | null {
  const asOf = staleAge(row.panel, row.health, now);
  switch (row.kind) {
    case 'degraded': {
      const down = servicesDownText(row.health, 'short');
      if (down) return { text: down, asOf, tab: 'services' };
      const disk = diskPercent(row.health);
      return { text: disk === null ? row.label : `disk ${disk}% full`, asOf, tab: null };
    }
    case 'unknown':
    case 'unreachable':
    case 'expired':
    case 'signed-in':
      return { text: row.label, asOf, tab: null };
    default:
      return null;
  }
}
