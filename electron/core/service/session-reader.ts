import { INTERNAL_MESSAGE, PanelError, type CertificateInfo } from '../../../shared/errors.ts';
import type { PanelCheck, SessionResult } from '../../../shared/types.ts';
import { requestSession, type RequestSettings } from '../http/panel-endpoints.ts';
import type { PanelChangeBatcher } from './panel-events.ts';
import type { PanelRecord } from '../storage/panel-registry.ts';
import type { ServiceState } from './service-state.ts';
import type { SessionCache } from './session-cache.ts';
import { sessionExpiry } from '../http/session-expiry.ts';
import { secretMatcher, type SecretMatcher } from '../secrets/secret-match.ts';
import { hideSecrets } from '../secrets/session-redaction.ts';

export interface SessionReaderOptions {
  request: RequestSettings;
  now(): Date;
  cache: SessionCache;
  changes: PanelChangeBatcher;
  /** Where a refused certificate is noted, for trustCertificate to accept exactly that one. */
  presented: Map<string, CertificateInfo>;
}

/**
 * Reads a panel's session, for the operator's getSession and for checks alike, and records what it
 * found: the outcome and the session's end in the check history (coalesced), the redacted session
 * in the cache, and for a 401/403 the end of the sign-in (written at once, like a log out).
 */
export class SessionReader {
  readonly #options: SessionReaderOptions;
  /** Each panel's current token's matcher: building it costs more than checking a small answer. */
  readonly #matchers = new Map<string, { token: string; matcher: SecretMatcher }>();

  constructor(options: SessionReaderOptions) {
    this.#options = options;
  }

  /**
   * Each pass reads with the token the panel has now. A pass whose sign-in ended while it was under
   * way (log out, removal, new address, a 401 to another read) must not count as the panel's check
   * or show a session for a signed-out panel; a new log in meanwhile reads again. A cancelled read
   * records nothing.
   */
  async read(state: ServiceState, panelId: string, signal?: AbortSignal): Promise<SessionResult> {
    const { vault } = state;
    for (;;) {
      const record = find(state, panelId);
      const token = vault.token(panelId, record.baseUrl);
      if (!token) {
        const reason = record.signedOutReason ? ` ${record.signedOutReason.message}` : ' Log in first.';
        throw new PanelError('NOT_SIGNED_IN', `You are not signed in to ${record.name}.${reason}`);
      }
      const generation = vault.generation(panelId);
      let read: { ok: true; session: unknown } | { ok: false; error: unknown };
      try {
        read = { ok: true, session: await requestSession(this.#options.request, record, token, signal) };
      } catch (error) {
        read = { ok: false, error };
      }
      const latest = find(state, panelId);
      if (vault.generation(panelId) !== generation || vault.token(panelId, latest.baseUrl) !== token) {
        if (vault.token(panelId, latest.baseUrl)) continue;
        throw new PanelError(
          'NOT_SIGNED_IN',
          latest.signedOutReason
            ? `The sign-in to ${latest.name} ended while the session was being read. ${latest.signedOutReason.message}`
            : `You logged out of ${latest.name} while the session was being read. Log in again to read it.`,
        );
      }
      if (!read.ok) {
        if (read.error instanceof PanelError && read.error.code !== 'CANCELLED')
          await this.#recordFailure(state, latest, token, read.error);
        throw read.error;
      }
      const checkedAt = this.#options.now().toISOString();
      const result: SessionResult = { panelId, checkedAt, session: hideSecrets(read.session, this.#matcherFor(panelId, token)) };
      // The expiry is read from the answer before redaction and from the token, here in main only.
      state.history.record(panelId, {
        lastCheck: { at: checkedAt, ok: true },
        sessionExpiresAt: sessionExpiry(read.session, token, new Date(checkedAt)),
      });
      this.#options.cache.set(result);
      this.#options.changes.changed(panelId);
      return result;
    }
  }

  /** Forgets what was kept for the panel's sign-in, when it ends. */
  forget(panelId: string): void {
    this.#matchers.delete(panelId);
  }

  #matcherFor(panelId: string, token: string): SecretMatcher {
    const known = this.#matchers.get(panelId);
    if (known?.token === token) return known.matcher;
    const matcher = secretMatcher([token]);
    this.#matchers.set(panelId, { token, matcher });
    return matcher;
  }

  /** `read` as a check: never rejects, answers with the outcome. */
  async check(state: ServiceState, panelId: string, signal: AbortSignal): Promise<PanelCheck> {
    try {
      const { checkedAt } = await this.read(state, panelId, signal);
      return { panelId, checkedAt, ok: true };
    } catch (error) {
      const info = error instanceof PanelError ? error.toInfo() : { code: 'INTERNAL' as const, message: INTERNAL_MESSAGE };
      return { panelId, checkedAt: this.#options.now().toISOString(), ok: false, error: info };
    }
  }

  /** Keeps the failed check; a 401/403 also ends the sign-in, durably, whatever the disk says of the history. */
  async #recordFailure(state: ServiceState, record: PanelRecord, token: string, error: PanelError): Promise<void> {
    // Only while the panel is still at the address that presented it (see logInOnce).
    if (error.certificate && state.registry.get(record.id)?.baseUrl === record.baseUrl)
      this.#options.presented.set(record.id, error.certificate);
    const lastCheck = { at: this.#options.now().toISOString(), ok: false as const, error: error.toInfo() };
    if (error.code === 'UNAUTHORIZED') {
      // A disk error must not hide the panel's answer, which is what the operator asked for; the
      // rejected token is forgotten in memory either way.
      // All of it in memory before either write is waited for, as one change (see endSignIns in panel-service.ts).
      const dropping = attemptWrite(() => state.vault.dropRejected(record.id, token));
      const listing = attemptWrite(() => state.registry.update(record.id, { tokenStorage: null, signedOutReason: error.toInfo() }));
      this.#options.cache.forget(record.id);
      this.forget(record.id);
      state.history.record(record.id, { lastCheck, sessionExpiresAt: null });
      await Promise.all([dropping, listing]);
    } else {
      state.history.record(record.id, { lastCheck });
    }
    this.#options.changes.changed(record.id);
  }
}

export function find(state: Pick<ServiceState, 'registry'>, id: string): PanelRecord {
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
