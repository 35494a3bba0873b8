import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  call,
  dataOf,
  errorOf,
  operate,
  GENERATION_ROUTES,
  type Generation,
  logInVia,
  withReferencePanel,
} from '../support/reference-panel/raw-client.ts';
import { waitUntil } from '../support/helpers.ts';
import type { ReferencePanel, Transport } from '../support/reference-panel/server.ts';

/**
 * The reference panel's writes to services on the wire, with raw fetch, pinned to docs/easypanel-api.md
 * ("What Paneldeck sends with a token, by feature"): each generation's names (`services.app.stopService`,
 * `services/app/stopService`, `POST stopAppService`), the task stats that follow, a deploy that
 * holds its answer for its time and writes a build log into an action record, a deploy made to
 * fail, an answer lost after the write was done, and the actions read back.
 */

const shop = { projectName: 'shop', serviceName: 'web' };

async function setUp(panel: ReferencePanel, via: Transport): Promise<string> {
  panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  panel.services.addService({ projectName: 'shop', name: 'db', type: 'postgres' });
  return logInVia(panel, via);
}

async function taskStats(panel: ReferencePanel, via: Transport, token: string) {
  // 2.31+ refuse tRPC reads: the task stats are read by RPC there.
  const readVia = via === 'trpc' && panel.style !== 'trpc' ? 'rpc' : via;
  return dataOf(readVia, (await operate(panel, readVia, 'getDockerTaskStats', undefined, token)).body) as Record<string, unknown>;
}

describe('writes to services in each generation', () => {
  for (const [style, via] of Object.entries(GENERATION_ROUTES) as [Generation, Transport][]) {
    test(`${style}: stop, start, restart an app; disable and enable a database; the task stats follow`, () =>
      withReferencePanel({ style }, async (panel) => {
        const token = await setUp(panel, via);
        const write = async (route: Parameters<typeof operate>[2], input: unknown) => {
          const answer = await operate(panel, via, route, input, token);
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          return dataOf(via, answer.body);
        };
        await write('stopAppService', shop);
        assert.deepEqual((await taskStats(panel, via, token)).shop_web, { actual: 0, desired: 0 });
        await write('startAppService', shop);
        assert.deepEqual((await taskStats(panel, via, token)).shop_web, { actual: 1, desired: 1 });
        await write('restartAppService', shop);
        await write('disablePostgresService', { projectName: 'shop', serviceName: 'db' });
        assert.equal(panel.services.service('shop', 'db')?.enabled, false);
        assert.deepEqual((await taskStats(panel, via, token)).shop_db, { actual: 0, desired: 0 });
        await write('enablePostgresService', { projectName: 'shop', serviceName: 'db' });
        assert.deepEqual((await taskStats(panel, via, token)).shop_db, { actual: 1, desired: 1 });
        assert.deepEqual(
          panel.serviceActions.actions().map((action) => `${action.type} ${action.serviceName} ${action.status}`),
          ['enable db done', 'disable db done', 'restart web done', 'start web done', 'stop web done'],
        );
        // A write by the wrong type's route, or to no such service: NOT_FOUND in the generation's envelope.
        const wrongType = await operate(panel, via, 'stopAppService', { projectName: 'shop', serviceName: 'db' }, token);
        assert.equal(wrongType.status, 404);
        assert.equal(errorOf(via, wrongType.body).code, 'NOT_FOUND');
        const unsigned = await operate(panel, via, 'stopAppService', shop);
        assert.equal(unsigned.status, 401);
      }));

    test(`${style}: a deploy holds its answer for its time, writes a build log, and can be made to fail`, () =>
      withReferencePanel({ style }, async (panel) => {
        const token = await setUp(panel, via);
        panel.serviceActions.setDeployTime(400);
        const answer = await operate(panel, via, 'deployAppService', shop, token);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const [build] = panel.serviceActions.actions();
        assert.equal(build?.type, 'build');
        assert.equal(build?.status, 'done');
        assert.match(build?.log ?? '', /RUN npm ci\n[\s\S]*Rolling out/);

        panel.serviceActions.failDeploys('shop', 'web', { message: 'npm ERR! missing script: build' });
        const failed = await operate(panel, via, 'deployAppService', shop, token);
        assert.equal(failed.status, 500);
        assert.equal(errorOf(via, failed.body).message, 'npm ERR! missing script: build');
        assert.equal(panel.serviceActions.actions()[0]?.status, 'error');
        assert.match(panel.serviceActions.actions()[0]?.log ?? '', /ERROR: npm ERR! missing script: build\n$/);
      }));

    test(`${style}: a lost answer: the write is carried out and the connection closes without a byte`, () =>
      withReferencePanel({ style }, async (panel) => {
        const token = await setUp(panel, via);
        panel.serviceActions.loseNextAnswer('stopAppService');
        await assert.rejects(operate(panel, via, 'stopAppService', shop, token));
        assert.deepEqual(panel.services.service('shop', 'web')?.replicas, { actual: 0, desired: 0 });
        // Used up: the next one answers.
        assert.equal((await operate(panel, via, 'startAppService', shop, token)).status, 200);
      }));
  }
});

describe('the actions history', () => {
  test('listActions (newest first, 8 by default, filtered) and getAction with its log, by RPC and by 2.33 GETs', () =>
    withReferencePanel({ style: 'public' }, async (panel) => {
      const token = await setUp(panel, 'public');
      panel.serviceActions.setDeployTime(10);
      for (let n = 0; n < 5; n++) await operate(panel, 'public', 'restartAppService', shop, token);
      await operate(panel, 'public', 'deployAppService', shop, token);
      const listed = dataOf('rpc', (await operate(panel, 'rpc', 'listActions', { serviceName: 'web', limit: 3 }, token)).body);
      assert.ok(Array.isArray(listed));
      assert.equal(listed.length, 3);
      const [newest] = listed as { id: string; type: string; log?: string }[];
      assert.equal(newest?.type, 'build');
      assert.equal(newest?.log, undefined, 'the list carries no logs');
      const one = await call(panel, 'GET', `/api/getAction?id=${newest?.id}`, { token });
      assert.equal(one.status, 200);
      assert.match((one.body as { log: string }).log, /exporting to image/);
      // 2.33 validates query parameters without coercion: a limit by GET is a string, refused.
      assert.equal((await call(panel, 'GET', '/api/listActions?limit=3', { token })).status, 400);
      assert.equal(((await call(panel, 'GET', '/api/listActions', { token })).body as unknown[]).length, 6);
    }));

  test('a deploy whose answer is lost goes on to its end', () =>
    withReferencePanel({ style: 'rpc' }, async (panel) => {
      const token = await setUp(panel, 'rpc');
      panel.services.setReplicas('shop', 'web', { actual: 0, desired: 0 });
      panel.serviceActions.setDeployTime(200);
      panel.serviceActions.loseNextAnswer('*');
      await assert.rejects(operate(panel, 'rpc', 'deployAppService', shop, token));
      assert.equal(panel.serviceActions.actions()[0]?.status, 'running');
      // Waits for the deploy's end, not a fixed time (fresh-clone run 8: 350 ms did not do on a loaded machine).
      await waitUntil(() => panel.serviceActions.actions()[0]?.status === 'done', 30_000);
      assert.equal(panel.serviceActions.actions()[0]?.status, 'done');
      assert.deepEqual(panel.services.service('shop', 'web')?.replicas, { actual: 1, desired: 1 });
    }));
});
