import assert from 'node:assert/strict';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import type { ImportPreview } from '../../shared/transfer.ts';
import { describeCertificate } from '../../electron/core/net/certificate-trust.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';

/**
 * An import never moves trust: a file (pasted, opened by mistake, or sent by a compromised window)
 * that names a panel already in the list with another certificate does not pin it, so a server
 * presenting that certificate never receives the panel's token. And an import that changes only
 * the generation takes the generation's paths along, as the panel settings do.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const paste = (app: Core, text: string) => app.previewImport({ from: 'text', text }) as Promise<ImportPreview>;

describe('an import never changes the certificate a panel trusts', () => {
  let own: { key: string; cert: string };
  let attacker: { key: string; cert: string };
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;

  before(async () => {
    own = await selfSignedCertificate();
    attacker = await selfSignedCertificate({ commonName: 'attacker.paneldeck.test' });
  });
  beforeEach(async () => {
    panel = await startReferencePanel({ tls: own });
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 4000 });
  });
  afterEach(async () => {
    await core.flush();
    await panel.close();
    await dir.cleanup();
  });

  /** A panel signed in with its own certificate trusted, as trust on first use leaves it. */
  async function signedInPinned() {
    const { id } = await core.addPanel({ address: panel.url, name: 'Production' });
    await core.logIn(id, credentials).catch(() => undefined);
    await core.trustCertificate(id, { sha256: certificateFingerprint(own.cert) });
    await core.logIn(id, credentials);
    return id;
  }

  test('an entry with another certificate for a signed-in panel: the preview says it is ignored, with both fingerprints; the pin and the sign-in stay, and the other server never gets the token', async () => {
    const id = await signedInPinned();
    const attackerCertificate = describeCertificate(attacker.cert);
    const text = JSON.stringify([{ name: 'Production', address: panel.url, trustedCertificate: attackerCertificate }]);
    const preview = await paste(core, text);
    const row = preview.rows[0]!;
    assert.equal(row.status, 'same');
    assert.equal(row.trustsCertificate, false);
    assert.ok(!row.changes.includes('trusted certificate'));
    assert.ok(row.message?.includes(attackerCertificate.sha256), row.message ?? '');
    assert.ok(row.message?.includes(certificateFingerprint(own.cert)), row.message ?? '');
    await core.applyImport(preview.id, { duplicates: 'update' });

    const after = (await core.listPanels()).find((one) => one.id === id)!;
    assert.equal(after.trustedCertificate?.sha256, certificateFingerprint(own.cert));
    assert.equal(after.signedIn, true);

    // The attacker's server takes the panel's place: it is refused before anything is sent.
    const tokens = panel.issuedTokens();
    await panel.setCertificate(attacker);
    const sent = panel.requests.length;
    const check = await core.checkPanels([id]);
    assert.equal(check[0]!.ok, false);
    assert.equal(check[0]!.ok === false && check[0]!.error.code, 'CERTIFICATE_CHANGED');
    assert.equal(panel.requests.length, sent, 'no request reached the server presenting the imported certificate');
    assert.ok(tokens.length > 0);
  });

  test('an entry that drops the pin is ignored too: forgetting a certificate is the operator’s act on the panel', async () => {
    const id = await signedInPinned();
    const preview = await paste(core, JSON.stringify([{ address: panel.url, trustedCertificate: null, group: 'Clients' }]));
    assert.equal(preview.rows[0]!.status, 'duplicate');
    assert.deepEqual(preview.rows[0]!.changes, ['group']);
    assert.match(preview.rows[0]!.message ?? '', /trusts no certificate for it; that was not imported/);
    await core.applyImport(preview.id, { duplicates: 'update' });
    const after = (await core.listPanels()).find((one) => one.id === id)!;
    assert.equal(after.trustedCertificate?.sha256, certificateFingerprint(own.cert));
    assert.equal(after.group, 'Clients');
  });

  test('a new panel from an import keeps the certificate the file trusts (flagged in the preview)', async () => {
    const preview = await paste(core, JSON.stringify([{ address: panel.url, trustedCertificate: describeCertificate(own.cert) }]));
    assert.equal(preview.rows[0]!.status, 'new');
    assert.equal(preview.rows[0]!.trustsCertificate, true);
    await core.applyImport(preview.id, { duplicates: 'update' });
    const [added] = await core.listPanels();
    assert.equal(added!.trustedCertificate?.sha256, certificateFingerprint(own.cert));
  });
});

describe('an import that changes only the generation', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let trpc: ReferencePanel;
  beforeEach(async () => {
    dir = await tempDir();
    trpc = await startReferencePanel({ style: 'trpc' });
  });
  afterEach(async () => {
    await trpc.close();
    await dir.cleanup();
  });

  test('takes the generation’s paths along, as the panel settings do; paths the operator set stay', async () => {
    const core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 4000 });
    const { id } = await core.addPanel({ address: trpc.url });
    const styled = await paste(core, JSON.stringify([{ address: trpc.url, generation: 'trpc' }]));
    assert.deepEqual(styled.rows[0]!.changes, ['Generation']);
    await core.applyImport(styled.id, { duplicates: 'update' });
    const panel = (await core.listPanels()).find((one) => one.id === id)!;
    assert.equal(panel.generation, 'trpc');
    assert.equal(panel.loginPath, '/trpc/auth.login');
    assert.equal(panel.sessionPath, '/trpc/auth.getSession');
    // Paths the operator set stay where they are.
    await core.updatePanel(id, { generation: 'public', loginPath: '/custom/login' });
    const back = await paste(core, JSON.stringify([{ address: trpc.url, generation: 'trpc' }]));
    await core.applyImport(back.id, { duplicates: 'update' });
    const kept = (await core.listPanels()).find((one) => one.id === id)!;
    assert.equal(kept.loginPath, '/custom/login');
    assert.equal(kept.sessionPath, '/trpc/auth.getSession');
    await core.flush();
  });
});
