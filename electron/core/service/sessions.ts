import { parseArguments } from '../../../shared/contract.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { PanelChecker } from '../background/panel-checker.ts';
import type { ServiceContext, ServiceMethods } from './service-context.ts';
import { find } from './session-reader.ts';

/** Reading sessions: one panel's on request, many in a bounded check, and stopping both. */
export function sessionMethods(
  context: ServiceContext,
): ServiceMethods<'getSession' | 'getCachedSession' | 'checkPanels' | 'cancelChecks'> {
  const { state, opened, reader, cache } = context;
  /** Reads started by getSession, so that cancelChecks stops them too. */
  const reads = new Set<AbortController>();
  const checker = new PanelChecker({
    concurrency: () => opened()?.settings.get().checkConcurrency ?? DEFAULT_SETTINGS.checkConcurrency,
    checkOne: async (panelId, signal) => reader.check(await state(), panelId, signal),
    onProgress: (done, total) => context.emit({ type: 'checkProgress', done, total }),
    now: context.now,
  });

  return {
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

    async cancelChecks() {
      parseArguments('cancelChecks', []);
      checker.cancel();
      for (const controller of reads) controller.abort();
    },
  };
}
