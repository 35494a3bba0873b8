import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';

/**
 * The log WebSocket of a panel with its own certificate goes through the same judge as every https
 * request: accepted with the certificate the operator trusted for the panel, refused (before the
 * upgrade request, which carries the token, is written) when the panel presents another.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const web = { projectName: 'shop', serviceName: 'web' };

describe('the log socket of a self-signed panel', () => {
  let first: { key: string; cert: string };
  let second: { key: string; cert: string };
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let id: string;

  before(async () => {
    first = await selfSignedCertificate();
    second = await selfSignedCertificate({ commonName: 'renewed.paneldeck.test' });
    panel = await startReferencePanel({ style: 'public', tls: first });
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    panel.logs.write('shop', 'web', 'booted over TLS');
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 4000 });
    ({ id } = await core.addPanel({ address: panel.url }));
    await rejectsWith(core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
    await core.trustCertificate(id, { sha256: certificateFingerprint(first.cert) });
    await core.logIn(id, credentials);
  });
  after(async () => {
    await core.flush();
    await panel.close();
    await dir.cleanup();
  });

  test('the pinned certificate: the log is read over wss, on a connection made with that certificate', async () => {
    const read = await core.readServiceLogs(id, web);
    assert.deepEqual(read.lines, ['booted over TLS']);
    assert.equal(panel.logs.accepted().at(-1)?.certificate, certificateFingerprint(first.cert));
  });

  test('another certificate: CERTIFICATE_CHANGED, and the panel never got the upgrade request with the token', async () => {
    const accepted = panel.logs.accepted().length;
    const requests = panel.requests.length;
    await panel.setCertificate(second);
    const error = await rejectsWith(core.readServiceLogs(id, web), 'CERTIFICATE_CHANGED', /did not send your password or token/);
    assert.equal(error.certificate?.sha256, certificateFingerprint(second.cert));
    assert.equal(panel.logs.accepted().length, accepted);
    assert.equal(panel.requests.length, requests);
    await panel.setCertificate(first);
    assert.deepEqual((await core.readServiceLogs(id, web)).lines, ['booted over TLS']);
  });
});
