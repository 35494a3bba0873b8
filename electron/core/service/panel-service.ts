import { STYLE_PATHS } from '../common/style-paths.ts';
import { randomUUID } from 'node:crypto';
import { parseArguments, type PanelApi } from '../../../shared/contract.ts';
import type { PanelEvent } from '../../../shared/events.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { PanelError } from '../../../shared/errors.ts';
import type { AppSettings } from '../../../shared/types.ts';
import type { CertificateInfo } from '../../../shared/errors.ts';
import { normaliseAddress, normaliseApiPath, normaliseLoginPath } from '../common/address.ts';

import { createNodeFetch } from '../http/node-fetch.ts';
import { jsonFileStore, openJsonFiles, storageError, storageReason, type OpenStore } from '../storage/document-store.ts';
import { exportDocument } from '../../../shared/transfer.ts';
import { cleanTags, LABEL_LIMITS } from '../../../shared/labels.ts';
import { plural } from '../../../shared/counts.ts';
import { PanelImporter, newRecord } from './panel-import.ts';
import type { FetchLike } from '../http/http-client.ts';
import { LogInQueue } from './login-queue.ts';
import { PanelChecker } from '../background/panel-checker.ts';
import { logInFindingStyle, type LogInCredentials, type RequestSettings } from '../http/panel-endpoints.ts';
import { PanelChangeBatcher } from './panel-events.ts';
import type { PanelRecord, PanelRecordChange, PanelRegistry, RegistryLoadProblem, RegistryMigration } from '../storage/panel-registry.ts';
import { openServiceState, toPanel, type ServiceState } from './service-state.ts';
import { SessionCache } from './session-cache.ts';
import { attemptWrite, find, SessionReader } from './session-reader.ts';
import type { Encryption } from '../storage/token-vault.ts';

export interface PanelServiceOptions {
  /** The folder the panel list, the token store, the settings and the check history are kept in. */
  dataDir: string;
  encryption: Encryption;
  /**
   * Defaults to `createNodeFetch` (https judged by the system or the panel's trusted certificate);
   * the app passes a fetch over Chromium's network stack (system proxy, OS certificates).
   */
  fetch?: FetchLike;
  /** Per request, headers and body together. Default 15 s. */
  timeoutMs?: number;
  /** Largest answer read from a panel. Default 4 MiB: room for a session with a 1 MiB string, far below memory trouble. */
  maxResponseBytes?: number;
  /** Defaults to JSON files in `dataDir`, written atomically, which the app uses too. */
  openStore?: OpenStore;
  now?: () => Date;
  /** Where events for the window go (the app sends them to its own window only). */
  emit?: (event: PanelEvent) => void;
  /**
   * Asks the operator where to export panels (the app: the system's save dialog), offering
   * `suggestedName`; null when they cancel. Without it nothing is exported.
   */
  chooseExportFile?: (suggestedName: string) => Promise<string | null>;
  /** Asks the operator for a file to import (the app: the system's open dialog); null when they cancel. */
  chooseImportFile?: () => Promise<string | null>;
  /** Quits into the downloaded update (the app: its update checks); false when none is ready. Without it none ever is. */
  installUpdate?: () => boolean;
}

export interface PanelService extends PanelApi {
  /** What was wrong with the panel list on disk when it was loaded, if anything. */
  loadProblem(): Promise<RegistryLoadProblem | null>;
  /** The format the panel list was upgraded from at start, and where the old file was kept. */
  migration(): Promise<RegistryMigration | null>;
  /** The settings as they are now, for main's background work. */
  currentSettings(): Promise<AppSettings>;
  /** Writes what is waiting (check history, events) now: at quit. */
  flush(): Promise<void>;
  /**
   * The certificates trusted for panels on `hostname` (any port), for the app's certificate check,
   * which Chromium asks by host name only. Empty until the panel list is open.
   */
  trustedCertificatesFor(hostname: string): string[];
}

/**
 * The whole of Paneldeck's main-process logic behind the contract. Every method checks its
 * arguments against the contract's schemas, so it can be called from IPC or a script alike.
 */
export function createPanelService(options: PanelServiceOptions): PanelService {
  const now = options.now ?? (() => new Date());
  const openStore = options.openStore ?? openJsonFiles(options.dataDir);
  const request: RequestSettings = {
    fetch: options.fetch ?? createNodeFetch(),
    // Read at each request: the operator's setting applies from the next request on.
    get timeoutMs() {
      return options.timeoutMs ?? (opened?.settings.get() ?? DEFAULT_SETTINGS).requestTimeoutSeconds * 1000;
    },
    maxResponseBytes: options.maxResponseBytes ?? 4 * 1024 * 1024,
  };
  const ready = openServiceState(openStore, options.encryption, now());
  // Keeps a failed start from being an unhandled rejection; each call still sees the failure.
  ready.catch(() => undefined);
  const state = () => ready;
  let opened: ServiceState | null = null;
  void ready.then(
    (value) => (opened = value),
    () => undefined,
  );

  const cache = new SessionCache();
  const changes = new PanelChangeBatcher(
    (event) => options.emit?.(event),
    (ids) =>
      opened
        ? ids.flatMap((id) => {
            const record = opened!.registry.get(id);
            return record ? [toPanel(record, opened!)] : [];
          })
        : [],
  );
  /** The certificate each panel last presented and was refused for: what trustCertificate may pin. */
  const presented = new Map<string, CertificateInfo>();
  const reader = new SessionReader({ request, now, cache, changes, presented });
  const logIns = new LogInQueue();
  /** Reads started by getSession, so that cancelChecks stops them too. */
  const reads = new Set<AbortController>();
  const checker = new PanelChecker({
    concurrency: () => opened?.settings.get().checkConcurrency ?? DEFAULT_SETTINGS.checkConcurrency,
    checkOne: async (panelId, signal) => reader.check(await state(), panelId, signal),
    onProgress: (done, total) => options.emit?.({ type: 'checkProgress', done, total }),
    now,
  });

  /**
   * `generation` and `baseUrl` are the panel's as the operator asked to log in: a new address
   * since then drops this log in before the password is sent, a log out drops its token.
   */
  async function logInOnce(id: string, credentials: LogInCredentials, generation: number, baseUrl: string) {
    const current = await state();
    const { registry, vault } = current;
    const panel = find(current, id);
    // The address decides where the password goes: one typed for the old address is not sent to
    // the new one. (A log out meanwhile is handled after the answer: that token is not kept.)
    if (panel.baseUrl !== baseUrl) {
      throw new PanelError(
        'NOT_SIGNED_IN',
        "The panel's address changed before this log in was sent, so the password was not sent. Log in again.",
      );
    }
    const held = vault.token(id, panel.baseUrl);
    let token: string;
    try {
      token = await logInFindingStyle(request, panel, credentials, held ? [held] : [], async (endpoint) => {
        // Remembered whatever the log in's outcome (a code asked for, a wrong password): the panel
        // speaks this style, and the next attempt goes straight to it.
        if (registry.get(id)?.baseUrl !== baseUrl) return;
        await attemptWrite(() =>
          registry.update(id, { apiStyle: endpoint.apiStyle, loginPath: endpoint.loginPath, sessionPath: endpoint.sessionPath }),
        );
        changes.changed(id);
      });
    } catch (error) {
      if (error instanceof PanelError && error.certificate) presented.set(id, error.certificate);
      throw error;
    }
    const storage = await vault.save(id, token, now(), { generation, baseUrl: panel.baseUrl });
    // Removed while the request was under way: nothing was stored for it.
    find(current, id);
    if (storage === null) {
      throw new PanelError(
        'NOT_SIGNED_IN',
        'The panel was logged out or its address changed while logging in, so that log in was dropped. Log in again.',
      );
    }
    try {
      const saving = registry.update(id, { lastEmail: credentials.email, tokenStorage: storage, signedOutReason: null });
      cache.forget(id);
      reader.forget(id);
      current.history.record(id, { sessionExpiresAt: null });
      changes.changed(id);
      // The panel as this log in leaves it (calls made while it is written do not change the
      // answer, as they could not when writing held main up), answered once it is on disk.
      const answer = toPanel(find(current, id), current);
      await saving;
      return answer;
    } catch (error) {
      // A log in that fails must not leave the panel signed in behind the operator's back. The
      // token is gone from memory at once; a deletion that could not be written stays due.
      await attemptWrite(() => vault.forget(id));
      throw error;
    }
  }

  const importer = new PanelImporter({
    state,
    chooseImportFile: options.chooseImportFile ?? (async () => null),
    now,
    changed: (ids) => {
      for (const id of ids) changes.changed(id);
    },
  });

  /**
   * Ends a panel's sign-in for good: in memory at once, and on disk in both the token store and
   * the panel list (with `change`), either of which is enough for the next start to leave the
   * panel signed out. Throws `STORAGE` only when neither could be written; `listFailure` says
   * whether the rest of `change` was saved. Both changes are in memory when this returns its promise.
   */
  function endSignIn(current: ServiceState, record: PanelRecord, change: PanelRecordChange, what: string) {
    return endSignIns(current, [record], change, what);
  }

  /** `endSignIn` for several panels, with one write of each file. */
  async function endSignIns(current: ServiceState, records: readonly PanelRecord[], change: PanelRecordChange, what: string) {
    const ids = records.map((record) => record.id);
    // Both files' changes are made in memory before either write is waited for: a call made
    // meanwhile sees the sign-in ended and the list changed together.
    const forgetting = attemptWrite(() => current.vault.forget(...ids));
    for (const id of ids) {
      cache.forget(id);
      reader.forget(id);
      current.history.record(id, { sessionExpiresAt: null });
      changes.changed(id);
    }
    const listFailure = await attemptWrite(() =>
      current.registry.updateMany(new Map(ids.map((id) => [id, { ...change, tokenStorage: null }]))),
    );
    const forgetFailure = await forgetting;
    if (forgetFailure && listFailure) {
      throw new PanelError(
        'STORAGE',
        `You are ${what} for now, but Paneldeck could not record it on disk (${storageReason(listFailure)}). ` +
          'Until it can, a restart may bring the sign-in back; Paneldeck records it with its next save. ' +
          "Check free disk space and the folder's permissions.",
        { cause: listFailure },
      );
    }
    return { listFailure };
  }

  /** Forgets everything this run holds for panels that are being removed. */
  async function forgetPanels(current: ServiceState, ids: readonly string[]) {
    // Signed out at once whatever the disk says. A token left in the token store is dropped at
    // the next start, because the panel is no longer in the list.
    const forgetting = attemptWrite(() => current.vault.forget(...ids));
    for (const id of ids) {
      cache.forget(id);
      reader.forget(id);
      current.history.forget(id);
      presented.delete(id);
    }
    await forgetting;
  }

  return {
    async loadProblem() {
      return (await state()).registry.loadProblem;
    },

    async migration() {
      return (await state()).registry.migration;
    },

    async currentSettings() {
      return (await state()).settings.get();
    },

    async flush() {
      changes.flush();
      const { registry, vault, history } = await state();
      await history.flush();
      // The journals folded into their files: each file alone is complete after a quit.
      await Promise.all([registry.compact(), vault.compact(), history.compact()]);
    },

    async getAppStatus() {
      parseArguments('getAppStatus', []);
      const { settings, vault, startupProblems } = await state();
      return { settings: settings.get(), tokenProtection: await vault.protection(), startupProblems };
    },

    async updateSettings(patch) {
      const [change] = parseArguments('updateSettings', [patch]);
      const current = await state();
      const { registry, settings, vault, startupProblems } = current;
      const weak = change.storeTokensWithWeakProtection;
      const changed = (panelId: string) => changes.changed(panelId);
      if (weak === false) {
        // Copies first, setting after: if the copies cannot be deleted the setting stays on, so
        // "off" never stands beside weak copies on disk, and a retry finishes the job. Meanwhile
        // the vault makes no new weak copy, until the setting is written or the change failed.
        try {
          const inMemory = await vault.removeWeakCopies();
          // One change for all of them, made as the copies are gone (a change per panel would let calls in between).
          await attemptWrite(() => registry.updateMany(new Map(inMemory.map((panelId) => [panelId, { tokenStorage: 'memory' }]))));
          for (const panelId of inMemory) changed(panelId);
          await settings.update(change);
        } finally {
          vault.weakRemovalEnded();
        }
      } else {
        // The setting first: the vault reads it when it decides where tokens go.
        await settings.update(change);
        if (weak === true) {
          await vault.saveHeldInMemory(now(), async (panelId, storage) => {
            await registry.update(panelId, { tokenStorage: storage });
            changed(panelId);
          });
        }
      }
      return { settings: settings.get(), tokenProtection: await vault.protection(), startupProblems };
    },

    async installUpdate() {
      parseArguments('installUpdate', []);
      if (!options.installUpdate?.())
        throw new PanelError('NOT_FOUND', 'No update is ready to install. Paneldeck looks for one every day.');
    },

    async listPanels() {
      parseArguments('listPanels', []);
      const current = await state();
      return current.registry.list().map((record) => toPanel(record, current));
    },

    async addPanel(input) {
      const [{ address, name, allowPlainHttp = false, group = null, tags = [], colour = null, favourite = false }] = parseArguments(
        'addPanel',
        [input],
      );
      const current = await state();
      const { baseUrl, display } = normaliseAddress(address, { allowPlainHttp });
      failIfDuplicate(current.registry, baseUrl, display);
      const record: PanelRecord = {
        id: randomUUID(),
        name: name || display,
        baseUrl,
        allowPlainHttp,
        apiStyle: 'plain',
        loginPath: STYLE_PATHS.plain.login,
        sessionPath: STYLE_PATHS.plain.session,
        trustedCertificate: null,
        tokenField: null,
        createdAt: now().toISOString(),
        lastEmail: null,
        tokenStorage: null,
        signedOutReason: null,
        lastCheck: null,
        group,
        tags,
        colour,
        favourite,
      };
      await current.registry.insert(record);
      changes.changed(record.id);
      return toPanel(record, current);
    },

    async updatePanel(id, patch) {
      const [panelId, change] = parseArguments('updatePanel', [id, patch]);
      const current = await state();
      const record = find(current, panelId);
      const signedIn = current.vault.token(panelId, record.baseUrl) !== undefined;
      const next: PanelRecordChange = {};
      if (change.name !== undefined) next.name = change.name;
      const style = change.apiStyle ?? record.apiStyle;
      if (style !== record.apiStyle) {
        next.apiStyle = style;
        // Paths still at the old style's defaults follow the style; paths the operator set stay.
        if (record.loginPath === STYLE_PATHS[record.apiStyle].login) next.loginPath = STYLE_PATHS[style].login;
        if (record.sessionPath === STYLE_PATHS[record.apiStyle].session) next.sessionPath = STYLE_PATHS[style].session;
      }
      if (change.loginPath !== undefined) next.loginPath = normaliseLoginPath(change.loginPath, STYLE_PATHS[style].login);
      if (change.sessionPath !== undefined) next.sessionPath = normaliseApiPath(change.sessionPath, 'session', STYLE_PATHS[style].session);
      if (change.tokenField !== undefined) next.tokenField = change.tokenField;
      if (change.group !== undefined) next.group = change.group;
      if (change.tags !== undefined) next.tags = change.tags;
      if (change.colour !== undefined) next.colour = change.colour;
      if (change.favourite !== undefined) next.favourite = change.favourite;
      const allowPlainHttp = change.allowPlainHttp ?? record.allowPlainHttp;
      if (allowPlainHttp !== record.allowPlainHttp) next.allowPlainHttp = allowPlainHttp;
      // Taking the choice back needs an address that works without it: normalised again below.
      const address = change.address ?? (change.allowPlainHttp === false ? record.baseUrl : undefined);
      if (address !== undefined) {
        const { baseUrl, display } = normaliseAddress(address, { allowPlainHttp });
        if (baseUrl !== record.baseUrl) {
          failIfDuplicate(current.registry, baseUrl, display);
          next.baseUrl = baseUrl;
          // The trusted certificate was the old address's server's.
          next.trustedCertificate = null;
          next.signedOutReason = signedIn
            ? { code: 'NOT_SIGNED_IN', message: 'The address changed, so the sign-in for the old address was forgotten. Log in again.' }
            : record.signedOutReason;
        }
      }
      // The token belongs to the old address; it must never be sent to the new one.
      if (next.baseUrl !== undefined) {
        const ending = endSignIn(current, record, next, `signed out of ${record.name} at its old address`);
        current.history.forget(panelId);
        presented.delete(panelId);
        // As this call leaves the panel, answered once on disk (see logInOnce).
        const answer = toPanel(current.registry.get(panelId) ?? record, current);
        const { listFailure } = await ending;
        // Signed out either way; the new address itself was not saved.
        if (listFailure) throw listFailure;
        return answer;
      }
      const saving = current.registry.update(panelId, next);
      const answer = toPanel(current.registry.get(panelId) ?? record, current);
      await saving;
      changes.changed(panelId);
      return answer;
    },

    async removePanel(id) {
      const [panelId] = parseArguments('removePanel', [id]);
      const current = await state();
      find(current, panelId);
      // Gone from the list as the sign-in ends, before either write is waited for (see endSignIns).
      const forgetting = forgetPanels(current, [panelId]);
      try {
        await current.registry.remove(panelId);
      } finally {
        await forgetting;
      }
      changes.removed(panelId);
    },

    async removePanels(ids) {
      const [requested] = parseArguments('removePanels', [ids]);
      const current = await state();
      const panelIds = [...new Set(requested)].filter((id) => current.registry.get(id));
      const forgetting = forgetPanels(current, panelIds);
      try {
        await current.registry.removeMany(new Set(panelIds));
      } finally {
        await forgetting;
      }
      for (const id of panelIds) changes.removed(id);
    },

    async logOutPanels(ids) {
      const [requested] = parseArguments('logOutPanels', [ids]);
      const current = await state();
      const records = [...new Set(requested)].flatMap((id) => current.registry.get(id) ?? []);
      const ending = endSignIns(current, records, { signedOutReason: null }, `logged out of ${plural(records.length, 'panel')}`);
      const answer = records.map((record) => toPanel(current.registry.get(record.id) ?? record, current));
      await ending;
      return answer;
    },

    async updatePanels(ids, change) {
      const [requested, { group, addTags, removeTags, colour, favourite }] = parseArguments('updatePanels', [ids, change]);
      const current = await state();
      const records = [...new Set(requested)].flatMap((id) => current.registry.get(id) ?? []);
      const removing = new Set((removeTags ?? []).map((tag) => tag.toLowerCase()));
      const updates = new Map<string, PanelRecordChange>();
      for (const record of records) {
        const next: PanelRecordChange = {};
        if (group !== undefined) next.group = group;
        if (colour !== undefined) next.colour = colour;
        if (favourite !== undefined) next.favourite = favourite;
        if (addTags || removeTags) {
          const tags = cleanTags([...record.tags, ...(addTags ?? [])]).filter((tag) => !removing.has(tag.toLowerCase()));
          if (tags.length > LABEL_LIMITS.tags) {
            throw new PanelError(
              'INVALID_INPUT',
              `"${record.name}" would have ${tags.length} tags (${LABEL_LIMITS.tags} at most), so nothing was changed. Remove some of its tags first.`,
            );
          }
          next.tags = tags;
        }
        updates.set(record.id, next);
      }
      const saving = current.registry.updateMany(updates);
      const answer = records.map((record) => toPanel(current.registry.get(record.id) ?? record, current));
      await saving;
      for (const record of records) changes.changed(record.id);
      return answer;
    },

    async duplicatePanel(id, input) {
      const [panelId, { address, name }] = parseArguments('duplicatePanel', [id, input]);
      const current = await state();
      const source = find(current, panelId);
      const { baseUrl, display } = normaliseAddress(address, { allowPlainHttp: source.allowPlainHttp });
      failIfDuplicate(current.registry, baseUrl, display);
      // The settings and labels go with it; the sign-in, the email and the certificate (the old
      // address's server's) do not.
      const record = newRecord(
        { ...source, baseUrl, display, name: name || `${source.name} (copy)`, trustedCertificate: null },
        now().toISOString(),
      );
      await current.registry.insert(record);
      changes.changed(record.id);
      return toPanel(record, current);
    },

    async previewImport(source) {
      const [from] = parseArguments('previewImport', [source]);
      return importer.preview(from);
    },

    async applyImport(previewId, choice) {
      const [id, chosen] = parseArguments('applyImport', [previewId, choice]);
      return importer.apply(id, chosen);
    },

    async logIn(id, credentials) {
      const [panelId, { email, password, code }] = parseArguments('logIn', [id, credentials]);
      const current = await state();
      const { baseUrl, loginPath, tokenField } = find(current, panelId);
      // The generation is taken where the attempt starts: a log out from here on drops it.
      const generation = current.vault.generation(panelId);
      const attempt = [generation, baseUrl, loginPath, tokenField, email, password, code ?? null];
      return logIns.run(panelId, attempt, () => logInOnce(panelId, { email, password, code }, generation, baseUrl));
    },

    async logOut(id) {
      const [panelId] = parseArguments('logOut', [id]);
      const current = await state();
      const record = find(current, panelId);
      const ending = endSignIn(current, record, { signedOutReason: null }, `logged out of ${record.name}`);
      const answer = toPanel(current.registry.get(panelId) ?? record, current);
      await ending;
      return answer;
    },

    async getSession(id) {
      const [panelId] = parseArguments('getSession', [id]);
      const current = await state();
      const controller = new AbortController();
      reads.add(controller);
      try {
        return await reader.read(current, panelId, controller.signal);
      } finally {
        reads.delete(controller);
      }
    },

    async getCachedSession(id) {
      const [panelId] = parseArguments('getCachedSession', [id]);
      const current = await state();
      const record = find(current, panelId);
      // Only while the sign-in that read it lasts: the cache is emptied when it ends.
      return current.vault.token(panelId, record.baseUrl) ? cache.get(panelId) : null;
    },

    async exportPanels(ids) {
      const [requested] = parseArguments('exportPanels', [ids]);
      const current = await state();
      const records = requested ? requested.map((panelId) => find(current, panelId)) : current.registry.list();
      const at = now();
      const path = await (options.chooseExportFile ?? (async () => null))(`paneldeck-panels-${at.toISOString().slice(0, 10)}.json`);
      if (path === null) return { path: null, count: records.length };
      const document = exportDocument(
        records.map((record) => toPanel(record, current)),
        at,
      );
      try {
        // Written whole or not at all, readable by the operator only, like Paneldeck's own files.
        await jsonFileStore(path, { mode: 0o600 }).save(null, () => document as unknown as Record<string, unknown>);
      } catch (error) {
        throw storageError(`write the exported panels to ${path}`, error);
      }
      return { path, count: records.length };
    },

    async checkPanels(ids) {
      const [requested] = parseArguments('checkPanels', [ids]);
      const current = await state();
      const targets =
        requested ??
        current.registry
          .list()
          .filter((record) => current.vault.token(record.id, record.baseUrl))
          .map((record) => record.id);
      // An unknown id answers NOT_FOUND in its own result rather than failing the whole call.
      return checker.check(targets);
    },

    async trustCertificate(id, certificate) {
      const [panelId, { sha256 }] = parseArguments('trustCertificate', [id, certificate]);
      const current = await state();
      find(current, panelId);
      const seen = presented.get(panelId);
      if (!seen || seen.sha256 !== sha256) {
        throw new PanelError(
          'INVALID_INPUT',
          'This panel has not presented a certificate with that fingerprint since Paneldeck started, so it was not trusted. ' +
            'Connect to the panel again (Refresh, or Log in) to see the certificate it presents now.',
        );
      }
      const saving = current.registry.update(panelId, { trustedCertificate: seen });
      const answer = toPanel(find(current, panelId), current);
      await saving;
      presented.delete(panelId);
      changes.changed(panelId);
      return answer;
    },

    async forgetCertificate(id) {
      const [panelId] = parseArguments('forgetCertificate', [id]);
      const current = await state();
      const record = find(current, panelId);
      const saving = record.trustedCertificate === null ? undefined : current.registry.update(panelId, { trustedCertificate: null });
      const answer = toPanel(find(current, panelId), current);
      await saving;
      changes.changed(panelId);
      return answer;
    },

    trustedCertificatesFor(hostname) {
      if (!opened) return [];
      const pins: string[] = [];
      for (const record of opened.registry.list()) {
        // Chromium names IPv6 hosts without brackets.
        if (record.trustedCertificate && new URL(record.baseUrl).hostname.replace(/^\[(.*)\]$/, '$1') === hostname)
          pins.push(record.trustedCertificate.sha256);
      }
      return pins;
    },

    async cancelChecks() {
      parseArguments('cancelChecks', []);
      checker.cancel();
      for (const controller of reads) controller.abort();
    },
  };
}

function failIfDuplicate(registry: PanelRegistry, baseUrl: string, display: string): void {
  const existing = registry.findByBaseUrl(baseUrl);
  if (existing) {
    throw new PanelError('DUPLICATE_PANEL', `${display} is already in your list as "${existing.name}".`);
  }
}
