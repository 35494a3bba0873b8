import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { callPanel, findVersion, generationOfVersion, versionOf } from '../../electron/core/easypanel/panel-calls.ts';
import { createNodeFetch } from '../../electron/core/net/node-fetch.ts';
import { requestLogIn, type PanelEndpoint } from '../../electron/core/easypanel/panel-endpoints.ts';
import { GENERATION_PATHS } from '../../shared/generations.ts';
import type { Generation } from '../../shared/types.ts';
import { rejectsWith } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/** The request table's caller against each generation of the reference panel: the version read and the log out. */

const settings = { fetch: createNodeFetch(), timeoutMs: 5000, maxResponseBytes: 1024 * 1024 };
const STYLES = { trpc: 'trpc', rpc: 'rpc', public: 'public' } as const satisfies Record<string, Generation>;

function endpoint(panel: ReferencePanel, generation: Generation): PanelEndpoint {
  return {
    baseUrl: panel.baseUrl,
    generation,
    ...{ loginPath: GENERATION_PATHS[generation].login, sessionPath: GENERATION_PATHS[generation].session },
    tokenField: null,
    trustedCertificate: null,
  };
}

for (const [generation, style] of Object.entries(STYLES)) {
  describe(`${generation} (${style})`, () => {
    let panel: ReferencePanel;
    before(async () => {
      panel = await startReferencePanel({ style: generation as keyof typeof STYLES });
    });
    after(() => panel.close());

    test('the version read with the token, and the log out that ends the session', async () => {
      const token = await requestLogIn(settings, endpoint(panel, style), { email: DEMO_USER.email, password: DEMO_USER.password });
      const version = versionOf(await callPanel(settings, endpoint(panel, style), token, 'getVersion'));
      assert.equal(version, panel.version());
      assert.equal(generationOfVersion(version), style);
      // Found from a wrong guess too, by probing the generations newest first.
      const other: Generation = style === 'trpc' ? 'rpc' : 'trpc';
      assert.deepEqual(await findVersion(settings, endpoint(panel, other), token), {
        version: panel.version(),
        generation: style === 'rpc' && other === 'trpc' ? 'rpc' : style,
        updateAvailable: false,
      });
      await callPanel(settings, endpoint(panel, style), token, 'logOut');
      assert.equal(panel.logouts.length, 1);
      await rejectsWith(callPanel(settings, endpoint(panel, style), token, 'getVersion'), 'UNAUTHORIZED');
    });
  });
}

test('versions and the generation each speaks', () => {
  assert.equal(versionOf({ version: '2.32.2', latest: '2.33.0' }), '2.32.2');
  assert.equal(versionOf({ version: '<script>' }), null);
  assert.equal(versionOf(null), null);
  assert.equal(generationOfVersion('2.28.1'), 'trpc');
  assert.equal(generationOfVersion('2.30.9'), 'trpc');
  assert.equal(generationOfVersion('2.31.0'), 'rpc');
  assert.equal(generationOfVersion('2.32.2'), 'rpc');
  assert.equal(generationOfVersion('2.33.0'), 'public');
  assert.equal(generationOfVersion('3.0.1'), 'public');
  assert.equal(generationOfVersion(null), null);
});
