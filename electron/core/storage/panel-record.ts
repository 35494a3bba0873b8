import { accountLabel } from '../../../shared/accounts.ts';
import { FLEET_FILE_LIMITS } from '../../../shared/fleet-file.ts';
import { GENERATION_PATHS } from '../common/generation-paths.ts';
import { isErrorCode, readCertificateInfo, type ErrorInfo } from '../../../shared/contract/errors.ts';
import { cleanGroup, cleanTags, groupProblem, isPanelColour, LABEL_LIMITS, tagProblem } from '../../../shared/labels.ts';
import {
  GENERATIONS,
  PROTECTION_LEVELS,
  TOKEN_KINDS,
  type Generation,
  type Panel,
  type PanelAccount,
  type PanelFieldOfKind,
  type ProtectionLevel,
  type SessionCheck,
  type TokenKind,
} from '../../../shared/types.ts';
import { normaliseAddress, normaliseApiPath, normaliseLoginPath } from '../common/address.ts';

import { holds, isNullableString, isRecord, isTime } from '../common/guards.ts';

/**
 * One panel as the panel list keeps it: the fields of `Panel` that are not worked out when it is
 * shown (`PANEL_FIELDS`). `lastCheck` is only ever set in files of older versions; check results
 * live in the check history (`checks.json`) now.
 */
export type PanelRecord = Pick<Panel, PanelFieldOfKind<'setting' | 'kept'>>;

export type PanelRecordChange = Partial<Omit<PanelRecord, 'id'>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const LEVELS: ReadonlySet<unknown> = new Set<ProtectionLevel>(PROTECTION_LEVELS);

/** Reads one field from a panel entry of the file: its value, or undefined when it is not valid. */
type FieldReader<T> = (entry: Record<string, unknown>) => T | undefined;

/** Absent (false) in older files. */
const readAllowPlainHttp: FieldReader<boolean> = (entry) => {
  const allowPlainHttp = entry.allowPlainHttp ?? false;
  return typeof allowPlainHttp === 'boolean' ? allowPlainHttp : undefined;
};

/** Absent (public) in older files. */
const readGeneration: FieldReader<Generation> = (entry) => {
  const generation = entry.generation ?? 'public';
  return (GENERATIONS as readonly unknown[]).includes(generation) ? (generation as Generation) : undefined;
};

/**
 * How each field of a record is read from the file, and what an older file that lacks it gets:
 * a field added to `Panel` makes the compiler ask for its line here. Records keep this order.
 */
const FIELD_READERS: { [Field in keyof PanelRecord]: FieldReader<PanelRecord[Field]> } = {
  id: ({ id }) => (typeof id === 'string' && UUID.test(id) ? id : undefined),
  name: ({ name }) => (typeof name === 'string' && name.length > 0 ? name : undefined),
  /** As `normaliseAddress` gives it. */
  baseUrl: (entry) => {
    const { baseUrl } = entry;
    const allowPlainHttp = readAllowPlainHttp(entry);
    if (typeof baseUrl !== 'string' || allowPlainHttp === undefined) return undefined;
    return holds(() => normaliseAddress(baseUrl, { allowPlainHttp }).baseUrl === baseUrl) ? baseUrl : undefined;
  },
  allowPlainHttp: readAllowPlainHttp,
  generation: readGeneration,
  /** As `normaliseLoginPath` gives it. */
  loginPath: ({ loginPath }) =>
    typeof loginPath === 'string' && holds(() => normaliseLoginPath(loginPath) === loginPath) ? loginPath : undefined,
  /** As `normaliseApiPath` gives it; absent (the generation's default) in older files. */
  sessionPath: (entry) => {
    const generation = readGeneration(entry);
    if (generation === undefined) return undefined;
    const fallback = GENERATION_PATHS[generation].session;
    const sessionPath = entry.sessionPath ?? fallback;
    return typeof sessionPath === 'string' && holds(() => normaliseApiPath(sessionPath, 'session', fallback) === sessionPath)
      ? sessionPath
      : undefined;
  },
  /** Absent (none) in older files. Not a secret. */
  trustedCertificate: ({ trustedCertificate }) =>
    trustedCertificate === undefined || trustedCertificate === null ? null : readCertificateInfo(trustedCertificate),
  tokenField: ({ tokenField }) => (isNullableString(tokenField) ? tokenField : undefined),
  createdAt: ({ createdAt }) => (isTime(createdAt) ? createdAt : undefined),
  /** Called `account` in format 1. */
  lastEmail: ({ lastEmail }) => (isNullableString(lastEmail) ? lastEmail : undefined),
  /**
   * How the token of the last log in was kept; `null` when the sign-in ended. Older versions wrote
   * `encrypted` for `keyring` (their `weak` and `memory` mean what they mean now).
   */
  tokenStorage: ({ tokenStorage }) => {
    if (tokenStorage === null) return null;
    const level = tokenStorage === 'encrypted' ? 'keyring' : tokenStorage;
    return LEVELS.has(level) ? (level as ProtectionLevel) : undefined;
  },
  /** Absent in older files: their sign-ins were all made with a password, and null reads as that. */
  tokenKind: ({ tokenKind }) =>
    tokenKind === undefined || tokenKind === null
      ? null
      : (TOKEN_KINDS as readonly unknown[]).includes(tokenKind)
        ? (tokenKind as TokenKind)
        : undefined,
  /** Absent (on, the default) in older files. */
  keepSignedIn: ({ keepSignedIn }) => {
    const keep = keepSignedIn ?? true;
    return typeof keep === 'boolean' ? keep : undefined;
  },
  signedOutReason: ({ signedOutReason }) => (signedOutReason === null ? null : readErrorInfo(signedOutReason)),
  lastCheck: ({ lastCheck }) => (lastCheck === null ? null : readCheck(lastCheck)),
  /** The operator's organisation of the panel (format 3 on). */
  group: ({ group }) => (isGroup(group) ? group : undefined),
  tags: ({ tags }) => (isTags(tags) ? tags : undefined),
  colour: ({ colour }) => (colour === null || isPanelColour(colour) ? colour : undefined),
  favourite: ({ favourite }) => (typeof favourite === 'boolean' ? favourite : undefined),
  /** Absent (not muted) in older files. */
  muted: ({ muted }) => {
    const quiet = muted ?? false;
    return typeof quiet === 'boolean' ? quiet : undefined;
  },
  /** Absent (none) in older files. */
  notes: ({ notes }) =>
    notes === undefined ? '' : typeof notes === 'string' && notes.length <= FLEET_FILE_LIMITS.notesLength ? notes : undefined,
  /** Absent (this machine only) in older files. */
  fleetFile: ({ fleetFile }) =>
    fleetFile === undefined || fleetFile === null ? null : typeof fleetFile === 'string' && fleetFile.length <= 64 ? fleetFile : undefined,
  /** Absent (writes allowed) in older files. */
  readOnly: ({ readOnly }) => {
    const lookOnly = readOnly ?? false;
    return typeof lookOnly === 'boolean' ? lookOnly : undefined;
  },
  /** Absent (none) in older files. */
  accounts: ({ accounts }) => {
    if (accounts === undefined) return [];
    if (!Array.isArray(accounts) || accounts.length > ACCOUNTS_AT_MOST) return undefined;
    const read = accounts.map(readAccount);
    return read.every((account): account is PanelAccount => account !== undefined) && new Set(read.map(({ id }) => id)).size === read.length
      ? read
      : undefined;
  },
  /** One of `accounts`, or null (the panel's own sign-in; absent in older files). */
  writeAccount: (entry) => {
    const { writeAccount } = entry;
    if (writeAccount === undefined || writeAccount === null) return null;
    return typeof writeAccount === 'string' &&
      Array.isArray(entry.accounts) &&
      entry.accounts.some((account) => isRecord(account) && account.id === writeAccount)
      ? writeAccount
      : undefined;
  },
};

/** Other accounts a panel keeps at most: a few roles (admin, a project's user), not a directory. */
export const ACCOUNTS_AT_MOST = 8;

function readAccount(value: unknown): PanelAccount | undefined {
  if (!isRecord(value)) return undefined;
  const { id, email, kind, tokenStorage, addedAt } = value;
  if (typeof id !== 'string' || !UUID.test(id) || !isNullableString(email) || !isTime(addedAt)) return undefined;
  if (!(TOKEN_KINDS as readonly unknown[]).includes(kind)) return undefined;
  if (tokenStorage !== null && !LEVELS.has(tokenStorage)) return undefined;
  return { id, email, kind: kind as TokenKind, tokenStorage: tokenStorage as ProtectionLevel | null, addedAt };
}
const RECORD_FIELDS = Object.keys(FIELD_READERS) as (keyof PanelRecord)[];

/** A panel record read from the file, with only the fields it knows, or null when one is wrong. */
export function readPanelRecord(candidate: unknown): PanelRecord | null {
  if (!isRecord(candidate)) return null;
  const record: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) {
    const value = FIELD_READERS[field](candidate);
    if (value === undefined) return null;
    record[field] = value;
  }
  // Each field was read by its reader, whose type the table ties to the record's.
  return record as PanelRecord;
}

/** A group as the window would have stored it. */
function isGroup(value: unknown): value is string | null {
  return value === null || (typeof value === 'string' && cleanGroup(value) === value && groupProblem(value) === null);
}

/** Tags as the window would have stored them: clean, no repeats, within the limits. */
function isTags(value: unknown): value is string[] {
  if (!Array.isArray(value) || value.length > LABEL_LIMITS.tags) return false;
  if (!value.every((tag): tag is string => typeof tag === 'string' && tagProblem(tag) === null)) return false;
  const clean = cleanTags(value);
  return clean.length === value.length && clean.every((tag, index) => tag === value[index]);
}

function readErrorInfo(value: unknown): ErrorInfo | undefined {
  if (!isRecord(value) || !isErrorCode(value.code) || typeof value.message !== 'string') return undefined;
  const certificate = value.certificate === undefined ? undefined : readCertificateInfo(value.certificate);
  return certificate ? { code: value.code, message: value.message, certificate } : { code: value.code, message: value.message };
}

function readCheck(value: unknown): SessionCheck | undefined {
  if (!isRecord(value) || !isTime(value.at)) return undefined;
  if (value.ok === true) return { at: value.at, ok: true };
  const error = value.ok === false ? readErrorInfo(value.error) : undefined;
  return error ? { at: value.at, ok: false, error } : undefined;
}

/**
 * The account a panel's writes go as, in the operator's words: the sign-in's email, or an API token
 * (with its user's email when known); null when not known (a first log in, before it answered).
 */
export function signInAccount(record: Pick<PanelRecord, 'tokenKind' | 'lastEmail'>): string | null {
  return accountLabel(record.tokenKind, record.lastEmail);
}

/** The vault's key of a panel's other account: its own token, apart from the panel's (keyed by the panel's id). */
export const accountKey = (panelId: string, accountId: string): string => `${panelId}/${accountId}`;

/**
 * The account a panel's writes go as: its vault key and its words. The panel's own sign-in unless
 * `writeAccount` names one of its other accounts.
 */
export function writeAccountOf(record: Pick<PanelRecord, 'id' | 'tokenKind' | 'lastEmail' | 'accounts' | 'writeAccount'>): {
  key: string;
  label: string | null;
} {
  const chosen = record.writeAccount === null ? undefined : record.accounts.find(({ id }) => id === record.writeAccount);
  if (!chosen) return { key: record.id, label: signInAccount(record) };
  return { key: accountKey(record.id, chosen.id), label: accountLabel(chosen.kind, chosen.email) };
}
