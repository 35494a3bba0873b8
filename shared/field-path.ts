import { isRecord } from './guards.ts';

/**
 * The JSON path a read across panels shows per panel (`field`): a simple dotted and bracket path.
 * - `version`, `projects[0].name`, `users[2]["api token"]`, `$.stats.cpu` (a leading `$` or `$.` is allowed);
 * - a name segment is letters, digits, `_`, `-` or `$` (anything else goes in `["..."]`, JSON string syntax);
 * - `[n]` is an array index (a whole number), and so is a name of digits on a list (`0.name`); `length` of an array is its length;
 * - an empty path (or `$`) is the whole answer.
 * Pure and free of zod: main reads the value with it, the window checks what the operator types.
 */

export type FieldPathSegment = string | number;

/** Longest path accepted. */
export const FIELD_PATH_MAX = 500;

const NAME = /^[A-Za-z0-9_\-$]+/;

/** The path's segments, or null when it is not a path of this syntax. */
export function parseFieldPath(text: string): FieldPathSegment[] | null {
  if (text.length > FIELD_PATH_MAX) return null;
  let rest = text.trim();
  if (rest === '$') return [];
  if (rest.startsWith('$.') || rest.startsWith('$[')) rest = rest.slice(rest[1] === '.' ? 2 : 1);
  const segments: FieldPathSegment[] = [];
  let first = true;
  while (rest !== '') {
    if (rest.startsWith('[')) {
      const index = /^\[(\d{1,9})\]/.exec(rest);
      if (index) {
        segments.push(Number(index[1]));
        rest = rest.slice(index[0].length);
      } else {
        const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
        if (!quoted) return null;
        let key: unknown;
        try {
          key = JSON.parse(quoted[1]!);
        } catch {
          return null;
        }
        segments.push(key as string);
        rest = rest.slice(quoted[0].length);
      }
    } else {
      if (!first) {
        if (!rest.startsWith('.')) return null;
        rest = rest.slice(1);
      }
      const name = NAME.exec(rest);
      if (!name) return null;
      segments.push(name[0]);
      rest = rest.slice(name[0].length);
    }
    first = false;
  }
  return segments;
}

/** The value at `path` in `value`, or undefined when the path leads nowhere (own keys only, never the prototype). */
export function valueAtPath(value: unknown, path: readonly FieldPathSegment[]): unknown {
  let here = value;
  for (const segment of path) {
    if (Array.isArray(here)) {
      if (segment === 'length') here = here.length;
      else if (typeof segment === 'number') here = here[segment];
      // `0.email` means `[0].email`: operators write an index as a dotted name too.
      else if (/^\d{1,9}$/.test(segment)) here = here[Number(segment)];
      else return undefined;
    } else if (isRecord(here) && Object.hasOwn(here, String(segment))) {
      here = here[String(segment)];
    } else {
      return undefined;
    }
  }
  return here;
}
