import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { confirmations } from '../support/confirmations.ts';
import { registeredIpc } from '../support/fake-ipc.ts';
import { tempDir, writesOnly } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, onlyServices, coreWithEvents } from '../support/signed-in-core.ts';

/**
 * The window's code is not trusted (it renders what panels chose): every write method called over
 * the real registrar, as the app's own window, reaches no panel unless main's own confirmation
 * said yes to exactly that plan. Each method, each generation.
 */

/** The requests that change a panel: every POST but a log in, a session or a read of the RPC layer. */
function writesAt(panel: ReferencePanel, from = 0): string[] {
  const reads =
    /\/(login|getSession|getStatus|listProjectsAndServices|getDockerTaskStats|openapi\.json|getUpdateStatus)$|auth[./]login|auth[./]getSession/;
  return panel.requests
    .slice(from)
    .filter((request) => request.method === 'POST' && !reads.test(request.path))
    .map((request) => `${request.method} ${request.path}`);
}

/** A write of the panel's own catalogue, by generation: the console's write every generation lists. */
const CREATE_PROJECT = { trpc: 'projects.createProject', rpc: 'projects.createProject', public: 'createProject' } as const;

interface Setup {
  panel: ReferencePanel;
  core: Core;
  call(method: string, ...args: unknown[]): Promise<unknown>;
  id: string;
  plans: WritePlan[];
  cleanup(): Promise<void>;
}

async function setUp(style: (typeof EASYPANEL_GENERATIONS)[number], answer: boolean | null): Promise<Setup> {
  const panel = await startReferencePanel({ style });
  onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' });
  const dir = await tempDir();
  const confirming = confirmations(answer ?? true);
  // null: a core with no confirmation at all (as a core built without one would be).
  const { core } = coreWithEvents(dir.path, answer === null ? { confirmWrite: undefined } : { confirmWrite: confirming.confirmWrite });
  const ipc = registeredIpc({ core });
  const call = async (method: string, ...args: unknown[]) => {
    const answer = (await ipc.call(`panelApi:${method}`, ...args)) as { ok: boolean; value?: unknown; error?: { code: string } };
    if (!answer.ok) throw Object.assign(new Error(answer.error?.code), answer.error);
    return answer.value;
  };
  const { id } = (await call('addPanel', { address: panel.url })) as { id: string };
  await call('logIn', id, { email: DEMO_USER.email, password: DEMO_USER.password });
  await call('getOperations', id);
  panel.requests.splice(0);
  return {
    panel,
    core,
    call,
    id,
    plans: confirming.plans,
    cleanup: async () => {
      await panel.close();
      await dir.cleanup();
    },
  };
}

const refusedUnconfirmed = (error: { code?: string }) => error.code === 'NOT_CONFIRMED';

describe('no write reaches a panel without a yes in main', () => {
  for (const style of EASYPANEL_GENERATIONS) {
    for (const answer of [null, false] as const) {
      test(`${style}, ${answer === null ? 'no confirmation to ask' : 'the operator says no'}: every write method sends nothing`, async () => {
        const { panel, call, id, plans, core, cleanup } = await setUp(style, answer);
        try {
          const web = { projectName: 'shop', serviceName: 'web' };
          await assert.rejects(call('runServiceAction', id, { ...web, action: 'restart' }), refusedUnconfirmed);
          await assert.rejects(call('runServiceAction', id, { ...web, action: 'stop' }), refusedUnconfirmed);
          await assert.rejects(call('runServiceActions', [{ panelId: id, ...web }], 'deploy'), refusedUnconfirmed);
          const create = { operation: CREATE_PROJECT[style], input: { name: 'made-by-a-script' } };
          await assert.rejects(call('callOperation', id, create), refusedUnconfirmed);
          // The window says it is a read: main knows better, and refuses.
          await assert.rejects(call('callOperation', id, { ...create, shownAs: 'read' }), (error: { code?: string }) => {
            assert.equal(error.code, 'CHANGED_BEFORE_SENDING');
            return true;
          });
          await assert.rejects(call('callOperationOnPanels', [id], create, { field: null, allowWrite: true }), refusedUnconfirmed);
          const readsOnly = (await call('callOperationOnPanels', [id], create, { field: null })) as { outcome: string }[];
          assert.deepEqual(
            readsOnly.map((one) => one.outcome),
            ['failed'],
          );
          assert.deepEqual(writesAt(panel), [], 'no write reached the panel');
          assert.equal(panel.services.service('shop', 'web')?.enabled, true);
          assert.deepEqual(writesOnly((await core.listActivity()).entries), [], 'nothing was sent, so nothing is in the activity log');
          assert.equal(plans.length, answer === null ? 0 : 5, 'with a confirmation, each write asked once');
        } finally {
          await cleanup();
        }
      });
    }

    test(`${style}: a yes sends exactly what the plan said, once`, async () => {
      const { panel, call, id, plans, cleanup } = await setUp(style, true);
      try {
        await call('runServiceAction', id, { projectName: 'shop', serviceName: 'web', action: 'restart' });
        await call('callOperation', id, { operation: CREATE_PROJECT[style], input: { name: 'made-here' } });
        const planned = plans.flatMap((plan) => plan.panels.flatMap((one) => one.requests.map((request) => request.request)));
        assert.deepEqual(writesAt(panel), planned);
        assert.equal(plans[0]?.panels[0]?.panelId, id);
        assert.match(plans[0]?.title ?? '', /^Restart shop\/web on /);
      } finally {
        await cleanup();
      }
    });
  }
});
