import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { PanelChecker } from '../schedule/panel-checker.ts';
import type { PanelCheck } from '../../../shared/types.ts';
import type { CoreMethods, Emit, OpenedFolder } from '../context/core-context.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import type { SessionCache } from '../sign-in/session-cache.ts';
import { find, type SessionReader } from '../sign-in/session-reader.ts';
import type { AlertCenter } from './alerts.ts';
import type { FleetStateReader } from './fleet-state.ts';
import type { PanelActionsReader } from './panel-actions.ts';

/** Where the results of each `checkPanels` call are told (`Core.onPanelsChecked`). */
export interface ChecksDone {
  done(checks: readonly PanelCheck[]): void;
}

/**
 * What reading sessions uses: the folder, the session reader and its cache, the state read beside
 * each check, the alerts judged after it, where the results of a check of many panels are told.
 */
export interface SessionReadParts extends OpenedFolder {
  now(): Date;
  emit: Emit;
  reader: Pick<SessionReader, 'read' | 'check'>;
  cache: Pick<SessionCache, 'get'>;
  fleet: Pick<FleetStateReader, 'read' | 'takeDown' | 'health'>;
  /** The panel's actions history, read after its state in the same slot when due (`panel-actions.ts`). */
  actions: Pick<PanelActionsReader, 'read'>;
  alerts: Pick<AlertCenter, 'checked'>;
  checksDone: ChecksDone;
}

/** Reading sessions: one panel's on request, many in a bounded check (with each panel's state), and stopping either. */
export function sessionMethods(
  parts: SessionReadParts,
): CoreMethods<'getSession' | 'getCachedSession' | 'checkPanels' | 'cancelChecks' | 'cancelSessionRead' | 'getFleetState'> {
  const { state, opened, now, emit, reader, cache, fleet, actions, alerts, checksDone } = parts;
  /** Reads started by getSession, by panel: cancelSessionRead stops one panel's, cancelChecks all. */
  const reads = new Map<string, Set<AbortController>>();
  const checker = new PanelChecker({
    concurrency: () => opened()?.settings.get().checkConcurrency ?? DEFAULT_SETTINGS.checkConcurrency,
    runOne: async (panelId, signal) => {
      const current = await state();
      const before = current.registry.get(panelId);
      // Taken before the check, which may end the sign-in: the alerts keep it out of their text.
      const checkedWith = before && current.vault.token(panelId, before.baseUrl);
      const outcome = await checkWithState(current, panelId, signal);
      alerts.checked(current, outcome, fleet.takeDown(panelId), checkedWith);
      return outcome;
    },
    onProgress: (done, total) => emit({ type: 'checkProgress', done, total }),
    now,
  });

  /** The session read, then the panel's state in the same slot of the pass: its requests never add to the bound. */
  async function checkWithState(current: DataFolder, panelId: string, signal: AbortSignal): Promise<PanelCheck> {
    const check = await reader.check(current, panelId, signal);
    const record = check.ok ? current.registry.get(panelId) : undefined;
    const token = record && current.vault.token(panelId, record.baseUrl);
    if (!record || !token) return check;
    const refused = await fleet.read(current, record, token, signal);
    if (!refused) await actions.read(current, record, token, signal);
    return refused ? { panelId, checkedAt: now().toISOString(), ok: false, error: refused } : check;
  }

  return {
    async getSession(panelId) {
      const current = await state();
      const controller = new AbortController();
      const panelReads = reads.get(panelId) ?? new Set();
      reads.set(panelId, panelReads.add(controller));
      try {
        return await reader.read(current, panelId, controller.signal);
      } finally {
        panelReads.delete(controller);
        if (panelReads.size === 0 && reads.get(panelId) === panelReads) reads.delete(panelId);
      }
    },

    async getCachedSession(panelId) {
      const current = await state();
      const record = find(current, panelId);
      // Only while the sign-in that read it lasts: the cache is emptied when it ends.
      return current.vault.token(panelId, record.baseUrl) ? cache.get(panelId) : null;
    },

    async checkPanels(requested) {
      const current = await state();
      const targets =
        requested ??
        current.registry
          .list()
          .filter((record) => current.vault.token(record.id, record.baseUrl))
          .map((record) => record.id);
      // An unknown id answers NOT_FOUND in its own result rather than failing the whole call.
      const checks = await checker.run(targets);
      checksDone.done(checks);
      return checks;
    },

    async cancelChecks() {
      checker.cancel();
      for (const panelReads of reads.values()) for (const controller of panelReads) controller.abort();
    },

    async getFleetState() {
      const current = await state();
      return current.registry.list().flatMap((record) => fleet.health(current, record.id) ?? []);
    },

    async cancelSessionRead(panelId) {
      // The panel's own reads only: a check of many panels under way (Check all) goes on.
      for (const controller of reads.get(panelId) ?? []) controller.abort();
    },
  };
}
