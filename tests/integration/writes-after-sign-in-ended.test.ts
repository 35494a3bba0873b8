import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Core, FetchLike } from '../../electron/core/index.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { tempDir } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, onlyServices, coreWithEvents } from '../support/signed-in-core.ts';

/**
 * Every request of a write, and every log socket's token, is tied to the sign-in it was asked
 * under (issue 30): a log out, a removal, a new address or a new log in while main's confirmation
 * is open (or while the type read before it is slow) sends nothing, to the old address or the new.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const WRITE = /(restart|stop|deploy)(App)?Service|createProject/i;
const writesTo = (panel: ReferencePanel) => panel.requests.filter((request) => WRITE.test(request.path)).length;

type Change = 'logOut' | 'remove' | 'new address' | 'new log in';

async function change(core: Core, id: string, how: Change, addresses: readonly [ReferencePanel, ReferencePanel]): Promise<void> {
  if (how === 'logOut') await core.logOut(id);
  else if (how === 'remove') await core.removePanel(id);
  else if (how === 'new address') {
    // To whichever of the two it is not at now.
    const now = (await core.listPanels()).find((panel) => panel.id === id)?.address;
    const [first, second] = addresses;
    await core.updatePanel(id, { address: now === first.url ? second.url : first.url });
  } else await core.logIn(id, credentials);
}

describe('a write confirmed, then its sign-in ended: nothing is sent', () => {
  for (const style of EASYPANEL_GENERATIONS) {
    for (const how of ['logOut', 'remove', 'new address', 'new log in'] as const) {
      test(`${style}, ${how} while main asks: the service action and the console write are not sent`, async () => {
        const panel = await startReferencePanel({ style });
        const other = await startReferencePanel({ style });
        onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' });
        onlyServices(other, { projectName: 'shop', name: 'web', type: 'app' });
        const dir = await tempDir();
        let id = '';
        let core: Core | null = null;
        const asked: WritePlan[] = [];
        // Main's confirmation is open; meanwhile the sign-in changes; then the operator says yes.
        const confirmWrite = async (plan: WritePlan) => {
          asked.push(plan);
          await change(core!, id, how, [panel, other]);
          return true;
        };
        try {
          core = coreWithEvents(dir.path, { confirmWrite }).core;
          ({ id } = await core.addPanel({ address: panel.url }));
          await core.logIn(id, credentials);
          const refused = (error: { code?: string }) => ['CHANGED_BEFORE_SENDING', 'NOT_SIGNED_IN', 'NOT_FOUND'].includes(error.code ?? '');
          await assert.rejects(core.runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'restart' }), refused);
          if (how !== 'remove') {
            if (how !== 'new log in') await core.logIn(id, credentials).catch(() => undefined);
            const operation = style === 'public' ? 'createProject' : 'projects.createProject';
            await assert.rejects(core.callOperation(id, { operation, input: { name: 'after-the-change' } }), refused);
          }
          assert.equal(writesTo(panel), 0, 'nothing reached the address the write was confirmed for');
          assert.equal(writesTo(other), 0, 'nor the new address');
          assert.ok(asked.length >= 1);
          const { entries } = await core.listActivity();
          assert.ok(
            // Log ins and log outs are in the log too; every other write was not sent.
            entries.every((entry) => entry.outcome === 'not-sent' || ['logOut', 'logIn', 'logInWithApiToken'].includes(entry.what.action)),
            JSON.stringify(entries),
          );
        } finally {
          await panel.close();
          await other.close();
          await dir.cleanup();
        }
      });
    }
  }

  test('a run across panels: a panel removed while main asks gets nothing; the others get their writes', async () => {
    const panels = await Promise.all(EASYPANEL_GENERATIONS.map((style) => startReferencePanel({ style })));
    for (const panel of panels) onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' });
    const dir = await tempDir();
    const ids: string[] = [];
    let core: Core | null = null;
    try {
      core = coreWithEvents(dir.path, {
        confirmWrite: async () => {
          await core!.removePanel(ids[0]!);
          return true;
        },
      }).core;
      for (const panel of panels) {
        const { id } = await core.addPanel({ address: panel.url });
        await core.logIn(id, credentials);
        ids.push(id);
      }
      const results = await core.runServiceActions(
        ids.map((panelId) => ({ panelId, projectName: 'shop', serviceName: 'web' })),
        'restart',
      );
      assert.deepEqual(
        results.map((result) => result.outcome),
        ['failed', 'done', 'done'],
      );
      assert.match(results[0]?.message ?? '', /Not sent: .* was removed from the list after you confirmed/);
      assert.deepEqual(panels.map(writesTo), [0, 1, 1]);
    } finally {
      await Promise.all(panels.map((panel) => panel.close()));
      await dir.cleanup();
    }
  });
});

describe("a log socket's token goes only under the sign-in it was asked with", () => {
  for (const method of ['readServiceLogs', 'followServiceLogs'] as const) {
    test(`${method}: a log out while the type is read opens no socket`, async () => {
      const panel = await startReferencePanel({ style: 'public' });
      onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' });
      const dir = await tempDir();
      let release: () => void = () => undefined;
      let held = false;
      let waiting = false;
      // The service's type read (before the socket) waits until the test lets it go.
      const slowTypeRead: FetchLike = async (url, init) => {
        if (held && url.includes('listProjectsAndServices')) {
          waiting = true;
          await new Promise<void>((resolve) => (release = resolve));
        }
        return fetch(url, init);
      };
      try {
        const { core } = coreWithEvents(dir.path, { fetch: slowTypeRead, timeoutMs: 60_000 });
        const { id } = await core.addPanel({ address: panel.url });
        await core.logIn(id, credentials);
        const token = panel.issuedTokens().at(-1)!;
        held = true;
        const reading = core[method](id, { projectName: 'shop', serviceName: 'web' });
        while (!waiting) await new Promise((resolve) => setImmediate(resolve));
        await core.logOut(id);
        release();
        await reading.then(
          () => undefined,
          () => undefined,
        );
        // A follow's socket is made after the call answered: give it every chance to open.
        await core.flush();
        assert.deepEqual(
          panel.logs.askedWithTokens().filter((asked) => asked === token),
          [],
        );
      } finally {
        await panel.close();
        await dir.cleanup();
      }
    });
  }
});
