import { INTERNAL_MESSAGE, PanelError, type CertificateInfo } from '../../../shared/contract/errors.ts';
import type { PanelCheck, SessionResult } from '../../../shared/types.ts';
import { readApiTokenSession } from '../easypanel/api-token-check.ts';
import type { PanelEndpoint, RequestSettings } from '../easypanel/panel-endpoints.ts';
import { MissingRouteError } from '../easypanel/panel-responses.ts';
import { readSessionFollowingUpgrade, readVersion, type VersionRead } from '../easypanel/panel-upgrade.ts';
import type { PanelChangeBatcher } from '../context/change-batchers.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import { accountKey } from '../storage/panel-record.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { SessionCache } from './session-cache.ts';
import { sessionExpiry } from '../easypanel/session-expiry.ts';
import { secretMatcher, type SecretMatcher } from '../secrets/secret-match.ts';
import { hideSecrets } from '../secrets/session-redaction.ts';

export interface SessionReaderOptions {
  request: RequestSettings;
  now(): Date;
  cache: SessionCache;
  changes: PanelChangeBatcher;
  /** Where a refused certificate is noted, for trustCertificate to accept exactly that one. */
  presented: Map<string, CertificateInfo>;
  /** Told each panel whose sign-in ended (see `ended`): what was read with it is no longer shown. */
  signInEnded?(panelId: string): void;
}

/**
 * How long a panel's version is trusted before a session read asks again. The version read costs a
 * request, so it is not made at every check of a fleet: after a log in, then about hourly.
 */
export const VERSION_READ_EVERY_MS = 60 * 60 * 1000;
/** The longest wait: each panel's own period lies in [VERSION_READ_EVERY_MS, VERSION_READ_AT_MOST_MS). */
export const VERSION_READ_AT_MOST_MS = 1.5 * VERSION_READ_EVERY_MS;

/**
 * A panel's own period between version reads, from an hour to an hour and a half, the same for the
 * panel at every start. A fleet whose versions were all read in one pass (the first after a start)
 * would otherwise fall due together every hour, two requests a panel in that pass; periods that
 * differ spread them out, and keep them apart.
 */
export function versionPeriodMs(panelId: string): number {
  // FNV-1a: a stable, evenly spread fraction of the id, no secret in it.
  let hash = 0x811c9dc5;
  for (let index = 0; index < panelId.length; index++) hash = Math.imul(hash ^ panelId.charCodeAt(index), 0x01000193);
  const fraction = (hash >>> 0) / 0x1_0000_0000;
  return VERSION_READ_EVERY_MS + fraction * (VERSION_READ_AT_MOST_MS - VERSION_READ_EVERY_MS);
}

/**
 * Reads a panel's session, for the operator's getSession and for checks alike, and records what it
 * found: the outcome and the session's end in the check history (coalesced), the redacted session
 * in the cache, and for a 401/403 the end of the sign-in (written at once, like a log out). When a
 * read is due (`#versionDue`) it reads the panel's version too, and it follows a panel upgraded to
 * a newer Easypanel generation (core/easypanel/panel-upgrade.ts), saving its new generation.
 */
export class SessionReader {
  readonly #options: SessionReaderOptions;
  /** Each panel's current token's matcher: building it costs more than checking a small answer. */
  readonly #matchers = new Map<string, { token: string; matcher: SecretMatcher }>();
  /** Panels whose sign-in began or ended since their version was last read: read at the next session read. */
  readonly #versionsDue = new Set<string>();
  /** When a search for each panel's generation last found nothing (its session route missing at every one). */
  readonly #generationNotFound = new Map<string, number>();
  /** The requests under way with each panel's token: a sign-in that ends stops them before they reach the panel. */
  readonly #underWay = new Map<string, Set<AbortController>>();

  constructor(options: SessionReaderOptions) {
    this.#options = options;
  }

  /**
   * Each pass reads with the token the panel has now. A pass whose sign-in ended while it was under
   * way (log out, removal, new address, a 401 to another read) must not count as the panel's check
   * or show a session for a signed-out panel; a new log in meanwhile reads again. A cancelled read
   * records nothing.
   */
  async read(state: DataFolder, panelId: string, outer?: AbortSignal, by: 'operator' | 'check' = 'operator'): Promise<SessionResult> {
    const { vault } = state;
    for (;;) {
      const record = find(state, panelId);
      const token = vault.token(panelId, record.baseUrl);
      if (!token) throw notSignedIn(record);
      const epoch = vault.epoch(panelId);
      let read: { ok: true; session: unknown; version: VersionRead | null } | { ok: false; error: unknown };
      const signedIn = this.whileSignedIn(panelId, outer);
      const signal = signedIn.signal;
      try {
        // An API token's panel may take it on the version read only (see readApiTokenSession); such
        // a panel is not followed through an upgrade (a new sign-in with the token finds it again).
        const answer =
          record.tokenKind === 'api-token'
            ? {
                session: await readApiTokenSession(this.#options.request, record, token, signal),
                moved: null,
                version: null,
                updateAvailable: null,
              }
            : await readSessionFollowingUpgrade(this.#options.request, record, token, signal, this.#mayFindGeneration(panelId, by));
        // Found again after an upgrade: the search read the version already.
        let version: VersionRead | null = answer.moved && {
          version: answer.version,
          updateAvailable: answer.updateAvailable,
          moved: answer.moved,
        };
        // Only while the sign-in lasts: a log out or a removal during the session read means the
        // token must go nowhere again, not even to the panel that issued it.
        const stillSignedIn = () => vault.epoch(panelId) === epoch && state.registry.get(panelId) !== undefined;
        if (version === null && this.#versionDue(state, panelId) && stillSignedIn())
          version = await readVersion(this.#options.request, record, token, signal);
        read = { ok: true, session: answer.session, version };
      } catch (error) {
        read = { ok: false, error };
        if (error instanceof MissingRouteError) this.#generationNotFound.set(panelId, this.#options.now().getTime());
      } finally {
        signedIn.done();
      }
      const latest = find(state, panelId);
      if (vault.epoch(panelId) !== epoch || vault.token(panelId, latest.baseUrl) !== token) {
        if (vault.token(panelId, latest.baseUrl)) continue;
        throw new PanelError(
          'NOT_SIGNED_IN',
          latest.signedOutReason
            ? `The sign-in to ${latest.name} ended while the session was being read. ${latest.signedOutReason.message}`
            : `You logged out of ${latest.name} while the session was being read. Log in again to read it.`,
        );
      }
      if (!read.ok) {
        if (read.error instanceof PanelError && read.error.code !== 'CANCELLED') await this.recordFailure(state, latest, token, read.error);
        throw read.error;
      }
      const checkedAt = this.#options.now().toISOString();
      const result: SessionResult = { panelId, checkedAt, session: hideSecrets(read.session, this.#matcherFor(panelId, token)) };
      const { version } = read;
      // A version read that named none keeps the last one named: a missing answer is no news.
      const kept = state.history.get(panelId);
      // An update said of another version is not this one's (the panel was upgraded): not said until read again.
      const sameVersion = version?.version === null || version?.version === kept.panelVersion;
      const learnt = version && {
        panelVersion: version.version ?? kept.panelVersion,
        updateAvailable: version.updateAvailable ?? (sameVersion ? kept.updateAvailable : null),
        versionReadAt: checkedAt,
      };
      // The expiry is read from the answer before redaction and from the token, here in main only.
      state.history.record(panelId, {
        lastCheck: { at: checkedAt, ok: true },
        sessionExpiresAt: sessionExpiry(read.session, token, new Date(checkedAt)),
        ...learnt,
      });
      if (version) this.#versionsDue.delete(panelId);
      if (version?.moved) await this.#saveMove(state, record, version.moved);
      this.#options.cache.set(result);
      this.#options.changes.changed(panelId);
      return result;
    }
  }

  /**
   * A version another read named (the Overview's server read): kept as the panel's, so that one
   * read updates every place that shows it (header, table, search, state). One that differs from
   * the kept version is news, an upgrade in place: the next session read reads the version itself,
   * and follows the panel to a newer generation if it moved. A read that named none is no news.
   */
  learntVersion(state: DataFolder, panelId: string, version: string | null): void {
    if (version === null || state.registry.get(panelId) === undefined) return;
    if (state.history.get(panelId).panelVersion === version) return;
    // Whether an update is out was said of the version before: the next version read says it anew.
    state.history.record(panelId, { panelVersion: version, updateAvailable: null });
    this.#versionsDue.add(panelId);
    this.#options.changes.changed(panelId);
  }

  /**
   * A signal for requests made with the panel's current token: aborted by `signal`, and when the
   * sign-in ends (`ended`), so that a read under way when the operator logs
   * out or removes the panel does not reach the panel afterwards. `done` once the requests ended.
   */
  whileSignedIn(panelId: string, signal?: AbortSignal): { signal: AbortSignal; done(): void } {
    const own = new AbortController();
    const stop = () => own.abort();
    if (signal?.aborted) own.abort();
    else signal?.addEventListener('abort', stop, { once: true });
    const underWay = this.#underWay.get(panelId) ?? new Set<AbortController>();
    this.#underWay.set(panelId, underWay.add(own));
    return {
      signal: own.signal,
      done: () => {
        signal?.removeEventListener('abort', stop);
        underWay.delete(own);
        if (underWay.size === 0 && this.#underWay.get(panelId) === underWay) this.#underWay.delete(panelId);
      },
    };
  }

  /**
   * The panel's sign-in ended (a log out, a removal, a new address, a refused token): the requests
   * under way with its token stop before they reach the panel, then all kept for it is forgotten.
   * Not called when a new sign-in begins: a read under way then reads again with the new token.
   */
  ended(panelId: string): void {
    for (const controller of this.#underWay.get(panelId) ?? []) controller.abort();
    this.forget(panelId);
    this.#options.signInEnded?.(panelId);
  }

  /** Forgets what was kept for the panel's sign-in, when it ends or a new one begins; the next read reads the version again. */
  forget(panelId: string): void {
    this.#matchers.delete(panelId);
    this.#versionsDue.add(panelId);
    this.#generationNotFound.delete(panelId);
  }

  /**
   * Whether a session route that is missing (404, 405) may start the search for the panel's
   * generation (up to three version reads). A check repeats a search that found nothing only after
   * the panel's version period, so a panel behind a proxy that answers 404 costs one request a
   * check, not four; the operator opening the panel searches at once (an upgrade just finished).
   */
  #mayFindGeneration(panelId: string, by: 'operator' | 'check'): boolean {
    const failedAt = this.#generationNotFound.get(panelId);
    return by === 'operator' || failedAt === undefined || this.#options.now().getTime() - failedAt >= versionPeriodMs(panelId);
  }

  /** Whether the panel's version is worth a request now: after a sign-in began, never read, or read over its period ago. */
  #versionDue(state: DataFolder, panelId: string): boolean {
    if (this.#versionsDue.has(panelId)) return true;
    const readAt = state.history.get(panelId).versionReadAt;
    return readAt === null || this.#options.now().getTime() - Date.parse(readAt) >= versionPeriodMs(panelId);
  }

  /**
   * Remembers the newer generation a panel was found to speak, unless its generation or paths were
   * changed meanwhile (the operator's choice wins). A write that fails is not the check's failure:
   * the list holds the change in memory, and the next save writes it.
   */
  async #saveMove(state: DataFolder, readWith: PanelRecord, moved: PanelEndpoint): Promise<void> {
    const latest = state.registry.get(readWith.id);
    if (!latest || latest.generation !== readWith.generation || latest.loginPath !== readWith.loginPath) return;
    if (latest.sessionPath !== readWith.sessionPath) return;
    const { generation, loginPath, sessionPath } = moved;
    await attemptWrite(() => state.registry.update(readWith.id, { generation, loginPath, sessionPath }));
  }

  #matcherFor(panelId: string, token: string): SecretMatcher {
    const known = this.#matchers.get(panelId);
    if (known?.token === token) return known.matcher;
    const matcher = secretMatcher([token]);
    this.#matchers.set(panelId, { token, matcher });
    return matcher;
  }

  /** `read` as a check: never rejects, answers with the outcome. */
  async check(state: DataFolder, panelId: string, signal: AbortSignal): Promise<PanelCheck> {
    try {
      const { checkedAt } = await this.read(state, panelId, signal, 'check');
      return { panelId, checkedAt, ok: true };
    } catch (error) {
      const info = error instanceof PanelError ? error.toInfo() : { code: 'INTERNAL' as const, message: INTERNAL_MESSAGE };
      return { panelId, checkedAt: this.#options.now().toISOString(), ok: false, error: info };
    }
  }

  /** Keeps the failed check; a 401/403 (to any read of the check) also ends the sign-in, durably, whatever the disk says of the history. */
  async recordFailure(state: DataFolder, record: PanelRecord, token: string, error: PanelError): Promise<void> {
    const lastCheck = { at: this.#options.now().toISOString(), ok: false as const, error: error.toInfo() };
    state.history.record(record.id, { lastCheck });
    await this.failedWithToken(state, record, token, error);
    this.#options.changes.changed(record.id);
  }

  /**
   * What any call made with the panel's token (a session read, a list of services) learns from
   * its failure: a refused certificate is noted for trustCertificate, and a 401/403 ends the
   * sign-in, durably (the rejected token only: a new sign-in meanwhile stays).
   */
  async failedWithToken(state: DataFolder, record: PanelRecord, token: string, error: PanelError): Promise<void> {
    // Only while the panel is still at the address that presented it (see logInOnce).
    if (error.certificate && state.registry.get(record.id)?.baseUrl === record.baseUrl)
      this.#options.presented.set(record.id, error.certificate);
    if (error.code !== 'UNAUTHORIZED') return;
    // Refused as another account of the panel's (a write that went as it): that account's sign-in ends, not the panel's.
    const account = record.accounts.find(({ id }) => state.vault.token(accountKey(record.id, id), record.baseUrl) === token);
    if (account) {
      const dropping = attemptWrite(() => state.vault.dropRejected(accountKey(record.id, account.id), token));
      const latest = state.registry.get(record.id);
      const accounts = latest?.accounts.map((one) => (one.id === account.id ? { ...one, tokenStorage: null } : one));
      const listing = accounts ? attemptWrite(() => state.registry.update(record.id, { accounts })) : null;
      this.#options.changes.changed(record.id);
      await Promise.all([dropping, listing]);
      return;
    }
    // A disk error must not hide the panel's answer, which is what the operator asked for; the
    // rejected token is forgotten in memory either way.
    // All of it in memory before either write is waited for, as one change (see endSignIns in sign-in-methods.ts).
    const dropping = attemptWrite(() => state.vault.dropRejected(record.id, token));
    const listing = attemptWrite(() => state.registry.update(record.id, { tokenStorage: null, signedOutReason: error.toInfo() }));
    this.#options.cache.forget(record.id);
    this.ended(record.id);
    state.history.record(record.id, { sessionExpiresAt: null });
    this.#options.changes.changed(record.id);
    await Promise.all([dropping, listing]);
  }
}

/** NOT_SIGNED_IN for a call that needs the panel's token, saying why the sign-in ended when it is known. */
export function notSignedIn(record: PanelRecord): PanelError {
  const reason = record.signedOutReason ? ` ${record.signedOutReason.message}` : ' Log in first.';
  return new PanelError('NOT_SIGNED_IN', `You are not signed in to ${record.name}.${reason}`);
}

export function find(state: Pick<DataFolder, 'registry'>, id: string): PanelRecord {
  const record = state.registry.get(id);
  if (!record) throw new PanelError('NOT_FOUND', 'This panel is no longer in the list. It may have been removed.');
  return record;
}

/** Runs a write whose failure the caller handles by what it knows; the error, or null when it worked. */
export async function attemptWrite(write: () => Promise<unknown>): Promise<PanelError | null> {
  try {
    await write();
    return null;
  } catch (error) {
    if (error instanceof PanelError) return error;
    throw error;
  }
}
