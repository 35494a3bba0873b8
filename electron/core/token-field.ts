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
  return { found: false, topLevelKeys: isRecord(body) ? Object.keys(body).slice(0, 20) : [] };
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
