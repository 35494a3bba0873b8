/**
 * How deep and how big a JSON text is, read from the text alone, before JSON.parse.
 *
 * Everything main does with a panel's answer (JSON.parse, hiding the token, Electron's structured
 * clone to the window) costs time in proportion to the number of values, and none of it can be
 * interrupted: a 4 MiB answer of hundreds of thousands of tiny values, or nested millions of
 * levels deep, held main for one to two seconds. This scan is linear, allocates nothing, skips
 * through strings with indexOf and stops at the first value over a limit, so a hostile answer is
 * turned away after its first few thousand structural characters.
 */

export interface JsonShapeLimits {
  /** Most containers (arrays, objects) open at once, the root included. */
  maxDepth: number;
  /** Most values (containers, strings, numbers, literals; keys are not values), the root included. */
  maxValues: number;
}

/**
 * What main accepts from a panel. Depth: the session view's deepest test answer is 1,001 levels,
 * and V8's structured clone, which carries the session to the window, recurses and fails at about
 * 3,300 levels under Node 22 (3,650 in Chromium), so a deeper answer could not be shown anyway.
 * Values: at 20,000 the costliest shape measured (one object of 19,999 keys) keeps parsing, hiding
 * the token and serialising for IPC together at about 30 ms (bench/hostile-answers.ts); the largest
 * test session has 10,001. No real session comes near either.
 */
export const PANEL_ANSWER_LIMITS: Readonly<JsonShapeLimits> = Object.freeze({ maxDepth: 2000, maxValues: 20_000 });

export type JsonShapeCheck = { ok: true; depth: number; values: number } | { ok: false; exceeded: 'depth' | 'values'; limit: number };

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d;

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * The depth and value count of `text` if it is JSON, or which limit it goes over. Only a text
 * whose first character (after white space) opens an array or an object can go over one; anything
 * else passes, and JSON.parse says whether it is JSON at all. For a text that is not valid JSON
 * the figures are only approximate, which does no harm: JSON.parse would refuse it anyway, later.
 */
export function checkJsonShape(text: string, limits: JsonShapeLimits): JsonShapeCheck {
  let depth = 0;
  let deepest = 0;
  // values = containers + strings + other scalars - keys; each key is followed by one colon.
  let values = 0;
  // The last character outside strings that was not white space: a scalar (number, true, false,
  // null) starts right after "[", "," or ":", and is counted once, at its first character.
  let previous = 0;
  let index = 0;
  while (index < text.length && isJsonSpace(text.charCodeAt(index))) index++;
  const first = text.charCodeAt(index);
  if (first !== OPEN_ARRAY && first !== OPEN_OBJECT) return { ok: true, depth: 0, values: index < text.length ? 1 : 0 };

  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isJsonSpace(code)) continue;
    switch (code) {
      case OPEN_ARRAY:
      case OPEN_OBJECT:
        if (++depth > limits.maxDepth) return { ok: false, exceeded: 'depth', limit: limits.maxDepth };
        if (depth > deepest) deepest = depth;
        if (++values > limits.maxValues) return { ok: false, exceeded: 'values', limit: limits.maxValues };
        break;
      case CLOSE_ARRAY:
      case CLOSE_OBJECT:
      case COMMA:
        // Checked here rather than at each string, which may yet turn out to be a key: by now
        // every key so far has had its colon.
        if (values > limits.maxValues) return { ok: false, exceeded: 'values', limit: limits.maxValues };
        if (code !== COMMA && --depth === 0) return { ok: true, depth: deepest, values };
        break;
      case COLON:
        values--;
        break;
      case QUOTE:
        values++;
        index = closingQuote(text, index);
        break;
      default:
        if (previous === OPEN_ARRAY || previous === COMMA || previous === COLON) {
          if (++values > limits.maxValues) return { ok: false, exceeded: 'values', limit: limits.maxValues };
        }
    }
    previous = code;
  }
  // Cut off or otherwise broken: JSON.parse will say so.
  return values > limits.maxValues ? { ok: false, exceeded: 'values', limit: limits.maxValues } : { ok: true, depth: deepest, values };
}

/**
 * The index of the quote that ends the string opening at `open`, or the text's last index when
 * none does. Found with indexOf, not character by character, since one string may be megabytes
 * long; a quote is escaped when an odd number of backslashes runs up to it.
 */
export function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length - 1;
}
