import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { missingFeatureText } from '../../shared/panel-features.ts';
import { tempDir } from '../support/helpers.ts';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, openSignedIn } from '../support/signed-in-core.ts';

/**
 * The features Paneldeck builds on, found in each panel's own catalogue (the reference panel lists
 * what it serves: services, deployments, its writes, backups), and drift: what Paneldeck
 * sends that a catalogue does not list.
 */
describe("features found in a panel's own catalogue", () => {
  for (const style of EASYPANEL_GENERATIONS) {
    test(`${style}: what the reference panel serves is found, what it lacks is said, and nothing Paneldeck sends is missing`, async () => {
      const panel = await startReferencePanel({ style });
      const dir = await tempDir();
      try {
        const { core, id } = await openSignedIn(dir.path, panel);
        const features = await core.getPanelFeatures(id);
        const available = (name: string) => features.features.find((feature) => feature.id === name)?.available;
        assert.equal(available('serviceActions'), true);
        assert.equal(available('deployments'), true);
        assert.equal(available('databaseBackups'), true);
        assert.equal(available('volumeBackups'), true);
        // A panel without them: the words a view says (tests/integration/backups.test.ts sees them from listBackups).
        assert.equal(missingFeatureText({ label: 'database backups' }), "This panel's Easypanel has no database backups.");
        assert.deepEqual(features.drift, []);
        assert.equal(features.version, panel.version());
        // Read from the catalogue the console keeps: asked again, nothing is sent.
        const reads = () => panel.requests.filter((request) => request.path === '/api/openapi.json').length;
        await core.getPanelFeatures(id);
        await core.getOperations(id);
        assert.equal(reads(), 1);
      } finally {
        await panel.close();
        await dir.cleanup();
      }
    });
  }

  test('drift: a panel whose catalogue does not list a request Paneldeck sends says so', async () => {
    const panel = await startReferencePanel({ style: 'public', withoutOperations: ['getDockerTaskStats'] });
    const dir = await tempDir();
    try {
      const { core, id } = await openSignedIn(dir.path, panel);
      const { drift } = await core.getPanelFeatures(id);
      assert.deepEqual(drift, [{ doing: 'reading which services run', names: ['getDockerTaskStats'], problem: 'missing' }]);
    } finally {
      await panel.close();
      await dir.cleanup();
    }
  });
});

test("a view's request for a feature the panel's known catalogue lacks says so, and sends nothing", async () => {
  const panel = await startReferencePanel({ style: 'public', withoutOperations: ['listActions', 'actions/listActions'] });
  const dir = await tempDir();
  try {
    const { core, id } = await openSignedIn(dir.path, panel);
    await core.getPanelFeatures(id);
    const from = panel.requests.length;
    await assert.rejects(
      core.listDeployments(id, { projectName: 'shop', serviceName: 'web' }),
      (error: { code?: string; message?: string }) => {
        assert.equal(error.code, 'NOT_FOUND');
        assert.equal(error.message, "This panel's Easypanel has no actions history (deployments and build logs).");
        return true;
      },
    );
    assert.equal(panel.requests.length, from, 'nothing sent');
  } finally {
    await panel.close();
    await dir.cleanup();
  }
});
