import { hasOpaqueRun, secretMatcher } from '../secrets/secret-match.ts';
import { isRecord } from '../../../shared/guards.ts';

/** Finding the token in a login response, wherever the panel put it. */

const TOKEN_KEYS = ['token', 'accessToken', 'access_token', 'jwt', 'sessionToken'] as const;
/** Where panels wrap their payload: none, `data`, `result`, and the tRPC envelope. */
const ENVELOPES = [[], ['data'], ['result'], ['result', 'data'], ['result', 'data', 'json']] as const;

export type TokenSearch = { found: true; token: string } | { found: false; topLevelKeys: string[] };

/**
 * Reads the token at `tokenField` (a dot path) when one is set, else the first non-empty string
 * under a usual key, at the top level or inside a usual envelope.
 */
export function findToken(body: unknown, tokenField: string | null): TokenSearch {
  const candidates: (readonly string[])[] = tokenField
    ? [tokenField.split('.')]
    : ENVELOPES.flatMap((envelope) => TOKEN_KEYS.map((key) => [...envelope, key]));
  for (const path of candidates) {
    const value = valueAt(body, path);
    if (typeof value === 'string' && value.trim() !== '') return { found: true, token: value };
  }
  return { found: false, topLevelKeys: isRecord(body) ? Object.keys(body) : [] };
}

/**
 * Keys, lowercased without separators, by which a login answer without a token says it wants a
 * second factor: Easypanel's `twoFactorEnabled`, and the spellings other panels use.
 */
const SECOND_FACTOR_KEYS = new Set([
  'twofactorenabled',
  'twofactorrequired',
  'requirestwofactor',
  'twofarequired',
  'requires2fa',
  '2farequired',
  'need2fa',
  'mfarequired',
  'requiresmfa',
  'otprequired',
  'totprequired',
  'requirestotp',
  'requiresotp',
]);

/** True when a login answer (one without a token) asks for a second factor, at the top level or in an envelope. */
export function asksForSecondFactor(body: unknown): boolean {
  return ENVELOPES.some((envelope) => {
    const object = valueAt(body, envelope);
    if (!isRecord(object)) return false;
    return Object.keys(object).some((key) => object[key] === true && SECOND_FACTOR_KEYS.has(key.toLowerCase().replace(/[^a-z0-9]/g, '')));
  });
}

/** How many keys a message names, and how much of each: enough to recognise the shape. */
const QUOTED_KEYS = 5;
const QUOTED_KEY_LENGTH = 40;
/** A key with a run this long of base64-, hex- or JWT-like characters may be a token itself. */
const TOKEN_LIKE_RUN = 20;

/**
 * The top-level keys of an answer without a token, for the message that says so: they help the
 * operator find where the panel put it. A key is server text in a message that is kept on the
 * panel, so a few are named, each shortened, and none that holds a secret (the password, in any
 * form) or looks like a token: a panel may put the token, or echo the request, in a key.
 */
export function describeTopLevelKeys(keys: readonly string[], secrets: readonly string[]): string {
  if (keys.length === 0) return 'none';
  const holdsSecret = secretMatcher(secrets);
  const named: string[] = [];
  for (const key of keys) {
    if (named.length === QUOTED_KEYS) break;
    if (holdsSecret(key) || hasOpaqueRun(key, TOKEN_LIKE_RUN)) continue;
    named.push(shortenKey(key));
  }
  const others = keys.length - named.length;
  if (named.length === 0) return `${keys.length} key${keys.length === 1 ? '' : 's'}, not shown as they may hold secrets`;
  return others > 0 ? `${named.join(', ')} and ${others} more` : named.join(', ');
}

function shortenKey(key: string): string {
  // Control characters would break the message's line; code points, so no surrogate is cut.
  const characters = Array.from(key.length > QUOTED_KEY_LENGTH * 2 ? key.slice(0, QUOTED_KEY_LENGTH * 2) : key);
  const shown = characters.length > QUOTED_KEY_LENGTH ? `${characters.slice(0, QUOTED_KEY_LENGTH - 1).join('')}…` : characters.join('');
  return shown.replace(/\p{Cc}/gu, ' ');
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    // Own properties only: "__proto__" or "constructor" must not reach into prototypes.
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}
