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
import { type ReferencePanel, SERVICE_TYPES, type Transport } from '../support/reference-panel/server.ts';

/**
 * The reference panel's projects, services, task stats and server load on the wire, with raw
 * fetch, pinned to docs/easypanel-api.md ("What Paneldeck sends with a token, by feature"): each generation's names for
 * them, the versions that have each name, the answers' shapes (memory and disk as strings), and
 * the state a test sets showing in the next read.
 */

async function read(panel: ReferencePanel, via: Transport, route: 'listProjectsAndServices' | 'getDockerTaskStats', token: string) {
  const answer = await operate(panel, via, route, undefined, token);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return dataOf(via, answer.body);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('projects, services and task stats in each generation', () => {
  for (const [style, via] of Object.entries(GENERATION_ROUTES) as [Generation, Transport][]) {
    test(`${style} (${via}): list and task stats follow the state`, async () => {
      await withReferencePanel({ style, demoProjects: 5 }, async (panel) => {
        const token = await logInVia(panel, via);
        const listed = (await read(panel, via, 'listProjectsAndServices', token)) as {
          projects: { name: string; createdAt: string }[];
          services: { projectName: string; name: string; type: string; enabled: boolean; createdAt: string }[];
        };
        assert.deepEqual(
          listed.projects.map((project) => project.name),
          ['shop', 'blog', 'crm', 'wiki', 'analytics'],
        );
        assert.match(listed.projects[0]?.createdAt ?? '', ISO);
        assert.equal(listed.services.length, 20);
        assert.deepEqual(new Set(listed.services.map((service) => service.type)), new Set(SERVICE_TYPES));
        assert.deepEqual(Object.keys(listed.services[0] ?? {}).sort(), ['createdAt', 'enabled', 'name', 'projectName', 'type']);

        const stats = (await read(panel, via, 'getDockerTaskStats', token)) as Record<string, { actual: number; desired: number }>;
        assert.deepEqual(stats.shop_web, { actual: 1, desired: 1 });
        assert.deepEqual(stats.shop_mysql, { actual: 0, desired: 1 }, 'the demo has a service down');
        assert.deepEqual(stats.blog_mongo, { actual: 0, desired: 0 }, 'and one stopped');
        assert.equal(Object.keys(stats).length, 20);

        panel.services.crashService('shop', 'web');
        panel.services.setEnabled('wiki', 'mysql', false);
        panel.services.addService({ projectName: 'new-project', name: 'api_v2', type: 'app', replicas: null });
        const after = (await read(panel, via, 'getDockerTaskStats', token)) as Record<string, unknown>;
        assert.deepEqual(after.shop_web, { actual: 0, desired: 1 });
        assert.equal('new-project_api_v2' in after, false, 'a service without task stats has no key');
        const relisted = (await read(panel, via, 'listProjectsAndServices', token)) as typeof listed;
        const enabledOf = (projectName: string, name: string) =>
          relisted.services.find((service) => service.projectName === projectName && service.name === name)?.enabled;
        assert.deepEqual([enabledOf('wiki', 'mysql'), enabledOf('wiki', 'mariadb')], [false, true]);
        assert.deepEqual(relisted.projects.at(-1)?.name, 'new-project');
      });
    });
  }

  test('without a token every read is UNAUTHORIZED, in the generation’s envelope', async () => {
    for (const [style, via] of Object.entries(GENERATION_ROUTES) as [Generation, Transport][]) {
      await withReferencePanel({ style }, async (panel) => {
        const answer = await operate(panel, via, 'getDockerTaskStats');
        assert.equal(answer.status, 401, style);
        assert.equal(errorOf(via, answer.body).code, 'UNAUTHORIZED', style);
      });
    }
  });

  test('2.31+: tRPC reads of services are refused with 405, as every tRPC GET is', async () => {
    await withReferencePanel({ style: 'rpc', demoProjects: 1 }, async (panel) => {
      const token = await logInVia(panel, 'rpc');
      const answer = await operate(panel, 'trpc', 'listProjectsAndServices', undefined, token);
      assert.equal(answer.status, 405);
    });
  });

  test('a raw answer replaces the state’s, inside the envelope; undefined restores it', async () => {
    await withReferencePanel({ style: 'rpc', demoProjects: 1 }, async (panel) => {
      const token = await logInVia(panel, 'rpc');
      panel.services.setRawAnswer('getDockerTaskStats', { 'a\u0007b_c': { actual: '1', desired: null } });
      assert.deepEqual(await read(panel, 'rpc', 'getDockerTaskStats', token), { 'a\u0007b_c': { actual: '1', desired: null } });
      panel.services.setRawAnswer('getDockerTaskStats', undefined);
      assert.deepEqual(Object.keys((await read(panel, 'rpc', 'getDockerTaskStats', token)) as object).length, 4);
    });
  });

  test('names Easypanel would refuse are refused by the test-facing setters, loudly', async () => {
    await withReferencePanel({ style: 'public' }, async (panel) => {
      assert.throws(() => panel.services.addService({ projectName: 'Shop', name: 'web', type: 'app' }), /does not match/);
      assert.throws(() => panel.services.crashService('nope', 'web'), /no service nope\/web/);
    });
  });
});

/** The names of the server's load, each with the versions docs/easypanel-api.md gives for it. */
const STATS_NAMES: { style: Generation; version: string; via: Transport; name: string; answered: boolean }[] = [
  { style: 'trpc', version: '2.28.1', via: 'trpc', name: 'monitor.getSystemStats', answered: true },
  { style: 'trpc', version: '2.28.1', via: 'trpc', name: 'monitorOld.getSystemStats', answered: false },
  { style: 'trpc', version: '2.28.1', via: 'trpc', name: 'metrics.getSystemStats', answered: false },
  { style: 'trpc', version: '2.30.0', via: 'trpc', name: 'monitor.getSystemStats', answered: true },
  { style: 'trpc', version: '2.30.0', via: 'trpc', name: 'monitorOld.getSystemStats', answered: true },
  { style: 'trpc', version: '2.30.0', via: 'trpc', name: 'monitorOld.getDockerTaskStats', answered: true },
  { style: 'rpc', version: '2.32.2', via: 'rpc', name: 'monitor/getSystemStats', answered: false },
  { style: 'rpc', version: '2.32.2', via: 'rpc', name: 'monitorOld/getSystemStats', answered: true },
  { style: 'rpc', version: '2.31.0', via: 'rpc', name: 'metrics/getSystemStats', answered: true },
  { style: 'rpc', version: '2.32.2', via: 'rpc', name: 'monitorOld/getDockerTaskStats', answered: true },
  { style: 'public', version: '2.33.4', via: 'public', name: 'getLegacyMonitorSystemStats', answered: true },
  { style: 'public', version: '2.33.4', via: 'public', name: 'getMetricsSystemStats', answered: true },
  { style: 'public', version: '2.33.4', via: 'rpc', name: 'metrics/getSystemStats', answered: true },
  { style: 'public', version: '2.33.4', via: 'rpc', name: 'monitorOld/getSystemStats', answered: false },
];

/** A read by its name on the route, as that route's clients send it (also names no entry has). */
function readNamed(panel: ReferencePanel, via: Transport, name: string, token: string) {
  const path = { trpc: `/api/trpc/${name}?input=${encodeURIComponent('{"json":null}')}`, rpc: `/api/rpc/${name}`, public: `/api/${name}` }[
    via
  ];
  return call(panel, via === 'rpc' ? 'POST' : 'GET', path, { token, ...(via === 'rpc' ? { json: { json: null } } : {}) });
}

describe('the server load', () => {
  for (const { style, version, via, name, answered } of STATS_NAMES) {
    test(`${style} ${version}: ${name} ${answered ? 'answers' : 'is not found'}`, async () => {
      await withReferencePanel({ style, version }, async (panel) => {
        const token = await logInVia(panel, via === 'trpc' || style === 'trpc' ? 'trpc' : 'rpc');
        const answer = await readNamed(panel, via, name, token);
        assert.equal(answer.status, answered ? 200 : 404, JSON.stringify(answer.body));
      });
    });
  }

  test('the answer: uptime and CPU as numbers, memory and disk as strings; setSystemLoad changes it', async () => {
    await withReferencePanel({ style: 'public' }, async (panel) => {
      const token = await logInVia(panel, 'public');
      panel.services.setSystemLoad({ memory: { usedMb: 1000, totalMb: 4000 }, disk: { usedGb: 95.5, totalGb: 100 }, cpuPercent: 87.25 });
      const answer = await call(panel, 'GET', '/api/getMetricsSystemStats', { token });
      assert.deepEqual(answer.body, {
        uptime: 1_221_900,
        memInfo: { totalMemMb: '4000.00', usedMemMb: '1000.00', usedMemPercentage: '25.00' },
        diskInfo: { totalGb: '100.00', usedGb: '95.50', usedPercentage: '95.50' },
        cpuInfo: { usedPercentage: 87.25, count: 4, loadavg: [0.52, 0.41, 0.38] },
        network: { inputMb: 1234.5, outputMb: 987.6 },
      });
      assert.deepEqual((await call(panel, 'GET', '/api/getLegacyMonitorSystemStats', { token })).body, answer.body);
    });
  });

  test('withoutOperations: a name left out is not found, the others still answer (for fallbacks)', async () => {
    await withReferencePanel({ style: 'rpc', withoutOperations: ['metrics/getSystemStats'] }, async (panel) => {
      const token = await logInVia(panel, 'rpc');
      assert.equal((await call(panel, 'POST', '/api/rpc/metrics/getSystemStats', { token, json: { json: null } })).status, 404);
      assert.equal((await call(panel, 'POST', '/api/rpc/monitorOld/getSystemStats', { token, json: { json: null } })).status, 200);
    });
  });
});
