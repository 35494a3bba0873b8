import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { FetchLike, Core } from '../../electron/core/index.ts';
import { SERVICE_ACTIONS_AT_ONCE, SERVICE_ACTIONS_PER_PANEL } from '../../electron/core/services/all-services.ts';
import type { ServiceActionItem, ServiceActionItemResult } from '../../shared/fleet-services.ts';
import { tempDir } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel } from '../support/reference-panel/server.ts';
import { closeAll, EASYPANEL_GENERATIONS, onlyServices, coreWithEvents, startGenerations } from '../support/signed-in-core.ts';

/**
 * `runServiceActions` racing Cancel and the removal or log out of a panel, against the real
 * service and reference panels of the three generations. fast-check's scheduler decides when each
 * request the service makes leaves for its panel, and after how many of them Cancel and the
 * removal come. Whatever the order: each service is sent its write at most once; nothing starts
 * after Cancel (no more writes arrive than were in flight, within the bound); an item answered
 * cancelled, or failed before it was sent, reached no panel and is not in the activity log; each
 * write that reached a panel is in the log once; results come one per item, in the order asked.
 */

const APPS = ['web', 'api', 'worker'] as const;
const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

let panels: Map<string, ReferencePanel>;
before(async () => {
  panels = await startGenerations();
});
after(() => closeAll(panels));

/** The restart writes a panel saw, by service name. */
function restartsAt(panel: ReferencePanel): Map<string, number> {
  const seen = new Map<string, number>();
  for (const request of panel.requests) {
    if (!/restart(App)?Service$/i.test(request.path)) continue;
    // tRPC and the RPC layer wrap the input in `json`; 2.33 sends it as it is.
    const body = JSON.parse(request.body || '{}') as { serviceName?: string; json?: { serviceName?: string } };
    const name = (body.json ?? body).serviceName ?? '?';
    seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  return seen;
}

/** The restart writes each panel saw, in all. */
const restartCounts = (members: readonly ReferencePanel[]) =>
  members.map((panel) => [...restartsAt(panel).values()].reduce((a, b) => a + b, 0));

test('actions across panels racing Cancel and a removal or log out: once each, nothing after Cancel, recorded as sent', async () => {
  const styles = [...EASYPANEL_GENERATIONS];
  const allItems = styles.flatMap((style) => APPS.map((app) => ({ style, app })));
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.shuffledSubarray(allItems, { minLength: 1 }),
      fc.option(fc.nat(20), { nil: null }),
      fc.option(fc.record({ at: fc.nat(20), style: fc.constantFrom(...styles), how: fc.constantFrom('remove', 'logOut') }), { nil: null }),
      async (s, chosen, cancelAt, ending) => {
        const dir = await tempDir();
        let gated = false;
        const fetchThroughScheduler: FetchLike = (url, init) =>
          gated ? s.schedule(Promise.resolve(), new URL(url).pathname).then(() => fetch(url, init)) : fetch(url, init);
        const { core } = coreWithEvents(dir.path, { fetch: fetchThroughScheduler });
        try {
          const ids = new Map<string, string>();
          for (const style of styles) {
            const panel = panels.get(style)!;
            onlyServices(panel, ...APPS.map((name) => ({ projectName: 'shop', name, type: 'app' as const })));
            const { id } = await core.addPanel({ address: panel.url, name: style });
            await core.logIn(id, credentials);
            ids.set(style, id);
            panel.requests.splice(0);
          }
          const items: ServiceActionItem[] = chosen.map(({ style, app }) => ({
            panelId: ids.get(style)!,
            projectName: 'shop',
            serviceName: app,
          }));
          gated = true;
          const run = core.runServiceActions(items, 'restart');
          let results: ServiceActionItemResult[] | null = null;
          let failure: unknown = null;
          run.then(
            (value) => (results = value),
            (error: unknown) => (failure = error),
          );
          const members = styles.map((style) => panels.get(style)!);
          let writesAtCancel: number[] | null = null;
          for (let step = 0; results === null && failure === null; step++) {
            if (step === cancelAt) {
              await core.cancelServiceActions();
              writesAtCancel = restartCounts(members);
            }
            if (ending && step === ending.at) await endSignIn(core, ids.get(ending.style)!, ending.how);
            if (s.count() > 0) await s.waitOne();
            else await new Promise((resolve) => setImmediate(resolve));
          }
          assert.equal(failure, null);
          const answered = results as unknown as ServiceActionItemResult[];
          assert.deepEqual(
            answered.map(({ panelId, serviceName }) => `${panelId}/${serviceName}`),
            items.map(({ panelId, serviceName }) => `${panelId}/${serviceName}`),
          );
          await checkOutcomes(core, styles, ids, answered);
          if (writesAtCancel !== null) {
            // Only items already started when Cancel came may still reach their panels: at most the bound's worth.
            const atCancel = writesAtCancel;
            const afterCancel = restartCounts(members).map((count, index) => count - atCancel[index]!);
            assert.ok(
              afterCancel.every((count) => count <= SERVICE_ACTIONS_PER_PANEL),
              `after Cancel: ${afterCancel}`,
            );
            assert.ok(afterCancel.reduce((a, b) => a + b, 0) <= SERVICE_ACTIONS_AT_ONCE);
          }
        } finally {
          gated = false;
          // What is still scheduled (a log out at a removed panel) goes out, so that nothing waits on this run.
          while (s.count() > 0) await s.waitOne();
          await dir.cleanup();
        }
      },
    ),
    { numRuns: 40 },
  );
});

async function endSignIn(core: Core, id: string, how: 'remove' | 'logOut'): Promise<void> {
  // The log out at the panel goes through the scheduler too: not waited for here, or the loop would stop.
  if (how === 'remove') await core.removePanel(id);
  else void core.logOut(id).catch(() => undefined);
}

/** Each item's outcome against what its panel saw and what the activity log holds. */
async function checkOutcomes(
  core: Core,
  styles: readonly string[],
  ids: ReadonlyMap<string, string>,
  answered: readonly ServiceActionItemResult[],
): Promise<void> {
  const logged = (await core.listActivity()).entries.filter((entry) => entry.what.action === 'restart');
  for (const style of styles) {
    const panel = panels.get(style)!;
    const id = ids.get(style)!;
    const seen = restartsAt(panel);
    for (const [name, count] of seen) assert.equal(count, 1, `${style} ${name} was sent ${count} times`);
    const sentHere = logged.filter((entry) => entry.panelId === id);
    // A removed panel's entries stay in the log: the log is of what was sent.
    assert.equal(sentHere.length, [...seen.values()].length, `${style}: one entry per write that reached it`);
    for (const result of answered.filter((one) => one.panelId === id)) {
      const reached = seen.has(result.serviceName);
      const unsent = /^(You are not signed in|This panel is no longer|Not sent)/.test(result.message ?? '');
      if (result.outcome === 'cancelled' || (result.outcome === 'failed' && unsent))
        assert.equal(reached, false, `${style} ${result.serviceName}: ${result.outcome} yet sent`);
      if (result.outcome === 'done') assert.equal(reached, true, `${style} ${result.serviceName}: done, never sent`);
    }
    assert.ok(seen.size <= APPS.length);
  }
}
