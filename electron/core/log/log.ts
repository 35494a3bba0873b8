export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

/**
 * Main's diagnostic log. Implementations never throw: a log that cannot be written must not
 * break the action being logged.
 */
export interface Log {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export const silentLog: Log = Object.freeze({
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});

export const REDACTED = '[redacted]';

// Caps keep one entry small and bounded whatever is passed in (a whole session answer, a cycle).
const MAX_DEPTH = 6;
const MAX_ENTRIES = 50;
const MAX_NODES = 500;
const MAX_STRING = 1000;
const MAX_KEY = 200;
const MAX_FRAMES = 30;

/**
 * Key names, lowercased with separators removed, that hold a secret wherever they appear in a key:
 * none of them is part of a harmless word.
 */
const SECRET_KEY_PARTS = [
  'authorization',
  'token',
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'cookie',
  'apikey',
  'bearer',
  'credential',
  'privatekey',
  'sessionkey',
  'sessionid',
  'sessid',
  'signature',
  'jwt',
  'csrf',
  'xsrf',
];
/**
 * Short names that are secrets only as a whole word of the key: as substrings they would take
 * `author`, `inside`, `signal` or `footprint`. `code` is left out on purpose: it is an error's
 * or a process's code far more often than an OAuth grant's.
 */
const SECRET_KEY_WORDS = new Set(['auth', 'sid', 'sig', 'otp', 'totp', 'hotp', 'pwd', 'pin']);
const RESERVED = new Set(['time', 'level', 'event']);

/**
 * True for `Authorization`, `accessToken`, `refresh_token`, `X-API-Key`, `set-cookie`, `x-auth`,
 * `X-Session-Id`, `userSid`..., false for `session`, `author`, `inside`, `key`, `code`.
 */
export function isSecretKey(key: string): boolean {
  // A key this long is data (a URL, a document), not a name: its value is hidden rather than the
  // whole key searched, which keeps the work per key bounded like the work per string.
  if (key.length > MAX_KEY * 4) return true;
  const normalized = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (SECRET_KEY_PARTS.some((part) => normalized.includes(part))) return true;
  return wordsOf(key).some((word) => SECRET_KEY_WORDS.has(word));
}

/** `X-Session-Id`, `XSessionId` and `x_session.id` all give `x`, `session`, `id`. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/**
 * HTTP authentication schemes (IANA's registry and common custom ones). Whatever follows one of
 * them is taken for a credential, even in prose ("Token expired" loses "expired"): a word too many
 * hidden costs less than a credential missed.
 */
const AUTH_SCHEMES = [
  'basic',
  'bearer',
  'token',
  'digest',
  'apikey',
  'api-key',
  'jwt',
  'dpop',
  'gnap',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'oauth',
  'privatetoken',
  'concealed',
  'scram-sha-1',
  'scram-sha-256',
  'vapid',
  'aws4-hmac-sha256',
  'ssws',
].join('|');
/**
 * A token68 (`dXNlcjpwYXNz`) or auth-params (`username="op", response="66f2"`). It must start like
 * a token, so `at Token.parse (file:...)` or `new Digest (...)` in a stack frame is left alone.
 */
const CREDENTIAL = String.raw`(?:[\w-]+="[^"]*(?:"|$)|[\w.~+/%-][^\s"'\x60,;<>\\]*)(?:\s*,\s*[\w-]+=(?:"[^"]*(?:"|$)|[^\s,"]*))*`;
// `bearer=x` and `bearer:x` are also caught, as before; other schemes take a space only, so that
// `token=x` is left to the key=value pass, which keeps the `=`.
const AUTH_CREDENTIAL = new RegExp(String.raw`\b(?:(bearer)\s*[:=]\s*|(${AUTH_SCHEMES})\s+)${CREDENTIAL}`, 'gi');

/**
 * `//user:password@` up to the last `@` of the URL, since a password may hold `/` or `@` unencoded;
 * `//token@` as before. Not `//host:8080/@vite/client`: digits then `/` are a port. Each match runs
 * to the end of its URL and never backtracks over it, so the work stays linear.
 */
const USERINFO = /\/\/(?:([^\s/@:"'<>\\]*:(?!\d*(?:[/?#\s"'<>\\]|$))[^\s"'<>\\]*)|[^\s/@"'<>\\]+@)/g;

/** A key and its separator in `key=value`, `Key: value`, `"key": value` (also escaped, `\"key\":`) and `user[key]=`. */
const PAIR_KEY = /(?<![\w.-])([\w.-]+)(\\*["']|\])?\s*([:=])(\s*)/g;
/**
 * The value after a secret key: a quoted string (to its end if it was cut), a flat object or array,
 * else the rest of the text (a nested one), else a bare word up to `&`, `;`, `,` or a space. The first
 * group is a credential the scheme pass already replaced, kept as it is.
 */
const PAIR_VALUE = new RegExp(
  String.raw`((?:${AUTH_SCHEMES})\s+\[redacted\])|"(?:[^"\\]|\\[^])*(?:"|$)|'(?:[^'\\]|\\[^])*(?:'|$)|\\+"[^"]*(?:"|$)|\{[^{}]*\}|\[[^\[\]]*\]|[{[][^]*|[^\s&;,"'<>\\}\]]*`,
  'iy',
);

/**
 * A string with credentials it visibly carries replaced (`Bearer <token>` and the other auth schemes,
 * `user:password@` in a URL, the value of `token=`, `"password": "..."` and other secret keys in query
 * strings, headers or JSON text), cut to `max` characters. Replaced before cutting, so a cut never
 * leaves a token's head.
 */
export function scrubString(text: string, max = MAX_STRING): string {
  // Bounded first so the patterns never run over megabytes; 4x keeps anything the final cut keeps.
  let scrubbed = text.length > max * 4 ? text.slice(0, max * 4) : text;
  scrubbed = scrubbed.replace(USERINFO, (match, withPassword: string | undefined) => {
    if (withPassword === undefined) return `//${REDACTED}@`;
    const at = withPassword.lastIndexOf('@');
    return at < 0 ? match : `//${REDACTED}${withPassword.slice(at)}`;
  });
  scrubbed = scrubbed.replace(
    AUTH_CREDENTIAL,
    (_match, bearer: string | undefined, scheme: string | undefined) => `${bearer ?? scheme ?? ''} ${REDACTED}`,
  );
  scrubbed = scrubPairs(scrubbed);
  return text.length > max || scrubbed.length > max ? `${scrubbed.slice(0, max)}\u2026[${text.length} chars]` : scrubbed;
}

/**
 * The values of secret keys in `text` replaced, quotes kept. A hand-driven loop rather than one
 * `replace`: a non-secret key's value is not consumed, so `{"user":{"password":...}}` and
 * `note=token=...` are still looked into.
 */
function scrubPairs(text: string): string {
  let scrubbed = '';
  let copied = 0;
  PAIR_KEY.lastIndex = 0;
  for (let pair = PAIR_KEY.exec(text); pair; pair = PAIR_KEY.exec(text)) {
    const [, key = '', closer, separator, space] = pair;
    // An unquoted `name:` followed by no space is a URL scheme, a port or `file.ts:12:5`, not a pair.
    if ((separator === ':' && !closer && !space) || !isSecretKey(key)) continue;
    const at = PAIR_KEY.lastIndex;
    PAIR_VALUE.lastIndex = at;
    const value = PAIR_VALUE.exec(text);
    if (!value?.[0] || value[1] !== undefined) continue;
    scrubbed += text.slice(copied, at) + maskedValue(value[0]);
    copied = PAIR_KEY.lastIndex = at + value[0].length;
  }
  return copied === 0 ? text : scrubbed + text.slice(copied);
}

/** `"hunter2"` -> `"[redacted]"`, `\"hunter2\"` -> `\"[redacted]\"`, anything else -> `[redacted]`. */
function maskedValue(value: string): string {
  const quote = /^\\*["']/.exec(value)?.[0];
  if (!quote) return REDACTED;
  const closed = value.length > quote.length && value.endsWith(quote.slice(-1));
  return closed ? `${quote}${REDACTED}${quote}` : `${quote}${REDACTED}`;
}

/**
 * An error as its type and stack frames only. Its message is left out because it may hold
 * anything (a server's answer, a token); V8 puts the message at the head of `stack` too.
 */
export function describeError(error: unknown): { type: string; stack: string[] } {
  if (!(error instanceof Error)) return { type: error === null ? 'null' : typeof error, stack: [] };
  let type = 'Error';
  let stack = '';
  try {
    type = scrubString(String(error.name || error.constructor.name), MAX_KEY);
    stack = typeof error.stack === 'string' ? error.stack : '';
    // A message of several lines could pass for frames: drop it from the head first.
    const message = typeof error.message === 'string' ? error.message : '';
    const at = message ? stack.indexOf(message) : -1;
    if (at >= 0) stack = stack.slice(at + message.length);
  } catch {
    // A throwing getter on a hostile error: its type is all that is known.
  }
  const frames = stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES)
    .map((line) => scrubString(line.trim()));
  return { type, stack: frames };
}

/** A JSON-safe copy of `value` with secrets replaced and its size bounded; never throws. */
export function redactValue(value: unknown): unknown {
  const budget = { nodes: MAX_NODES };
  return redact(value, 0, budget, new WeakSet());
}

function redact(value: unknown, depth: number, budget: { nodes: number }, seen: WeakSet<object>): unknown {
  if (--budget.nodes < 0) return '[omitted]';
  switch (typeof value) {
    case 'string':
      return scrubString(value);
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return undefined;
    case 'symbol':
    case 'function':
      return `[${typeof value}]`;
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Error) return describeError(object);
  // Bytes may be a token or its ciphertext: only their size is told.
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) return `[${object.byteLength} bytes]`;
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
  if (seen.has(object)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      const items: unknown[] = object.slice(0, MAX_ENTRIES);
      // A header list, as pairs or flat (`['Cookie', 'a=b']`, Node's rawHeaders): a secret name's value comes next.
      const copy = items.map((item, index) => (namesSecret(items[index - 1]) ? REDACTED : (redact(item, depth + 1, budget, seen) ?? null)));
      if (object.length > MAX_ENTRIES) copy.push(`[${object.length - MAX_ENTRIES} more]`);
      return copy;
    }
    if (object instanceof Map || object instanceof Set) return `[${object.constructor.name} of ${object.size}]`;
    const copy: Record<string, unknown> = {};
    const keys = Object.keys(object);
    const secretEntry = namesSecretEntry(object as Record<string, unknown>);
    for (const key of keys.slice(0, MAX_ENTRIES)) {
      let item: unknown;
      try {
        const secret = isSecretKey(key) || (secretEntry && key === 'value');
        item = secret ? REDACTED : redact((object as Record<string, unknown>)[key], depth + 1, budget, seen);
      } catch {
        item = '[unreadable]';
      }
      define(copy, scrubString(key, MAX_KEY), item);
    }
    if (keys.length > MAX_ENTRIES) define(copy, '[more keys]', keys.length - MAX_ENTRIES);
    return copy;
  } catch {
    return '[unreadable]';
  } finally {
    seen.delete(object);
  }
}

/** A header or field name such as `Authorization` or `api_key`; a sentence mentioning a password is not one. */
function namesSecret(item: unknown): boolean {
  return typeof item === 'string' && item.length <= MAX_KEY && /^[\w.-]+$/.test(item) && isSecretKey(item);
}

/** `{ name: 'Authorization', value: ... }` as in HAR files and fetch header lists. */
function namesSecretEntry(object: Record<string, unknown>): boolean {
  try {
    return namesSecret(object.name) || namesSecret(object.key);
  } catch {
    return false;
  }
}

/** defineProperty keeps a key named "__proto__" an ordinary key instead of a prototype change. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** One log line: `{"time":...,"level":...,"event":...,<fields>}` and a newline. */
export function formatEntry(time: Date, level: LogLevel, event: string, fields: LogFields | undefined): string {
  const entry: Record<string, unknown> = { time: time.toISOString(), level, event: scrubString(event, MAX_KEY) };
  const redacted = fields === undefined ? {} : redactValue(fields);
  if (typeof redacted === 'object' && redacted !== null && !Array.isArray(redacted)) {
    for (const [key, value] of Object.entries(redacted)) {
      // A field may not pass itself off as the entry's own time, level or event.
      define(entry, RESERVED.has(key) ? `field.${key}` : key, value);
    }
  }
  return `${JSON.stringify(entry)}\n`;
}
