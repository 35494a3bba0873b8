import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { findCertificateRejection } from '../../../electron/core/http/certificate-trust.ts';
import { describeConnectionFailure } from '../../../electron/core/http/connection-errors.ts';
import { PanelCertificates, withConnectionsReset } from '../../../electron/main/panel-certificates.ts';
import type { PanelApi } from '../../../shared/contract.ts';
import { certificateFingerprint, selfSignedCertificate } from '../../support/tls-certificate.ts';

/**
 * The app's certificate check, as Electron's verify proc calls it, with real certificates. Electron
 * itself cannot run here: what Chromium does with the answers (-2 refuses, -3 keeps its verdict,
 * 0 accepts) is Electron's documented contract, not tested on this machine.
 */

describe("PanelCertificates (the app's verify proc)", () => {
  let pem: string;
  let sha256: string;
  let otherPem: string;
  before(async () => {
    pem = (await selfSignedCertificate()).cert;
    sha256 = certificateFingerprint(pem);
    otherPem = (await selfSignedCertificate({ commonName: 'other.paneldeck.test' })).cert;
  });

  test("no trusted certificate: Chromium's verdict stands for what it trusts, an untrusted one is refused and remembered", async () => {
    let clock = 0;
    const certificates = new PanelCertificates(
      () => [],
      () => clock,
    );
    assert.equal(certificates.verify({ hostname: 'panel.example.com', certificate: { data: pem }, verificationResult: 'net::OK' }), -3);
    clock = 5;
    assert.equal(
      certificates.verify({ hostname: '10.0.0.5', certificate: { data: pem }, verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID' }),
      -2,
    );

    // The request that failed meanwhile carries the refusal, and the core words it with the certificate.
    clock = 4;
    const fetch = certificates.wrap(async () => {
      throw new Error('net::ERR_CERT_AUTHORITY_INVALID');
    });
    const failure = await fetch('https://10.0.0.5:3000/api/login', {}).catch((error: unknown) => error);
    const rejection = findCertificateRejection(failure);
    assert.equal(rejection?.kind, 'untrusted');
    const error = describeConnectionFailure(failure, new URL('https://10.0.0.5:3000/api/login'));
    assert.equal(error.code, 'CERTIFICATE_UNTRUSTED');
    assert.equal(error.certificate?.sha256, sha256);
    assert.match(error.message, /issuer is not a trusted authority/);
  });

  test('a refusal from before the request started is not blamed on it', async () => {
    let clock = 1;
    const certificates = new PanelCertificates(
      () => [],
      () => clock,
    );
    certificates.verify({ hostname: 'h.example', certificate: { data: pem }, verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID' });
    clock = 2;
    const fetch = certificates.wrap(async () => {
      throw new Error('net::ERR_CONNECTION_RESET');
    });
    const failure = await fetch('https://h.example/api/getSession', {}).catch((error: unknown) => error);
    assert.equal(findCertificateRejection(failure), null);
  });

  test('a trusted certificate is accepted although Chromium refuses it; another one on that host is CHANGED, also when Chromium trusts it', () => {
    const certificates = new PanelCertificates((hostname) => (hostname === '10.0.0.5' ? [sha256] : []));
    assert.equal(
      certificates.verify({ hostname: '10.0.0.5', certificate: { data: pem }, verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID' }),
      0,
    );
    assert.equal(certificates.verify({ hostname: '10.0.0.5', certificate: { data: otherPem }, verificationResult: 'net::OK' }), -2);
    // Another host keeps the system's rules.
    assert.equal(
      certificates.verify({ hostname: 'other.example', certificate: { data: pem }, verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID' }),
      -2,
    );
  });

  test('a certificate that cannot be read is left to Chromium', () => {
    const certificates = new PanelCertificates(() => []);
    assert.equal(certificates.verify({ hostname: 'x', certificate: { data: 'not a certificate' }, verificationResult: 'net::OK' }), -3);
  });

  test("connections are reset after each call that changes a panel's trust, also a failed one", async () => {
    let resets = 0;
    const calls: string[] = [];
    const service = {
      trustCertificate: async () => {
        calls.push('trust');
        throw new Error('refused');
      },
      forgetCertificate: async () => calls.push('forget'),
      updatePanel: async () => calls.push('update'),
      applyImport: async () => calls.push('import'),
      removePanel: async () => calls.push('remove'),
      removePanels: async () => calls.push('remove many'),
      listPanels: async () => calls.push('list'),
    } as unknown as PanelApi;
    const wrapped = withConnectionsReset(service, () => resets++);
    await assert.rejects(wrapped.trustCertificate('id', { sha256 }));
    await wrapped.forgetCertificate('id');
    await wrapped.updatePanel('id', {});
    await wrapped.applyImport('id', { duplicates: 'update' });
    await wrapped.removePanel('id');
    await wrapped.removePanels(['id']);
    await wrapped.listPanels();
    assert.deepEqual(calls, ['trust', 'forget', 'update', 'import', 'remove', 'remove many', 'list']);
    assert.equal(resets, 6);
  });
});
