import { STYLE_PATHS } from '../common/style-paths.ts';
import { isErrorCode, readCertificateInfo, type CertificateInfo, type ErrorInfo } from '../../../shared/errors.ts';
import { cleanGroup, cleanTags, groupProblem, isPanelColour, LABEL_LIMITS, tagProblem, type PanelColour } from '../../../shared/labels.ts';
import type { ApiStyle, SessionCheck, TokenStorage } from '../../../shared/types.ts';
import { normaliseAddress, normaliseApiPath, normaliseLoginPath } from '../common/address.ts';

import { holds, isNullableString, isRecord, isTime } from '../common/guards.ts';

/** One panel as the panel list keeps it. */
export interface PanelRecord {
  id: string;
  name: string;
  /** As `normaliseAddress` gives it. */
  baseUrl: string;
  /** Plain http:// to another computer, by the operator's choice; absent (false) in older files. */
  allowPlainHttp: boolean;
  /** Absent (plain) in older files. */
  apiStyle: ApiStyle;
  /** As `normaliseLoginPath` gives it. */
  loginPath: string;
  /** As `normaliseApiPath` gives it; absent (the style's default) in older files. */
  sessionPath: string;
  /** Trusted by the operator on first use; absent (none) in older files. Not a secret. */
  trustedCertificate: CertificateInfo | null;
  tokenField: string | null;
  createdAt: string;
  /** Called `account` in format 1. */
  lastEmail: string | null;
  /** Where the token of the last log in went; `null` when the sign-in ended. */
  tokenStorage: TokenStorage | null;
  signedOutReason: ErrorInfo | null;
  /** Check results of an older version; they now live in the check history (`checks.json`). */
  lastCheck: SessionCheck | null;
  /** The operator's organisation of the panel (format 3 on). */
  group: string | null;
  tags: string[];
  colour: PanelColour | null;
  favourite: boolean;
}

export type PanelRecordChange = Partial<Omit<PanelRecord, 'id'>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const STORAGES: ReadonlySet<unknown> = new Set<TokenStorage>(['encrypted', 'weak', 'memory']);

/** A panel record read from the file, with only the fields it knows, or null when one is wrong. */
export function readPanelRecord(candidate: unknown): PanelRecord | null {
  if (!isRecord(candidate)) return null;
  const { id, name, baseUrl, loginPath, tokenField, createdAt, lastEmail, tokenStorage, signedOutReason, lastCheck } = candidate;
  const allowPlainHttp = candidate.allowPlainHttp ?? false;
  if (typeof allowPlainHttp !== 'boolean') return null;
  if (typeof id !== 'string' || !UUID.test(id)) return null;
  if (typeof name !== 'string' || name.length === 0) return null;
  if (typeof baseUrl !== 'string' || !holds(() => normaliseAddress(baseUrl, { allowPlainHttp }).baseUrl === baseUrl)) return null;
  if (typeof loginPath !== 'string' || !holds(() => normaliseLoginPath(loginPath) === loginPath)) return null;
  const apiStyle = candidate.apiStyle ?? 'plain';
  if (apiStyle !== 'plain' && apiStyle !== 'trpc') return null;
  const sessionPath = candidate.sessionPath ?? STYLE_PATHS[apiStyle].session;
  if (
    typeof sessionPath !== 'string' ||
    !holds(() => normaliseApiPath(sessionPath, 'session', STYLE_PATHS[apiStyle].session) === sessionPath)
  )
    return null;
  const trusted = candidate.trustedCertificate ?? null;
  const trustedCertificate = trusted === null ? null : readCertificateInfo(trusted);
  if (trustedCertificate === undefined) return null;
  if (!isNullableString(tokenField) || !isTime(createdAt) || !isNullableString(lastEmail)) return null;
  if (tokenStorage !== null && !STORAGES.has(tokenStorage)) return null;
  const reason = signedOutReason === null ? null : readErrorInfo(signedOutReason);
  if (reason === undefined) return null;
  const check = lastCheck === null ? null : readCheck(lastCheck);
  if (check === undefined) return null;
  const { group, tags, colour, favourite } = candidate;
  if (!isGroup(group) || !isTags(tags) || !(colour === null || isPanelColour(colour)) || typeof favourite !== 'boolean') return null;
  return {
    id,
    name,
    baseUrl,
    allowPlainHttp,
    apiStyle,
    loginPath,
    sessionPath,
    trustedCertificate,
    tokenField,
    createdAt,
    lastEmail,
    tokenStorage: tokenStorage as TokenStorage | null,
    signedOutReason: reason,
    lastCheck: check,
    group,
    tags,
    colour,
    favourite,
  };
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
