/**
 * Type guards for JSON read from Paneldeck's own files, by hand: they run for every entry of lists
 * of ten thousand panels at each start, where a schema library took longer than reading the files.
 */

export { isRecord } from '../../../shared/guards.ts';

/** Text of at most `max` characters: what a field of a kept read may hold. */
export function isTextUpTo(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

export function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** An ISO date-time in UTC, as `Date.toISOString` writes it. */
export function isTime(value: unknown): value is string {
  return typeof value === 'string' && TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** Whether `check` returns true without throwing: for validators that refuse by throwing. */
export function holds(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}
