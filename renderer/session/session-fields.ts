/**
 * Reading a session whose shape the panel decides: the well-known fields wherever panels
 * usually put them, dates for people, and the session with its secrets masked.
 */

import { copyJson } from '../../shared/json-copy.ts';
import { holdsSecret, isSecretValue, MASKED_VALUE } from '../../shared/secret-fields.ts';

export interface KnownSessionFields {
  user?: string;
  email?: string;
  name?: string;
  role?: string;
  /** When the session began (Easypanel's `createdAt`). */
  createdAt?: Date;
  expiresAt?: Date;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The places a session's user commonly lives, most specific first. */
function userRecords(session: Json): Json[] {
  const candidates = [
    session.user,
    session.data,
    isObject(session.data) ? session.data.user : undefined,
    session.session,
    isObject(session.session) ? session.session.user : undefined,
    session.account,
    session.profile,
  ];
  return [...candidates.filter(isObject), session];
}

/** Longest text a summary line shows: the tree below has the whole value. */
export const SUMMARY_TEXT_LIMIT = 200;

function clip(text: string): string {
  return text.length > SUMMARY_TEXT_LIMIT ? `${text.slice(0, SUMMARY_TEXT_LIMIT - 1)}\u2026` : text;
}

function firstText(records: Json[], keys: string[]): string | undefined {
  for (const record of records) {
    for (const key of keys) {
      const value = record[key];
      if (typeof value === 'string' && value.trim() !== '') return clip(value.trim());
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) {
        // Joins no more than the line can show, whatever the length of the list.
        const shown = value.slice(0, SUMMARY_TEXT_LIMIT) as string[];
        return clip(shown.join(', ') + (value.length > shown.length ? ', \u2026' : ''));
      }
    }
  }
  return undefined;
}

export function knownSessionFields(session: unknown): KnownSessionFields {
  if (!isObject(session)) return {};
  const records = userRecords(session);
  const fields: KnownSessionFields = {
    // `userId` before `id`: in a session record itself (Easypanel's) `id` is the session's own.
    user:
      firstText(records, ['username', 'userName', 'login', 'userId', 'user_id', 'uid', 'id']) ??
      (typeof session.user === 'string' && session.user.trim() !== '' ? clip(session.user.trim()) : undefined),
    email: firstText(records, ['email', 'mail', 'emailAddress', 'email_address']),
    name: firstText(records, ['name', 'fullName', 'full_name', 'displayName', 'display_name']),
    role: firstText(records, ['role', 'roles', 'group', 'groups']),
  };
  const expiry = expiryOf([session, ...records]);
  if (expiry) fields.expiresAt = expiry;
  const created = [session, isObject(session.session) ? session.session : undefined]
    .map((record) => toDate(record?.createdAt ?? record?.created_at))
    .find(Boolean);
  if (created) fields.createdAt = created;
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as KnownSessionFields;
}

function expiryOf(records: Json[]): Date | undefined {
  for (const record of records) {
    for (const key of ['expiresAt', 'expires_at', 'expires', 'expiry', 'expiration', 'exp', 'validUntil', 'valid_until']) {
      const date = toDate(record[key]);
      if (date) return date;
    }
  }
  return undefined;
}

/** ISO strings, and numbers as Unix seconds (JWT `exp`) or milliseconds. */
export function toDate(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) date = new Date(value);
  else if (typeof value === 'number' && Number.isFinite(value) && value > 0) date = new Date(value < 1e11 ? value * 1000 : value);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/**
 * A copy with every secret masked by the window's one rule (shared/secret-fields.ts: secret keys,
 * and values shaped like a password hash under any key): what the tree shows and Copy copies.
 * Any depth: copyJson walks with a stack.
 */
export function maskSecrets(value: unknown): unknown {
  return copyJson(value, {
    value: (item) => (isSecretValue(item) ? MASKED_VALUE : item),
    entry: (key, item) => (holdsSecret(key, item) ? { key, value: MASKED_VALUE } : { key }),
  });
}
