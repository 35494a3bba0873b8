import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callRequest, callPanel, REQUESTS, type PanelRequest } from '../../electron/core/easypanel/panel-calls.ts';
import { createNodeFetch } from '../../electron/core/net/node-fetch.ts';
import { type PanelEndpoint, requestLogIn } from '../../electron/core/easypanel/panel-endpoints.ts';
import { GENERATION_PATHS } from '../../shared/generations.ts';
import type { Generation } from '../../shared/types.ts';
import { rejectsWith, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, type ReferencePanelOptions, startReferencePanel } from '../support/reference-panel/server.ts';

/**
 * The request table's reads against each generation of the reference panel (with the names the
 * server load moved through), and the caller's rules: a read is sent at most twice (after a lost
 * connection or a 5xx, never after a 4xx), a write exactly once, each within its own deadline.
 */

const settings = { fetch: createNodeFetch(), timeoutMs: 5000, maxResponseBytes: 1024 * 1024 };
const STYLES = { trpc: 'trpc', rpc: 'rpc', public: 'public' } as const satisfies Record<string, Generation>;

function endpoint(panel: ReferencePanel, generation: Generation): PanelEndpoint {
  const { login: loginPath, session: sessionPath } = GENERATION_PATHS[generation];
  return { baseUrl: panel.baseUrl, generation, loginPath, sessionPath, tokenField: null, trustedCertificate: null };
}

/** Runs `run` with a signed-in panel of the generation, then closes it. */
async function withSignedIn(
  generation: Generation,
  options: ReferencePanelOptions,
  run: (panel: ReferencePanel, at: PanelEndpoint, token: string) => Promise<void>,
): Promise<void> {
  const panel = await startReferencePanel({ style: generation, ...options });
  try {
    const at = endpoint(panel, STYLES[generation]);
    await run(panel, at, await requestLogIn(settings, at, { email: DEMO_USER.email, password: DEMO_USER.password }));
  } finally {
    await panel.close();
  }
}

/** The paths of the requests made since `from`, without their queries. */
const pathsSince = (panel: ReferencePanel, from: number) => panel.requests.slice(from).map((request) => request.path.split('?')[0]);

describe('the reads in each generation', () => {
  for (const generation of Object.keys(STYLES) as Generation[]) {
    test(`${generation}: projects and services, task stats, server load`, async () => {
      await withSignedIn(generation, { demoProjects: 2 }, async (panel, at, token) => {
        const listed = (await callPanel(settings, at, token, 'listProjectsAndServices')) as { services: unknown[] };
        assert.equal(listed.services.length, 8);
        panel.services.crashService('shop', 'web');
        const stats = (await callPanel(settings, at, token, 'getDockerTaskStats')) as Record<string, unknown>;
        assert.deepEqual(stats.shop_web, { actual: 0, desired: 1 });
        const from = panel.requests.length;
        const load = (await callPanel(settings, at, token, 'getSystemStats')) as { memInfo: { totalMemMb: unknown } };
        assert.equal(load.memInfo.totalMemMb, '7976.26');
        assert.equal(pathsSince(panel, from).length, 1, 'the first name answers on a panel of the default version');
      });
    });
  }
});

describe('the server load falls back to the older names where the newer is missing', () => {
  const cases: { generation: Generation; options: ReferencePanelOptions; paths: string[] }[] = [
    {
      generation: 'rpc',
      options: { withoutOperations: ['metrics/getSystemStats'] },
      paths: ['/api/rpc/metrics/getSystemStats', '/api/rpc/monitorOld/getSystemStats'],
    },
    {
      generation: 'public',
      options: { withoutOperations: ['getMetricsSystemStats'] },
      paths: ['/api/getMetricsSystemStats', '/api/getLegacyMonitorSystemStats'],
    },
    // 2.30 answers both of its names; a build without `monitor.` still has `monitorOld.`.
    {
      generation: 'trpc',
      options: { version: '2.30.1', withoutOperations: ['monitor.getSystemStats'] },
      paths: ['/api/trpc/monitor.getSystemStats', '/api/trpc/monitorOld.getSystemStats'],
    },
  ];
  for (const { generation, options, paths } of cases) {
    test(`${generation}: ${paths.join(' then ')}`, async () => {
      await withSignedIn(generation, options, async (panel, at, token) => {
        const from = panel.requests.length;
        const load = (await callPanel(settings, at, token, 'getSystemStats')) as { uptime: unknown };
        assert.equal(typeof load.uptime, 'number');
        assert.deepEqual(pathsSince(panel, from), paths);
      });
    });
  }

  test('no name answers: BAD_RESPONSE naming the first route, after one request for each', async () => {
    const withoutAny = { withoutOperations: ['metrics/getSystemStats', 'monitorOld/getSystemStats'] };
    await withSignedIn('rpc', withoutAny, async (panel, at, token) => {
      const from = panel.requests.length;
      await rejectsWith(callPanel(settings, at, token, 'getSystemStats'), 'BAD_RESPONSE', /no POST .*\/rpc\/metrics\/getSystemStats/);
      assert.equal(pathsSince(panel, from).length, 2);
    });
  });
});

describe('reads are retried once at most, writes never', () => {
  const count = (panel: ReferencePanel, from: number, path: string) => pathsSince(panel, from).filter((seen) => seen === path).length;

  test('a dropped connection: a read is sent twice, then fails as a network error', async () => {
    await withSignedIn('rpc', {}, async (panel, at, token) => {
      panel.setFault('getDockerTaskStats', { kind: 'drop-connection' });
      const from = panel.requests.length;
      await rejectsWith(callPanel(settings, at, token, 'getDockerTaskStats'), 'NETWORK');
      assert.equal(count(panel, from, '/api/rpc/monitorOld/getDockerTaskStats'), 2);
    });
  });

  test('a dropped connection once: the second try answers', async () => {
    await withSignedIn('public', { demoProjects: 1 }, async (panel, at, token) => {
      panel.setFault('listProjectsAndServices', { kind: 'drop-connection' });
      const from = panel.requests.length;
      const reading = callPanel(settings, at, token, 'listProjectsAndServices');
      // Lifted while the caller pauses before its second try: once the first try reached the panel,
      // not after a fixed time (a loaded machine may not have sent it yet).
      await waitUntil(() => count(panel, from, '/api/listProjectsAndServices') >= 1);
      panel.setFault('listProjectsAndServices', null);
      assert.equal(((await reading) as { services: unknown[] }).services.length, 4);
      assert.equal(count(panel, from, '/api/listProjectsAndServices'), 2);
    });
  });

  test('a dropped connection: a write is sent exactly once', async () => {
    await withSignedIn('rpc', {}, async (panel, at, token) => {
      panel.setFault('logout', { kind: 'drop-connection' });
      const from = panel.requests.length;
      await rejectsWith(callPanel(settings, at, token, 'logOut'), 'NETWORK');
      assert.equal(count(panel, from, '/api/rpc/auth/logout'), 1);
    });
  });

  test('a 5xx: a read twice, a write once', async () => {
    await withSignedIn('public', {}, async (panel, at, token) => {
      panel.setFault('getSystemStats', { kind: 'server-error' });
      panel.setFault('logout', { kind: 'server-error' });
      const from = panel.requests.length;
      await rejectsWith(callPanel(settings, at, token, 'getSystemStats'), 'SERVER_ERROR');
      await rejectsWith(callPanel(settings, at, token, 'logOut'), 'SERVER_ERROR');
      assert.equal(count(panel, from, '/api/getMetricsSystemStats'), 2);
      assert.equal(count(panel, from, '/api/logout'), 1);
    });
  });

  test('a 4xx is never retried: 400, 429, 401', async () => {
    await withSignedIn('public', {}, async (panel, at, token) => {
      const faults = [
        { fault: { kind: 'status', status: 400 }, code: 'BAD_RESPONSE' },
        { fault: { kind: 'rate-limited', retryAfterSeconds: 1 }, code: 'RATE_LIMITED' },
        {
          fault: { kind: 'status', status: 401, body: { code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' } },
          code: 'UNAUTHORIZED',
        },
      ] as const;
      for (const { fault, code } of faults) {
        panel.setFault('getDockerTaskStats', fault);
        const from = panel.requests.length;
        await rejectsWith(callPanel(settings, at, token, 'getDockerTaskStats'), code);
        assert.equal(count(panel, from, '/api/getDockerTaskStats'), 1, fault.kind);
      }
    });
  });

  test('a cancelled read is not sent again', async () => {
    await withSignedIn('public', {}, async (panel, at, token) => {
      panel.setFault('getDockerTaskStats', { kind: 'drop-connection' });
      const controller = new AbortController();
      const from = panel.requests.length;
      const reading = callPanel(settings, at, token, 'getDockerTaskStats', undefined, { signal: controller.signal });
      // Cancelled in the pause between the tries: the first one has reached the panel and failed.
      await waitUntil(() => count(panel, from, '/api/getDockerTaskStats') >= 1);
      controller.abort();
      await rejectsWith(reading, 'CANCELLED');
      assert.equal(count(panel, from, '/api/getDockerTaskStats'), 1);
    });
  });
});

test("an operation's deadline holds over the settings' timeout", async () => {
  await withSignedIn('public', {}, async (panel, at, token) => {
    panel.setFault('getDockerTaskStats', { kind: 'latency', ms: 3000 });
    const quick: PanelRequest = { ...REQUESTS.getDockerTaskStats, effect: 'write', deadlineMs: 300 };
    // Under the settings' 5 s timeout the answer, 3 s late, would arrive: a TIMEOUT naming 0.3 s shows the deadline held.
    await rejectsWith(callRequest(settings, at, token, quick), 'TIMEOUT', /within 0\.3 s/);
  });
});
