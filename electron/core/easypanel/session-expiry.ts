import { Buffer } from 'node:buffer';
import { isRecord } from '../common/guards.ts';

/**
 * When a panel session ends, read from the panel's `GET /api/getSession` answer or, failing
 * that, from the bearer token's JWT `exp` claim, so the operator can be warned before it lapses.
 * Pure and total: every input gives an ISO string or null, never an exception.
 */

// Earlier than this is a placeholder (0, -1, a year typed as 1970), not a real session end.
const EARLIEST_MS = Date.UTC(2000, 0, 1);
// Further ahead than this is a "never expires" sentinel or a unit mix-up, not a warning time.
const LATEST_AHEAD_MS = 100 * 365.25 * 24 * 60 * 60 * 1000;
// The largest instant a Date can hold; beyond it toISOString throws.
const LARGEST_DATE_MS = 8.64e15;
// 1e11 seconds is the year 5138 and 1e11 milliseconds is 1973, so neither reading is plausible
// on the wrong side of the line, and the range rejects both ends anyway.
const SECONDS_BELOW = 1e11;
// A JWT with a bigger payload is not one a panel issued; decoding it would be wasted work.
const LONGEST_TOKEN = 16 * 1024;
// Real date texts are ~30 characters; the cap keeps regexes and Number() off megabyte strings.
const LONGEST_DATE_TEXT = 64;
const LONGEST_KEY = 40;

const EXPIRY_KEYS: ReadonlySet<string> = new Set(
  [
    'expiresAt',
    'expires',
    'expiry',
    'expiration',
    'expirationTime',
    'exp',
    'validUntil',
    'sessionExpiresAt',
    'expireAt',
    'expiresOn',
    'expiryTime',
    'expirationDate',
    'sessionExpiry',
  ].map(normaliseKey),
);

// Where panels put the session: bare, in common envelopes, and tRPC's `result.data.json`.
// Only these fixed paths are read, so an answer's depth costs nothing.
const ENVELOPE_PATHS: readonly (readonly string[])[] = [
  [],
  ['session'],
  ['data'],
  ['data', 'session'],
  ['result'],
  ['result', 'data'],
  ['result', 'data', 'json'],
];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})$/;
const RFC_1123_DATE =
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun), )?(\d{1,2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2})(?::(\d{2}))? (gmt|utc|ut|z|[+-]\d{4})$/i;
const EPOCH_TEXT = /^\d{1,16}(?:\.\d{1,9})?$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

interface PlausibleRange {
  readonly earliest: number;
  readonly latest: number;
}

interface Wallclock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millis: number;
  readonly offsetMinutes: number;
}

/** When the session ends, as an ISO date-time string, or null when the answer and the token do not say. */
export function sessionExpiry(session: unknown, token: string | null, now: Date): string | null {
  try {
    const nowMs = now.getTime();
    // Without a valid "now" there is no upper bound, so no value can be judged plausible.
    if (!Number.isFinite(nowMs)) return null;
    const latest = Math.min(nowMs + LATEST_AHEAD_MS, LARGEST_DATE_MS);
    const range: PlausibleRange = { earliest: EARLIEST_MS, latest };
    // The session's field wins over the token's `exp`: it is the server's current word, and a
    // server may shorten or extend a session after the token was signed.
    const endMs = expiryInAnswer(session, range) ?? expiryInToken(token, range);
    return endMs === null ? null : new Date(endMs).toISOString();
  } catch {
    // Only exotic inputs get here (proxies, a non-Date `now`); a warning time is optional, a
    // crash in the caller is not. Nothing from the error, so nothing of the token, leaves.
    return null;
  }
}

function expiryInAnswer(session: unknown, range: PlausibleRange): number | null {
  for (const path of ENVELOPE_PATHS) {
    let holder: unknown = session;
    for (const step of path) holder = ownDataValue(holder, step);
    const endMs = expiryInRecord(holder, range);
    if (endMs !== null) return endMs;
  }
  return null;
}

function expiryInRecord(holder: unknown, range: PlausibleRange): number | null {
  if (!isRecord(holder)) return null;
  for (const key of Object.keys(holder)) {
    if (key.length > LONGEST_KEY || !EXPIRY_KEYS.has(normaliseKey(key))) continue;
    const endMs = instantFrom(ownDataValue(holder, key), range);
    // An unusable value under one spelling does not hide a usable one under another.
    if (endMs !== null) return endMs;
  }
  return null;
}

function expiryInToken(token: string | null, range: PlausibleRange): number | null {
  if (typeof token !== 'string' || token.length > LONGEST_TOKEN) return null;
  const parts = token.split('.');
  const [header, payload, signature] = parts;
  if (parts.length !== 3 || header === undefined || payload === undefined || signature === undefined) return null;
  // The signature may be empty (an unsecured JWT); header and payload may not.
  if (!BASE64URL.test(header) || !BASE64URL.test(payload) || !(signature === '' || BASE64URL.test(signature))) {
    return null;
  }
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  // RFC 7519 defines `exp` as a number of seconds, so no magnitude guess here.
  const exp = ownDataValue(claims, 'exp');
  return typeof exp === 'number' ? inRange(exp * 1000, range) : null;
}

function instantFrom(value: unknown, range: PlausibleRange): number | null {
  if (typeof value === 'number') return inRange(epochMs(value), range);
  if (typeof value !== 'string' || value.length > LONGEST_DATE_TEXT) return null;
  const text = value.trim();
  if (EPOCH_TEXT.test(text)) return inRange(epochMs(Number(text)), range);
  const endMs = msFromIso(text) ?? msFromRfc1123(text);
  return endMs === null ? null : inRange(endMs, range);
}

function epochMs(epoch: number): number {
  return Math.abs(epoch) < SECONDS_BELOW ? epoch * 1000 : epoch;
}

function inRange(endMs: number, range: PlausibleRange): number | null {
  return Number.isFinite(endMs) && endMs >= range.earliest && endMs <= range.latest ? endMs : null;
}

function msFromIso(text: string): number | null {
  const match = ISO_DATE_TIME.exec(text);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  return msFromWallclock({
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? '0'),
    millis: Number((fraction ?? '').padEnd(3, '0').slice(0, 3)),
    offsetMinutes: offsetMinutes(zone ?? ''),
  });
}

function msFromRfc1123(text: string): number | null {
  const match = RFC_1123_DATE.exec(text);
  if (match === null) return null;
  const [, day, monthName, year, hour, minute, second, zone] = match;
  return msFromWallclock({
    year: Number(year),
    month: MONTHS.indexOf((monthName ?? '').toLowerCase()) + 1,
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? '0'),
    millis: 0,
    offsetMinutes: offsetMinutes(zone ?? ''),
  });
}

/** Minutes east of UTC for `Z`/`GMT`/`+02:00`/`-0530`; NaN for an impossible offset. */
function offsetMinutes(zone: string): number {
  const digits = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (digits === null) return 0;
  const [, sign, hours, minutes] = digits;
  if (Number(hours) > 23 || Number(minutes) > 59) return Number.NaN;
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

function msFromWallclock(clock: Wallclock): number | null {
  const { year, month, day, hour, minute, second } = clock;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (!Number.isFinite(clock.offsetMinutes)) return null;
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second, clock.millis);
  // Date.UTC rolls 30 February over into March; a panel sending that is sending garbage.
  const check = new Date(wallMs);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return wallMs - clock.offsetMinutes * 60_000;
}

/** The value of an own data property; getters are never called and the prototype is never read. */
function ownDataValue(holder: unknown, key: string): unknown {
  if (!isRecord(holder)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(holder, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}
