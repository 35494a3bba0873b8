import type { FieldPathSegment } from './field-path.ts';

/**
 * Which fields of a panel's answer the console window masks until the operator reveals each: API
 * tokens, two-factor secrets, password hashes, env values (EASYPANEL.md: `listUsers` holds each
 * user's `apiToken`, `twoFactorSecret` and password hash in clear; a service's `env` holds its
 * `K=V` lines). Main removes the panel's own token from every answer; this is the rest. Pure.
 *
 * The rule, on the key with case and every character but letters and digits removed
 * ("two_factor-Secret" → "twofactorsecret"):
 * - it contains password, passwd, passphrase, secret, credential, privatekey, apikey, accesskey,
 *   salt, connectionstring, connectionurl or databaseurl;
 * - or it ends with token or tokens (apiToken, accessToken, refresh_token), or hash (passwordHash);
 * - or it is env, envs, environment, dotenv, otp, totp, seed, dsn or cookie.
 * A string value shaped like a password hash (bcrypt `$2b$`, argon2, scrypt, `pbkdf2_`) is masked
 * whatever its key. A masked object or list is masked whole.
 */

const CONTAINS = /password|passwd|passphrase|secret|credential|privatekey|apikey|accesskey|salt|connectionstring|connectionurl|databaseurl/;
const ENDS = /(?:tokens?|hash)$/;
const EXACT = new Set(['env', 'envs', 'environment', 'dotenv', 'otp', 'totp', 'seed', 'dsn', 'cookie']);
const HASHED = /^(?:\$2[abxy]?\$\d{2}\$|\$argon2(?:id|i|d)\$|\$scrypt\$|\$7\$|pbkdf2_|\$pbkdf2)/;

/** Whether a field of this name holds a secret (see the rule above). */
export function isSecretKey(key: string): boolean {
  const flat = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (flat === '') return false;
  return EXACT.has(flat) || CONTAINS.test(flat) || ENDS.test(flat);
}

/** Whether a value is masked whatever its key: a string shaped like a password hash. */
export function isSecretValue(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 1024 && HASHED.test(value);
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
      if (isSecretKey(key) && item !== null && item !== '') paths.push(pathOf(next, key));
      else pending.push({ value: item, parent: next, key });
    }
  }
  return { paths, complete: true };
}

/** What a masked value shows in its place. */
export const MASKED_VALUE = '\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022';
