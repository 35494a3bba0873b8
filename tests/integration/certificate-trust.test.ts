import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import type { CertificateInfo } from '../../shared/contract/errors.ts';
import { createCore, type FetchLike, type Core } from '../../electron/core/index.ts';
import { createNodeFetch } from '../../electron/core/net/node-fetch.ts';
import {
  CertificateRejection,
  describeCertificate,
  judgeCertificate,
  type PresentedCertificate,
} from '../../electron/core/net/certificate-trust.ts';
import { rejectsWith, tempDir, testEncryption, type TestEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';

/**
 * Trust on first use over real TLS on loopback: the core's own https fetch judges each connection
 * before it writes anything on it, so a refused certificate never sees the password or the token.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

describe('trust on first use against a self-signed panel', () => {
  let first: { key: string; cert: string };
  let second: { key: string; cert: string };
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let encryption: TestEncryption;
  let core: Core;
  const start = () => createCore({ dataDir: dir.path, encryption, timeoutMs: 4000 });

  before(async () => {
    first = await selfSignedCertificate();
    second = await selfSignedCertificate({ commonName: 'renewed.paneldeck.test' });
  });
  beforeEach(async () => {
    panel = await startReferencePanel({ tls: first });
    dir = await tempDir();
    encryption = testEncryption();
    core = start();
  });
  afterEach(async () => {
    await core.flush();
    await panel.close();
    await dir.cleanup();
  });

  test('an untrusted certificate: CERTIFICATE_UNTRUSTED with its fingerprint, subject, issuer and validity; nothing sent', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    const error = await rejectsWith(
      core.logIn(id, credentials),
      'CERTIFICATE_UNTRUSTED',
      /self-signed.*did not send your password or token/s,
    );
    const certificate = error.certificate;
    assert.ok(certificate, 'the error carries the certificate');
    assert.equal(certificate.sha256, certificateFingerprint(first.cert));
    assert.match(certificate.subject, /CN=127\.0\.0\.1/);
    assert.match(certificate.issuer, /CN=127\.0\.0\.1/);
    assert.ok(Date.parse(certificate.validFrom) < Date.now() && Date.now() < Date.parse(certificate.validTo), JSON.stringify(certificate));
    assert.deepEqual(error.toInfo().certificate, certificate);
    assert.equal(panel.requests.length, 0, 'the panel received no request');
  });

  test('only the fingerprint the panel presented can be trusted; then log in and reads work, also after a restart', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    await rejectsWith(core.trustCertificate(id, { sha256: certificateFingerprint(first.cert) }), 'INVALID_INPUT', /has not presented/);
    await rejectsWith(core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
    await rejectsWith(core.trustCertificate(id, { sha256: certificateFingerprint(second.cert) }), 'INVALID_INPUT', /has not presented/);
    await rejectsWith(core.trustCertificate(id, { sha256: 'not a fingerprint' }), 'INVALID_INPUT', /SHA-256 fingerprint/);
    assert.equal((await core.listPanels())[0]?.trustedCertificate, null);

    const trusted = await core.trustCertificate(id, { sha256: certificateFingerprint(first.cert) });
    assert.equal(trusted.trustedCertificate?.sha256, certificateFingerprint(first.cert));
    assert.equal((await core.logIn(id, credentials)).signedIn, true);
    assert.ok((await core.getSession(id)).session);

    // The trust is in the panel list on disk (it is not a secret) and holds after a restart.
    const onDisk = JSON.parse(await readFile(join(dir.path, 'panels.json'), 'utf8')) as {
      panels: { trustedCertificate: CertificateInfo }[];
    };
    assert.equal(onDisk.panels[0]?.trustedCertificate.sha256, certificateFingerprint(first.cert));
    await core.flush();
    core = start();
    assert.equal((await core.getSession(id)).panelId, id);
  });

  test('a different certificate later: CERTIFICATE_CHANGED naming both fingerprints, the token not sent, the sign-in kept; trusting the new one or forgetting works', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    await rejectsWith(core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
    await core.trustCertificate(id, { sha256: certificateFingerprint(first.cert) });
    await core.logIn(id, credentials);
    await core.getSession(id);
    const before = panel.requests.length;

    await panel.setCertificate(second);
    const error = await rejectsWith(core.getSession(id), 'CERTIFICATE_CHANGED');
    assert.ok(
      error.message.includes(certificateFingerprint(first.cert)) && error.message.includes(certificateFingerprint(second.cert)),
      error.message,
    );
    assert.equal(error.certificate?.sha256, certificateFingerprint(second.cert));
    assert.equal(panel.requests.length, before, 'the panel with the new certificate received nothing');
    const afterChange = (await core.listPanels())[0];
    assert.equal(afterChange?.signedIn, true, 'a changed certificate is not a rejected token');
    assert.equal(afterChange?.lastCheck?.ok === false && afterChange.lastCheck.error.code, 'CERTIFICATE_CHANGED');
    assert.equal(
      afterChange?.lastCheck?.ok === false && afterChange.lastCheck.error.certificate?.sha256,
      certificateFingerprint(second.cert),
    );

    const renewed = await core.trustCertificate(id, { sha256: certificateFingerprint(second.cert) });
    assert.equal(renewed.trustedCertificate?.sha256, certificateFingerprint(second.cert));
    assert.ok((await core.getSession(id)).session);

    const forgotten = await core.forgetCertificate(id);
    assert.equal(forgotten.trustedCertificate, null);
    await rejectsWith(core.getSession(id), 'CERTIFICATE_UNTRUSTED');
  });

  test('over a trusted https connection, faults mean what they mean over http', async () => {
    core = createCore({ dataDir: dir.path, encryption, timeoutMs: 1500 });
    const { id } = await core.addPanel({ address: panel.url });
    await rejectsWith(core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
    await core.trustCertificate(id, { sha256: certificateFingerprint(first.cert) });
    await core.logIn(id, credentials);
    const cases = [
      [{ kind: 'never-ending-body' }, 'TIMEOUT'],
      [{ kind: 'huge-body' }, 'RESPONSE_TOO_LARGE'],
      [{ kind: 'bad-gateway-html' }, 'SERVER_ERROR'],
      [{ kind: 'invalid-json' }, 'BAD_RESPONSE'],
      [{ kind: 'redirect', to: 'https://elsewhere.example/api/getSession' }, 'REDIRECT_REFUSED'],
      [{ kind: 'status', status: 204, body: '', contentType: 'application/json' }, 'BAD_RESPONSE'],
    ] as const;
    for (const [fault, code] of cases) {
      panel.setFault('getSession', fault);
      await rejectsWith(core.getSession(id), code);
    }
    panel.setFault('getSession', { kind: 'redirect', to: '/api/v2/getSession', status: 307 });
    assert.ok((await core.getSession(id)).session, 'a same-origin redirect is followed over the trusted connection');
    panel.setFault('getSession', null);
  });

  test("a new address drops the trusted certificate, which was the old server's", async () => {
    const { id } = await core.addPanel({ address: panel.url });
    await rejectsWith(core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
    await core.trustCertificate(id, { sha256: certificateFingerprint(first.cert) });
    const other = await startReferencePanel({ tls: first });
    try {
      const moved = await core.updatePanel(id, { address: other.url });
      assert.equal(moved.trustedCertificate, null);
      await rejectsWith(core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
      assert.equal(other.requests.length, 0);
    } finally {
      await other.close();
    }
  });
});

// Found by the model-based test (tests/integration/model-security.test.ts): a log in refused at the
// old address, its refusal arriving after the panel moved, let the operator pin the old server's
// certificate on the panel at its new address, which never presented it.
describe('a refusal that comes back after the panel moved', () => {
  test('is not what the panel at its new address presented: trusting it is refused', async () => {
    const [old, next] = [await selfSignedCertificate(), await selfSignedCertificate({ commonName: 'next.paneldeck.test' })];
    const [oldServer, nextServer] = [await startReferencePanel({ tls: old }), await startReferencePanel({ tls: next })];
    const dir = await tempDir();
    const nodeFetch = createNodeFetch();
    let started = false;
    let release: (value?: unknown) => void = () => undefined;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    // The old server's refusal is held until the panel has moved.
    const fetch: FetchLike = (url, init, tls) => {
      started = true;
      return nodeFetch(url, init, tls).catch(async (error: unknown) => {
        await held;
        throw error;
      });
    };
    const app = createCore({ dataDir: dir.path, encryption: testEncryption(), fetch, timeoutMs: 4000 });
    try {
      const { id } = await app.addPanel({ address: oldServer.url });
      const logIn = rejectsWith(app.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
      while (!started) await new Promise((resolve) => setTimeout(resolve, 5));
      await app.updatePanel(id, { address: nextServer.url });
      release();
      await logIn;
      await rejectsWith(app.trustCertificate(id, { sha256: certificateFingerprint(old.cert) }), 'INVALID_INPUT', /has not presented/);
      // What the panel presents at its new address can be trusted, once it has presented it.
      const refused = await rejectsWith(app.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
      assert.equal(refused.certificate?.sha256, certificateFingerprint(next.cert));
      assert.equal(
        (await app.trustCertificate(id, { sha256: certificateFingerprint(next.cert) })).trustedCertificate?.sha256,
        certificateFingerprint(next.cert),
      );
    } finally {
      await app.flush();
      await Promise.all([oldServer.close(), nextServer.close()]);
      await dir.cleanup();
    }
  });
});

describe('judgeCertificate', () => {
  const presented = (sha256: string, systemTrusted: boolean): PresentedCertificate => ({
    certificate: { sha256, subject: 'CN=x', issuer: 'CN=x', validFrom: '2030-01-01T00:00:00.000Z', validTo: '2031-01-01T00:00:00.000Z' },
    systemTrusted,
    systemReason: systemTrusted ? null : 'DEPTH_ZERO_SELF_SIGNED_CERT',
  });
  const a = `${'AA:'.repeat(31)}AA`;
  const b = `${'BB:'.repeat(31)}BB`;

  test('without a trusted certificate the system decides', () => {
    assert.equal(judgeCertificate(presented(a, true), null), null);
    assert.equal(judgeCertificate(presented(a, false), null)?.kind, 'untrusted');
  });

  test('with one, exactly that certificate passes, even one the system trusts is refused when it differs', () => {
    assert.equal(judgeCertificate(presented(a, false), a), null);
    const changed = judgeCertificate(presented(b, true), a);
    assert.ok(changed instanceof CertificateRejection);
    assert.equal(changed.kind, 'changed');
    assert.equal(changed.trusted, a);
  });

  test('describeCertificate reads a PEM certificate as the operator compares it', async () => {
    const { cert } = await selfSignedCertificate({ commonName: 'panel.internal' });
    const info = describeCertificate(cert);
    assert.equal(info.sha256, certificateFingerprint(cert));
    assert.match(info.sha256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.equal(info.subject, 'CN=panel.internal');
    assert.ok(!Number.isNaN(Date.parse(info.validTo)));
  });
});
