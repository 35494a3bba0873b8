import { createHash, randomUUID } from 'node:crypto';
import { parseArguments, type PanelApi } from '../../shared/contract.ts';
import { PanelError, type ErrorInfo } from '../../shared/errors.ts';
import type { Panel, StartupProblem } from '../../shared/types.ts';
import { normaliseAddress, normaliseLoginPath, DEFAULT_LOGIN_PATH } from './address.ts';
import { SettingsFile } from './app-settings.ts';
import { openJsonFiles, storageReason, type OpenStore } from './document-store.ts';
import type { FetchLike } from './http-client.ts';
import { requestLogIn, requestSession, type RequestSettings } from './panel-endpoints.ts';
import { hideSecrets } from './session-redaction.ts';
import { PanelRegistry, type PanelRecord, type RegistryLoadProblem, type RegistryMigration } from './panel-registry.ts';
import { TokenVault, type Encryption } from './token-vault.ts';

export interface PanelServiceOptions {
  /** The folder the panel list and the token store are kept in. */
  dataDir: string;
  encryption: Encryption;
  /** Defaults to the global fetch; the app passes Electron's `net.fetch` (system proxy, OS certificates). */
  fetch?: FetchLike;
  /** Per request, headers and body together. Default 15 s. */
  timeoutMs?: number;
  /** Largest answer read from a panel. Default 4 MiB: room for a session with a 1 MiB string, far below memory trouble. */
  maxResponseBytes?: number;
  /** Defaults to JSON files in `dataDir`, written atomically, which the app uses too. */
  openStore?: OpenStore;
  now?: () => Date;
}

export interface PanelService extends PanelApi {
  /** What was wrong with the panel list on disk when it was loaded, if anything. */
  loadProblem(): Promise<RegistryLoadProblem | null>;
  /** The format the panel list was upgraded from at start, and where the old file was kept. */
  migration(): Promise<RegistryMigration | null>;
}

/**
 * The whole of Paneldeck's main-process logic behind the contract. Every method checks its
 * arguments against the contract's schemas, so it can be called from IPC or a script alike.
 */
export function createPanelService(options: PanelServiceOptions): PanelService {
  const now = options.now ?? (() => new Date());
  const openStore = options.openStore ?? openJsonFiles(options.dataDir);
  const settings: RequestSettings = {
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    timeoutMs: options.timeoutMs ?? 15_000,
    maxResponseBytes: options.maxResponseBytes ?? 4 * 1024 * 1024,
  };
  const ready = open(openStore, options.encryption, now());
  // Keeps a failed start from being an unhandled rejection; each call still sees the failure.
  ready.catch(() => undefined);
  const logInsInFlight = new Map<string, { key: string; result: Promise<Panel> }>();

  const state = () => ready;

  function find(registry: PanelRegistry, id: string): PanelRecord {
    const record = registry.get(id);
    if (!record) throw new PanelError('NOT_FOUND', 'This panel is no longer in the list. It may have been removed.');
    return record;
  }

  /** `generation` is the panel's as the operator asked to log in: a log out since then drops this log in. */
  async function logInOnce(id: string, email: string, password: string, generation: number): Promise<Panel> {
    const { registry, vault } = await state();
    const panel = find(registry, id);
    const held = vault.token(id, panel.baseUrl);
    const token = await requestLogIn(settings, panel, { email, password }, held ? [held] : []);
    const storage = await vault.save(id, token, now(), { generation, baseUrl: panel.baseUrl });
    // Removed while the request was under way: nothing was stored for it.
    find(registry, id);
    if (storage === null) {
      throw new PanelError(
        'NOT_SIGNED_IN',
        'The panel was logged out or its address changed while logging in, so that log in was dropped. Log in again.',
      );
    }
    try {
      return toPanel(registry.update(id, { lastEmail: email, tokenStorage: storage, signedOutReason: null })!, vault);
    } catch (error) {
      // A log in that fails must not leave the panel signed in behind the operator's back.
      forgetQuietly(vault, id);
      throw error;
    }
  }

  /**
   * Keeps the failed check on the panel; a 401/403 also forgets the token that was rejected.
   * The caller has made sure that token is still the panel's (no log in or log out meanwhile).
   */
  function recordFailedCheck(registry: PanelRegistry, vault: TokenVault, panelId: string, error: PanelError): void {
    const lastCheck = { at: now().toISOString(), ok: false as const, error: error.toInfo() };
    const rejected = error.code === 'UNAUTHORIZED';
    // A disk error here must not hide the panel's answer, which is what the operator asked for;
    // the rejected token is forgotten in memory either way.
    if (rejected) attempt(() => vault.forget(panelId));
    attempt(() => registry.update(panelId, rejected ? { lastCheck, tokenStorage: null, signedOutReason: error.toInfo() } : { lastCheck }));
  }

  /**
   * Ends a panel's sign-in for good: in memory at once, and on disk in both the token store and
   * the panel list (with `change`), either of which is enough for the next start to leave the
   * panel signed out. Throws `STORAGE` only when neither could be written; `listFailure` says
   * whether the rest of `change` was saved.
   */
  function endSignIn(
    registry: PanelRegistry,
    vault: TokenVault,
    record: PanelRecord,
    change: Partial<PanelRecord>,
    what: string,
  ): { record: PanelRecord; listFailure: PanelError | null } {
    const forgetFailure = attempt(() => vault.forget(record.id));
    let updated: PanelRecord | undefined;
    const listFailure = attempt(() => {
      updated = registry.update(record.id, { ...change, tokenStorage: null });
    });
    if (forgetFailure && listFailure) {
      throw new PanelError(
        'STORAGE',
        `You are ${what} for now, but Paneldeck could not record it on disk (${storageReason(listFailure.cause)}). ` +
          'Until it can, a restart may bring the sign-in back; Paneldeck records it with its next save. ' +
          "Check free disk space and the folder's permissions.",
        { cause: listFailure },
      );
    }
    return { record: updated ?? record, listFailure };
  }

  return {
    async loadProblem() {
      return (await state()).registry.loadProblem;
    },

    async migration() {
      return (await state()).registry.migration;
    },

    async getAppStatus() {
      parseArguments('getAppStatus', []);
      const { settings, vault, startupProblems } = await state();
      return { settings: settings.get(), tokenProtection: await vault.protection(), startupProblems };
    },

    async updateSettings(patch) {
      const [change] = parseArguments('updateSettings', [patch]);
      const { registry, settings, vault, startupProblems } = await state();
      const weak = change.storeTokensWithWeakProtection;
      if (weak === false) {
        // Copies first, setting after: if the copies cannot be deleted the setting stays on, so
        // "off" never stands beside weak copies on disk, and a retry finishes the job.
        for (const panelId of vault.removeWeakCopies()) attempt(() => registry.update(panelId, { tokenStorage: 'memory' }));
        settings.update(change);
      } else {
        // The setting first: the vault reads it when it decides where tokens go.
        settings.update(change);
        if (weak === true) await vault.saveHeldInMemory(now(), (panelId, storage) => registry.update(panelId, { tokenStorage: storage }));
      }
      return { settings: settings.get(), tokenProtection: await vault.protection(), startupProblems };
    },

    async listPanels() {
      parseArguments('listPanels', []);
      const { registry, vault } = await state();
      return registry.list().map((record) => toPanel(record, vault));
    },

    async addPanel(input) {
      const [{ address, name }] = parseArguments('addPanel', [input]);
      const { registry, vault } = await state();
      const { baseUrl, display } = normaliseAddress(address);
      failIfDuplicate(registry, baseUrl, display);
      const record: PanelRecord = {
        id: randomUUID(),
        name: name || display,
        baseUrl,
        loginPath: DEFAULT_LOGIN_PATH,
        tokenField: null,
        createdAt: now().toISOString(),
        lastEmail: null,
        tokenStorage: null,
        signedOutReason: null,
        lastCheck: null,
      };
      registry.insert(record);
      return toPanel(record, vault);
    },

    async updatePanel(id, patch) {
      const [panelId, change] = parseArguments('updatePanel', [id, patch]);
      const { registry, vault } = await state();
      const record = find(registry, panelId);
      const signedIn = vault.token(panelId, record.baseUrl) !== undefined;
      const next: Partial<PanelRecord> = {};
      if (change.name !== undefined) next.name = change.name;
      if (change.loginPath !== undefined) next.loginPath = normaliseLoginPath(change.loginPath);
      if (change.tokenField !== undefined) next.tokenField = change.tokenField;
      if (change.address !== undefined) {
        const { baseUrl, display } = normaliseAddress(change.address);
        if (baseUrl !== record.baseUrl) {
          failIfDuplicate(registry, baseUrl, display);
          next.baseUrl = baseUrl;
          next.lastCheck = null;
          next.signedOutReason = signedIn
            ? { code: 'NOT_SIGNED_IN', message: 'The address changed, so the sign-in for the old address was forgotten. Log in again.' }
            : record.signedOutReason;
        }
      }
      // The token belongs to the old address; it must never be sent to the new one.
      if (next.baseUrl !== undefined) {
        const ended = endSignIn(registry, vault, record, next, `signed out of ${record.name} at its old address`);
        // Signed out either way; the new address itself was not saved.
        if (ended.listFailure) throw ended.listFailure;
        return toPanel(ended.record, vault);
      }
      return toPanel(registry.update(panelId, next) ?? record, vault);
    },

    async removePanel(id) {
      const [panelId] = parseArguments('removePanel', [id]);
      const { registry, vault } = await state();
      find(registry, panelId);
      // Signed out at once whatever the disk says. A token left in the token store is dropped at
      // the next start, because the panel is no longer in the list.
      attempt(() => vault.forget(panelId));
      registry.remove(panelId);
    },

    async logIn(id, credentials) {
      const [panelId, { email, password }] = parseArguments('logIn', [id, credentials]);
      const { registry, vault } = await state();
      const { baseUrl, loginPath, tokenField } = find(registry, panelId);
      // The generation is taken where the attempt starts: a log out from here on drops it.
      // A double click sends one request; a different attempt waits for the one under way. The
      // key names the panel as it is now, so an attempt made before a log out or an address
      // change is never reused.
      const generation = vault.generation(panelId);
      const attempt = [generation, baseUrl, loginPath, tokenField, email, password].join('\0');
      const key = createHash('sha256').update(attempt).digest('hex');
      const current = logInsInFlight.get(panelId);
      if (current?.key === key) return current.result;
      const previous = current?.result.catch(() => undefined);
      const result = (async () => {
        await previous;
        return logInOnce(panelId, email, password, generation);
      })();
      const entry = { key, result };
      logInsInFlight.set(panelId, entry);
      try {
        return await result;
      } finally {
        if (logInsInFlight.get(panelId) === entry) logInsInFlight.delete(panelId);
      }
    },

    async logOut(id) {
      const [panelId] = parseArguments('logOut', [id]);
      const { registry, vault } = await state();
      const record = find(registry, panelId);
      return toPanel(endSignIn(registry, vault, record, { signedOutReason: null }, `logged out of ${record.name}`).record, vault);
    },

    async getSession(id) {
      const [panelId] = parseArguments('getSession', [id]);
      const { registry, vault } = await state();
      // Each pass reads with the token the panel has now. A pass whose sign-in ended while it was
      // under way (log out, removal, new address, a 401 to another read) must not count as the
      // panel's check or show a session for a signed-out panel; a new log in meanwhile reads again.
      for (;;) {
        const record = find(registry, panelId);
        const token = vault.token(panelId, record.baseUrl);
        if (!token) {
          const reason = record.signedOutReason ? ` ${record.signedOutReason.message}` : ' Log in first.';
          throw new PanelError('NOT_SIGNED_IN', `You are not logged in to ${record.name}.${reason}`);
        }
        const generation = vault.generation(panelId);
        let read: { ok: true; session: unknown } | { ok: false; error: unknown };
        try {
          read = { ok: true, session: await requestSession(settings, record, token) };
        } catch (error) {
          read = { ok: false, error };
        }
        const latest = find(registry, panelId);
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
          if (read.error instanceof PanelError) recordFailedCheck(registry, vault, panelId, read.error);
          throw read.error;
        }
        const checkedAt = now().toISOString();
        registry.update(panelId, { lastCheck: { at: checkedAt, ok: true } });
        return { panelId, checkedAt, session: hideSecrets(read.session, [token]) };
      }
    },
  };
}

async function open(openStore: OpenStore, encryption: Encryption, now: Date) {
  const registry = new PanelRegistry(openStore('panels', { secret: false }), now);
  const settings = new SettingsFile(openStore('settings', { secret: false }), now);
  const policy = { allowWeak: () => settings.get().storeTokensWithWeakProtection };
  const panels = new Map(registry.list().map((record) => [record.id, { baseUrl: record.baseUrl, signedIn: record.tokenStorage !== null }]));
  const list = { panels, complete: registry.loadProblem === null };
  const { vault, problems, fileProblem } = await TokenVault.open(openStore('tokens', { secret: true }), encryption, now, policy, list);
  // Say why panels that were signed in last time are not any more.
  for (const record of registry.list()) {
    if (record.tokenStorage === null || vault.token(record.id, record.baseUrl)) continue;
    const reason = problems.get(record.id) ?? (record.tokenStorage !== 'memory' ? fileProblem?.info : null) ?? lostTokenReason(record);
    // A sign-in kept on disk for when the keyring is back stays recorded; only an ended one is null.
    registry.update(record.id, { tokenStorage: vault.keeps(record.id) ? record.tokenStorage : null, signedOutReason: reason });
  }
  const startupProblems: StartupProblem[] = [];
  if (registry.loadProblem) startupProblems.push({ file: 'panels', message: registry.loadProblem.message, copyPath: registry.loadProblem.movedTo });
  if (fileProblem) startupProblems.push({ file: 'tokens', message: fileProblem.summary, copyPath: fileProblem.copyPath });
  if (settings.loadProblem) startupProblems.push(settings.loadProblem);
  return { registry, vault, settings, startupProblems };
}

function lostTokenReason(record: PanelRecord): ErrorInfo {
  return record.tokenStorage === 'memory'
    ? { code: 'NOT_SIGNED_IN', message: 'The token was kept in memory only (no secure storage on this system) and is gone since Paneldeck restarted. Log in again.' }
    : { code: 'TOKEN_UNREADABLE', message: 'The saved sign-in was not found in the token store. Log in again.' };
}

function forgetQuietly(vault: TokenVault, panelId: string): void {
  // The token is gone from memory already, and a deletion that could not be written stays due for
  // the next write. The STORAGE error being thrown already tells the operator the disk is failing.
  attempt(() => vault.forget(panelId));
}

/** Runs a write whose failure the caller handles by what it knows; the error, or null when it worked. */
function attempt(write: () => void): PanelError | null {
  try {
    write();
    return null;
  } catch (error) {
    if (error instanceof PanelError) return error;
    throw error;
  }
}

function failIfDuplicate(registry: PanelRegistry, baseUrl: string, display: string): void {
  const existing = registry.list().find((record) => record.baseUrl === baseUrl);
  if (existing) {
    throw new PanelError('DUPLICATE_PANEL', `${display} is already in your list as "${existing.name}".`);
  }
}

function toPanel(record: PanelRecord, vault: TokenVault): Panel {
  const signedIn = vault.token(record.id, record.baseUrl) !== undefined;
  return {
    id: record.id,
    name: record.name,
    address: normaliseAddress(record.baseUrl).display,
    baseUrl: record.baseUrl,
    loginPath: record.loginPath,
    tokenField: record.tokenField,
    createdAt: record.createdAt,
    lastEmail: record.lastEmail,
    signedIn,
    tokenStorage: vault.storage(record.id),
    signedOutReason: signedIn ? null : record.signedOutReason,
    lastCheck: record.lastCheck,
  };
}
