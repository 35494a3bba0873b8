import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir } from '../support/helpers.ts';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { openSignedIn } from '../support/signed-in-core.ts';

/**
 * A request with several names in a generation costs its fallback once: the route a panel
 * answered is remembered (electron/core/easypanel/route-memory.ts). And the server's load comes
 * from the legacy monitor, or from the metrics routes only where the metrics stack is on
 * (docs/easypanel-api.md).
 */
const procedures = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'support', 'fixtures', 'easypanel-2.32.2-procedures.json'), 'utf8'),
).procedures as Record<string, unknown>;

const sentSince = (panel: ReferencePanel, from: number) =>
  panel.requests.slice(from).map((request) => `${request.method} ${request.path.split('?')[0]}`);

describe('a route that answered is remembered', () => {
  test('a 2.32.2 panel: every check asks only procedures it has, the first check too', async () => {
    const dir = await tempDir();
    const panel = await startReferencePanel({ style: 'rpc', demoProjects: 2 });
    try {
      const { core, id } = await openSignedIn(dir.path, panel);
      for (let pass = 0; pass < 2; pass++) {
        const from = panel.requests.length;
        const [check] = await core.checkPanels([id]);
        assert.equal(check?.ok, true, JSON.stringify(check));
        const sent = sentSince(panel, from);
        assert.ok(sent.includes('POST /api/rpc/monitorOld/getDockerTaskStats'), sent.join(', '));
        const unknown = sent.filter((line) => !Object.hasOwn(procedures, line.replace(/^POST \/api\/rpc/, '')));
        assert.deepEqual(unknown, [], `pass ${pass + 1} asked what a real 2.32.2 has not`);
      }
    } finally {
      await panel.close();
      await dir.cleanup();
    }
  });

  test('a build without monitorOld: the fallback is asked once, then straight away at every check', async () => {
    const dir = await tempDir();
    const panel = await startReferencePanel({ style: 'rpc', version: '2.31.0', withoutOperations: ['monitorOld/getDockerTaskStats'] });
    try {
      const { core, id } = await openSignedIn(dir.path, panel);
      let from = panel.requests.length;
      await core.checkPanels([id]);
      const first = sentSince(panel, from).filter((line) => line.includes('getDockerTaskStats'));
      assert.deepEqual(first, ['POST /api/rpc/monitorOld/getDockerTaskStats', 'POST /api/rpc/monitor/getDockerTaskStats']);
      for (let pass = 0; pass < 2; pass++) {
        from = panel.requests.length;
        await core.checkPanels([id]);
        await core.listServices(id);
        const again = sentSince(panel, from).filter((line) => line.includes('getDockerTaskStats'));
        assert.deepEqual(again, ['POST /api/rpc/monitor/getDockerTaskStats', 'POST /api/rpc/monitor/getDockerTaskStats']);
      }
    } finally {
      await panel.close();
      await dir.cleanup();
    }
  });
});

describe("the server's load", () => {
  test('2.33 with the legacy monitor: read there, no metrics route asked', async () => {
    const dir = await tempDir();
    const panel = await startReferencePanel({ style: 'public' });
    try {
      const { core, id } = await openSignedIn(dir.path, panel);
      const from = panel.requests.length;
      const stats = await core.getServerStats(id);
      assert.equal(typeof stats.cpuPercent, 'number');
      const sent = sentSince(panel, from);
      assert.ok(sent.includes('GET /api/getLegacyMonitorSystemStats'), sent.join(', '));
      assert.equal(
        sent.some((line) => /[Mm]etrics/.test(line)),
        false,
      );
    } finally {
      await panel.close();
      await dir.cleanup();
    }
  });

  test('no legacy monitor: the metrics read only when the metrics stack is on, with its range through RPC; off, it says so', async () => {
    const dir = await tempDir();
    const panel = await startReferencePanel({ style: 'public', withoutOperations: ['getLegacyMonitorSystemStats'] });
    try {
      const { core, id } = await openSignedIn(dir.path, panel);
      let from = panel.requests.length;
      await assert.rejects(core.getServerStats(id), (error: { code?: string; message?: string }) => {
        assert.equal(error.code, 'BAD_RESPONSE');
        assert.match(error.message ?? '', /no legacy monitor, and its metrics are off/);
        return true;
      });
      assert.deepEqual(
        sentSince(panel, from).filter((line) => /Metrics|metrics|Legacy/.test(line)),
        ['GET /api/getLegacyMonitorSystemStats', 'GET /api/getMetricsSettings'],
      );
      panel.services.setMetrics(true);
      from = panel.requests.length;
      const stats = await core.getServerStats(id);
      assert.equal(typeof stats.cpuPercent, 'number');
      const metricsRead = panel.requests.slice(from).find((request) => request.path === '/api/rpc/metrics/getSystemStats');
      assert.ok(metricsRead, 'the metrics read went through the RPC layer (range is a number)');
      assert.deepEqual(JSON.parse(metricsRead.body), { json: { range: 3600, step: '1m' } });
    } finally {
      await panel.close();
      await dir.cleanup();
    }
  });
});
