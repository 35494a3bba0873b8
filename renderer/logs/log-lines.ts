import { SERVICE_NAME_PATTERN } from '../../shared/service-logs.ts';

/** The lines the Logs tab keeps; past it the oldest go (a follow that runs all day stays this size). */
export const LOG_LINES_KEPT = 100_000;

/** `kept` then `more`, the newest `max` of them. */
export function appendLines(kept: readonly string[], more: readonly string[], max = LOG_LINES_KEPT): readonly string[] {
  if (more.length >= max) return more.slice(-max);
  const drop = Math.max(0, kept.length + more.length - max);
  return drop === 0 ? [...kept, ...more] : [...kept.slice(drop), ...more];
}

/** The lines holding every word of `query` (any case); all of them for an empty query. */
export function matchingLines(lines: readonly string[], query: string): readonly string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return lines;
  return lines.filter((line) => {
    const lower = line.toLowerCase();
    return words.every((word) => lower.includes(word));
  });
}

/** What is wrong with a project or service name as typed, or null (Easypanel's rule: `^[a-z0-9-_]+$`). */
export function serviceNameProblem(what: string, value: string): string | null {
  if (value === '') return `Enter the ${what} name.`;
  if (value.length > 64) return `The ${what} name is too long (64 characters at most).`;
  return SERVICE_NAME_PATTERN.test(value) ? null : `A ${what} name holds only lower-case letters, digits, "-" and "_".`;
}
