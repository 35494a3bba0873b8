import type { FieldPathSegment } from './field-path.ts';

/**
 * Which fields of what a panel sends the window masks: in the console's answers, inputs, tables and
 * exports, and in the session view. API tokens, two-factor secrets, password hashes, env values
 * (docs/easypanel-api.md: `listUsers` holds each user's `apiToken`, `twoFactorSecret` and password hash in
 * clear; a service's `env` holds its `K=V` lines), and what sessions carry (keys, JWTs, cookies).
 * Main removes the panel's own token from every answer; this is the rest. One rule for every view,
 * so a key one of them hides is hidden by all. Pure.
 *
 * A key is secret when, with case and every character but letters and digits removed
 * ("two_factor-Secret" → "twofactorsecret"):
 * - it contains password, passwd, passphrase, secret, credential, privatekey, apikey, accesskey,
 *   salt, connectionstring, connectionurl or databaseurl;
 * - or it ends with token or tokens (apiToken, accessToken, refresh_token), or hash (passwordHash);
 * - or it is env, envs, environment, dotenv, otp, totp, seed, dsn or cookie;
 * - or one of its words (split at a lower-to-upper case change and at anything but letters and
 *   digits: "X-Auth-Token", "sessionKey") is token, key, pwd, auth, authorization, jwt, bearer,
 *   signature, pin, otp or cookie.
 * A string value shaped like a password hash (bcrypt `$2b$`, argon2, scrypt, `pbkdf2_`) is masked
 * whatever its key. A masked object or list is masked whole; an empty or null value under a secret
 * key hides nothing and is shown as it is, so "no API token" reads as such. Masked values show
 * `MASKED_VALUE`.
 */

const CONTAINS = /password|passwd|passphrase|secret|credential|privatekey|apikey|accesskey|salt|connectionstring|connectionurl|databaseurl/;
const ENDS = /(?:tokens?|hash)$/;
const EXACT = new Set(['env', 'envs', 'environment', 'dotenv', 'otp', 'totp', 'seed', 'dsn', 'cookie']);
/** Words that make a key secret wherever they stand in it ("tokenValue", "api-key", "jwt"). */
const WORDS = new Set(['token', 'key', 'pwd', 'auth', 'authorization', 'jwt', 'bearer', 'signature', 'pin', 'otp', 'cookie']);
/** A key holding none of WORDS anywhere cannot hold one as a word: most keys are let go without being split (main judges 100,000 keys a run). */
const MAY_HOLD_WORD = /token|key|pwd|auth|jwt|bearer|signature|pin|otp|cookie/;
const HASHED = /^(?:\$2[abxy]?\$\d{2}\$|\$argon2(?:id|i|d)\$|\$scrypt\$|\$7\$|pbkdf2_|\$pbkdf2)/;

/** Whether a field of this name holds a secret (see the rule above). */
export function isSecretKey(key: string): boolean {
  const flat = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (flat === '') return false;
  if (EXACT.has(flat) || CONTAINS.test(flat) || ENDS.test(flat)) return true;
  if (!MAY_HOLD_WORD.test(flat)) return false;
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => WORDS.has(word));
}

/** Whether a value is masked whatever its key: a string shaped like a password hash. */
export function isSecretValue(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 1024 && HASHED.test(value);
}

/** Whether an object's entry is masked: a secret key holding something, or a value shaped like a password hash under any key. */
export function holdsSecret(key: string, value: unknown): boolean {
  return isSecretValue(value) || (value !== null && value !== '' && value !== undefined && isSecretKey(key));
}

/** Most values `secretFieldPaths` looks at: past it, `complete` is false and the window masks what it did not look at. */
export const SECRET_SCAN_MAX_VALUES = 500_000;

export interface SecretFields {
  /** The paths of the values to mask, in no set order (a masked container's inside is not listed). */
  paths: FieldPathSegment[][];
  /** False when the answer was larger than `SECRET_SCAN_MAX_VALUES` and not all of it was looked at. */
  complete: boolean;
}

/** A value waiting to be looked at, linked to its parent: a path is built only for what is masked (copying it at each level would cost depth² on a deep answer). */
interface Pending {
  value: unknown;
  parent: Pending | null;
  key: FieldPathSegment;
}

function pathOf(node: Pending | null, last?: FieldPathSegment): FieldPathSegment[] {
  const path: FieldPathSegment[] = last === undefined ? [] : [last];
  for (let here = node; here?.parent; here = here.parent) path.push(here.key);
  return path.reverse();
}

/** The paths in `body` the window masks. Walks with a stack (an answer may nest thousands deep), within `maxValues`. */
export function secretFieldPaths(body: unknown, maxValues = SECRET_SCAN_MAX_VALUES): SecretFields {
  const paths: FieldPathSegment[][] = [];
  const pending: Pending[] = [{ value: body, parent: null, key: '' }];
  let seen = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (++seen > maxValues) return { paths, complete: false };
    const { value } = next;
    if (isSecretValue(value)) {
      paths.push(pathOf(next));
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) pending.push({ value: value[index], parent: next, key: index });
      continue;
    }
    for (const key of Object.keys(value).reverse()) {
      const item = (value as Record<string, unknown>)[key];
      // An empty or null secret field hides nothing: shown as it is, so "no API token" reads as such.
      if (holdsSecret(key, item)) paths.push(pathOf(next, key));
      else pending.push({ value: item, parent: next, key });
    }
  }
  return { paths, complete: true };
}

/** What a masked value shows in its place. */
export const MASKED_VALUE = '\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022';
