/**
 * Whether a text holds a secret (a token or password) in a form a panel may echo it in: as it
 * is, in another letter case, percent-encoded (up to three times), hex-encoded, or inside
 * base64 or base64url data. Every check that keeps a secret from the renderer, a message or
 * panels.json goes through here, so that all of them know the same forms.
 *
 * The work is a few regular-expression scans per text, not a decoding of every substring: for
 * base64 the characters that the secret alone determines (for each of the three byte alignments it
 * can sit at) are precomputed and searched for as literals, and only text with an escape is
 * percent-decoded. A 4 MiB answer takes about 10 ms on main's event loop, about 30 ms
 * when it is made of malformed escapes.
 */

/** Tests one text; built once for a set of secrets and reused over a whole answer. */
export type SecretMatcher = (text: string) => boolean;

/** Percent-decoding is repeated this often: a value may be encoded twice or three times on the way. */
const PERCENT_LEVELS = 3;
/** Below this length a secret gets only the plain, case-folded check: its encodings would be so short that ordinary text would match them. */
const MIN_ENCODED_SECRET = 4;

/** The secret URL-encoded; a text with a lone surrogate (a fuzzed password) has no such form and stands for itself. */
function urlEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret;
  }
}

/**
 * Builds the matcher for `secrets`. Not remembered here: secrets include passwords, which must not
 * outlive their request; the session reader keeps one per panel's current token instead.
 */
export function secretMatcher(secrets: readonly string[]): SecretMatcher {
  const foldedNeedles = new Set<string>();
  const exactNeedles = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    foldedNeedles.add(secret);
    if (secret.length < MIN_ENCODED_SECRET) continue;
    foldedNeedles.add(Buffer.from(secret, 'utf8').toString('hex'));
    // base64 of the URL-encoded secret too: `Basic base64(email:42%7C…)` is what some clients send.
    for (const form of new Set([secret, urlEncoded(secret)])) {
      for (const needle of base64Needles(Buffer.from(form, 'utf8'))) {
        exactNeedles.add(needle);
        exactNeedles.add(needle.replaceAll('+', '-').replaceAll('/', '_'));
      }
    }
  }
  if (foldedNeedles.size === 0) return () => false;

  // `i` without `u` folds one UTF-16 unit at a time, so a match is as long as its needle and the
  // length check below is exact.
  const folded = new RegExp([...foldedNeedles].map(escapeRegExp).join('|'), 'i');
  // String.includes per needle, not one alternation: it skips ahead by the needle's length and is
  // several times faster over megabytes.
  const exact = [...exactNeedles];
  const holdsExact = (form: string) => exact.some((needle) => form.includes(needle));
  const shortest = Math.min(...[...foldedNeedles, ...exact].map((needle) => needle.length));

  const holds = (form: string): boolean =>
    folded.test(form) ||
    holdsExact(form) ||
    // base64 in MIME or PEM style is wrapped every 64 or 76 characters.
    (exact.length > 0 && (form.includes('\n') || form.includes('\r')) && holdsExact(form.replace(/[\r\n]+/g, '')));

  return (text) => {
    // Decoding only shortens a text, so a text shorter than every needle holds none in any form.
    if (text.length < shortest) return false;
    // Every level, not only the last: decoding also changes what only looks like an escape (a
    // "%" before hex digits), and a secret may hold an escape of its own.
    let form = text;
    for (let level = 0; ; level++) {
      if (holds(form)) return true;
      const decoded = level < PERCENT_LEVELS ? percentDecode(form) : null;
      if (decoded === null || decoded.length < shortest) return false;
      form = decoded;
    }
  };
}

/** One-off form of `secretMatcher`, for a single text. */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  return secretMatcher(secrets)(text);
}

/**
 * Whether a text has a run of `minLength` or more characters that could be encoded data
 * (base64, base64url, hex, percent-encoding, a JWT part): varied (8 or more different
 * characters) and holding a digit or one of + = %, or with a quarter or more of its letters in
 * upper case. Words, camelCase and snake_case names, paths of words and runs of one repeated
 * character do not count. Server text with such a run may hold a secret in an encoding the
 * matcher does not decode, so it cannot be shown to be safe.
 */
export function hasOpaqueRun(text: string, minLength = 24): boolean {
  // One pass with counters, not a regular expression: `[…]{24,}` retries at every position of
  // ordinary text, and collecting the runs would allocate one string per word.
  const seenInRun = new Uint32Array(128);
  let runs = 0;
  let length = 0;
  let distinct = 0;
  let upper = 0;
  let lower = 0;
  let encodingMark = false;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 0;
    if (code < 128 && RUN_CHARACTER[code] === 1) {
      if (length === 0) {
        runs++;
        distinct = 0;
        upper = 0;
        lower = 0;
        encodingMark = false;
      }
      length++;
      if (seenInRun[code] !== runs) {
        seenInRun[code] = runs;
        distinct++;
      }
      if (code >= 0x41 && code <= 0x5a) upper++;
      else if (code >= 0x61 && code <= 0x7a) lower++;
      else if (code !== 0x2d && code !== 0x5f && code !== 0x2f) encodingMark = true; // a digit or + = %
      continue;
    }
    if (length >= minLength && distinct >= 8 && (encodingMark || (upper > 0 && upper * 3 >= lower))) return true;
    length = 0;
  }
  return false;
}

/** The characters of base64, base64url, hex and percent-encoding: A-Z a-z 0-9 + / = _ % -. */
const RUN_CHARACTER = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_%-') {
  RUN_CHARACTER[character.charCodeAt(0)] = 1;
}

/**
 * The base64 characters that `bytes` alone determine wherever it sits in a longer base64 text:
 * one needle per byte alignment (0, 1 or 2 bytes before it in its first group). Characters that
 * share bits with the bytes around it vary, and padding only follows the last group, so both are
 * left out; what remains is a substring of any base64 encoding that holds `bytes`.
 */
function base64Needles(bytes: Buffer): string[] {
  const needles: string[] = [];
  for (let before = 0; before < 3; before++) {
    const encoded = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
    // Character k carries bits [6k, 6k + 6); keep those wholly inside the secret's bits.
    const first = Math.ceil((8 * before) / 6);
    const end = Math.floor((8 * (before + bytes.length)) / 6);
    if (end - first > 0) needles.push(encoded.slice(first, end));
  }
  return needles;
}

const ANY_ESCAPE = /%[0-9A-Fa-f]{2}/;
const PERCENT = 0x25;
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

/**
 * `text` with its %XX escapes decoded once, or `null` when it has none. Natively when the text
 * is well-formed; otherwise (a stray "%", bytes that are not UTF-8) in one lenient pass over its
 * UTF-8 bytes, where decodeURIComponent would throw and leave the whole text undecoded: a
 * malformed escape stays as it is, bytes that are not UTF-8 become U+FFFD. Never longer than `text`.
 */
export function percentDecode(text: string): string | null {
  if (!text.includes('%') || !ANY_ESCAPE.test(text)) return null;
  try {
    return decodeURIComponent(text);
  } catch {
    // Not well-formed: decoded below.
  }
  const bytes = Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  for (let index = 0; index < bytes.length; index++) {
    const pair = bytes[index] === PERCENT ? hexPair(bytes, index + 1) : -1;
    out[length++] = pair >= 0 ? pair : bytes[index]!;
    if (pair >= 0) index += 2;
  }
  return out.toString('utf8', 0, length);
}

/** The byte two hex digits at `index` stand for, or -1 (also past the end). */
function hexPair(bytes: Buffer, index: number): number {
  if (index + 1 >= bytes.length) return -1;
  const high = HEX_VALUE[bytes[index]!]!;
  const low = HEX_VALUE[bytes[index + 1]!]!;
  return (high | low) < 0 ? -1 : high * 16 + low;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
