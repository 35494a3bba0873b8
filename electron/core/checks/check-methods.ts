import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { PanelChecker } from '../schedule/panel-checker.ts';
import type { PanelCheck } from '../../../shared/types.ts';
import type { CoreContext, CoreMethods } from '../context/core-context.ts';
import type { DataFolder } from '../storage/data-folder.ts';
import { find } from '../sign-in/session-reader.ts';

/** Reading sessions: one panel's on request, many in a bounded check (with each panel's state), and stopping either. */
export function sessionMethods(
  context: CoreContext,
): CoreMethods<'getSession' | 'getCachedSession' | 'checkPanels' | 'cancelChecks' | 'cancelSessionRead' | 'getFleetState'> {
  const { state, opened, reader, cache, fleet } = context;
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
      context.alerts.checked(current, outcome, fleet.takeDown(panelId), checkedWith);
      return outcome;
    },
    onProgress: (done, total) => context.emit({ type: 'checkProgress', done, total }),
    now: context.now,
  });

  /** The session read, then the panel's state in the same slot of the pass: its requests never add to the bound. */
  async function checkWithState(current: DataFolder, panelId: string, signal: AbortSignal): Promise<PanelCheck> {
    const check = await reader.check(current, panelId, signal);
    const record = check.ok ? current.registry.get(panelId) : undefined;
    const token = record && current.vault.token(panelId, record.baseUrl);
    if (!record || !token) return check;
    const refused = await fleet.read(current, record, token, signal);
    return refused ? { panelId, checkedAt: context.now().toISOString(), ok: false, error: refused } : check;
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
      return checker.run(targets);
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
