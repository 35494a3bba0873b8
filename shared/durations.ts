/**
 * Lengths of time in the operator's words, the same in the window, the list and the system
 * notification. One rounding rule: whole units that have fully gone by or fully remain (rounded
 * down, never up), so a countdown never promises time that is not there and "checked 3 min ago"
 * means at least three minutes. Under a minute has words of its own; from 48 hours on, whole days.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
const HOUR_MINUTES = 60;
const DAY_HOURS = 24;
/** From here on a length is said in days: "30 h" still reads at a glance, "50 h" no longer does. */
const DAYS_FROM_HOURS = 48;

/** "under a minute", "9 min", "1 h", "2 h 5 min", "3 days": a length of time, rounded down. */
export function durationText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / MINUTE_MS);
  if (minutes < 1) return 'under a minute';
  if (minutes < HOUR_MINUTES) return `${minutes} min`;
  const hours = Math.floor(minutes / HOUR_MINUTES);
  if (hours >= DAYS_FROM_HOURS) return `${Math.floor(hours / DAY_HOURS)} days`;
  const rest = minutes % HOUR_MINUTES;
  return `${hours} h${rest === 0 ? '' : ` ${rest} min`}`;
}

/** "just now", "3 min ago", "4 days ago": how long ago `atMs` was; a time ahead (a clock off) is "just now"; '' for no time. */
export function agoText(atMs: number, nowMs: number): string {
  const elapsed = nowMs - atMs;
  if (!Number.isFinite(elapsed)) return '';
  return elapsed < MINUTE_MS ? 'just now' : `${durationText(elapsed)} ago`;
}

/** "in 9 min", "in under a minute", "in 2 h 5 min": how long until `atMs`; a time gone by is "in under a minute"; '' for no time. */
export function untilText(atMs: number, nowMs: number): string {
  const left = atMs - nowMs;
  if (!Number.isFinite(left)) return '';
  return `in ${durationText(left)}`;
}

/** `agoText` or `untilText`, whichever side of now `atMs` is on: a date the operator reads beside its calendar form. */
export function relativeText(atMs: number, nowMs: number): string {
  return atMs > nowMs ? untilText(atMs, nowMs) : agoText(atMs, nowMs);
}
