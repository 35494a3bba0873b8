import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { findCertificateRejection } from '../../../electron/core/net/certificate-trust.ts';
import { describeConnectionFailure } from '../../../electron/core/net/connection-errors.ts';
import { closeConnectionsOnTrustChange, PanelCertificates, panelPartition } from '../../../electron/main/panel-certificates.ts';
import { suiteCore } from '../../support/helpers.ts';
import { certificateFingerprint, selfSignedCertificate } from '../../support/tls-certificate.ts';

/**
 * The app's certificate check, as Electron's verify proc calls it, with real certificates. Electron
 * itself cannot run here: what Chromium does with the answers (-2 refuses, -3 keeps its verdict,
 * 0 accepts) is Electron's documented contract, not tested on this machine.
 */

describe("PanelCertificates (the app's verify proc)", () => {
  const suite = suiteCore();
  let pem: string;
  let sha256: string;
  let otherPem: string;
  before(async () => {
    pem = (await selfSignedCertificate()).cert;
    sha256 = certificateFingerprint(pem);
    otherPem = (await selfSignedCertificate({ commonName: 'other.paneldeck.test' })).cert;
  });

  const untrusted = (hostname: string, data: string) => ({
    hostname,
    certificate: { data },
    verificationResult: 'net::ERR_CERT_AUTHORITY_INVALID',
  });
  const failing = (message: string) => () => async (): Promise<Response> => {
    throw new Error(message);
  };

  test("no trusted certificate: Chromium's verdict stands for what it trusts, an untrusted one is refused and remembered", async () => {
    let clock = 0;
    const certificates = new PanelCertificates(() => clock);
    const verify = certificates.verifierFor(null);
    assert.equal(verify({ hostname: 'panel.example.com', certificate: { data: pem }, verificationResult: 'net::OK' }), -3);
    clock = 5;
    assert.equal(verify(untrusted('10.0.0.5', pem)), -2);

    // The request that failed meanwhile carries the refusal, and the core words it with the certificate.
    clock = 4;
    const fetch = certificates.wrap(failing('net::ERR_CERT_AUTHORITY_INVALID'));
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
    const certificates = new PanelCertificates(() => clock);
    certificates.verifierFor(null)(untrusted('h.example', pem));
    clock = 2;
    const fetch = certificates.wrap(failing('net::ERR_CONNECTION_RESET'));
    const failure = await fetch('https://h.example/api/getSession', {}).catch((error: unknown) => error);
    assert.equal(findCertificateRejection(failure), null);
  });

  test('a pinned certificate is accepted although Chromium refuses it; another one is CHANGED, also when Chromium trusts it', () => {
    const verify = new PanelCertificates().verifierFor(sha256);
    assert.equal(verify(untrusted('10.0.0.5', pem)), 0);
    assert.equal(verify({ hostname: '10.0.0.5', certificate: { data: otherPem }, verificationResult: 'net::OK' }), -2);
    // Panels pinning nothing keep the system's rules, on that host too.
    assert.equal(new PanelCertificates().verifierFor(null)(untrusted('10.0.0.5', pem)), -2);
  });

  test('a pin belongs to its panel: another panel on the host (another port, no pin) never accepts it', () => {
    // An import added panel.example:8443 pinning the attacker's certificate; panel.example pins nothing.
    const attacker = certificateFingerprint(otherPem);
    assert.notEqual(panelPartition(attacker), panelPartition(null));
    assert.notEqual(panelPartition(attacker), panelPartition(sha256));
    assert.equal(panelPartition(sha256), panelPartition(sha256.toLowerCase()));
    const certificates = new PanelCertificates();
    // The partition each request goes through is its own panel's pin's.
    const partitions: string[] = [];
    const fetch = certificates.wrap((pin) => async () => {
      partitions.push(panelPartition(pin));
      return new Response('{}');
    });
    return (async () => {
      await fetch('https://panel.example/api/getSession', {}, { trustedCertificate: null });
      await fetch('https://panel.example:8443/api/getSession', {}, { trustedCertificate: attacker });
      assert.deepEqual(partitions, [panelPartition(null), panelPartition(attacker)]);
      // In the unpinned panel's partition, the attacker's certificate is judged by the system alone.
      assert.equal(certificates.verifierFor(null)(untrusted('panel.example', otherPem)), -2);
      assert.equal(certificates.verifierFor(attacker)(untrusted('panel.example', otherPem)), 0);
    })();
  });

  test("another panel's refusal on the same host is not blamed on this panel's request", async () => {
    let clock = 1;
    const certificates = new PanelCertificates(() => clock);
    // A pinned panel's partition refused a certificate on the host while an unpinned panel's request ran.
    const pinnedFetch = certificates.wrap(failing('net::ERR_FAILED'));
    const request = pinnedFetch('https://panel.example/api/getSession', {}, { trustedCertificate: null }).catch((error: unknown) => error);
    clock = 2;
    certificates.verifierFor(sha256)(untrusted('panel.example', otherPem));
    assert.equal(findCertificateRejection(await request), null);
    // Two certificates refused for the host in one partition during the request: which was this
    // request's cannot be told, so neither is named (and none can be trusted from this error).
    clock = 3;
    const both = certificates.wrap(() => async () => {
      const verify = certificates.verifierFor(null);
      verify(untrusted('shared.example', pem));
      verify(untrusted('shared.example', otherPem));
      throw new Error('net::ERR_FAILED');
    });
    const failure = await both('https://shared.example:8443/api/getSession', {}).catch((error: unknown) => error);
    assert.equal(findCertificateRejection(failure), null);
    assert.match((failure as Error).message, /ERR_FAILED/);
  });

  test('a certificate that cannot be read is left to Chromium', () => {
    const verify = new PanelCertificates().verifierFor(null);
    assert.equal(verify({ hostname: 'x', certificate: { data: 'not a certificate' }, verificationResult: 'net::OK' }), -3);
  });

  test("connections are reset after each call that changes a panel's trust, also a failed one", async () => {
    let resets = 0;
    const calls: string[] = [];
    const core = suite();
    // The panels' sessions as main holds them: each reset closes their connections.
    const stop = closeConnectionsOnTrustChange(core, () => [{ closeAllConnections: async () => void resets++ }]);
    const one = await core.addPanel({ address: 'trust-one.example.com' });
    const two = await core.addPanel({ address: 'trust-two.example.com' });
    const preview = await core.previewImport({ from: 'text', text: 'trust-three.example.com' });
    assert.ok(preview);
    const call = async (name: string, run: () => Promise<unknown>) => {
      try {
        await run();
      } finally {
        calls.push(name);
      }
    };
    // Refused: this panel presented no certificate. Told all the same, as every such call is.
    await assert.rejects(call('trust', () => core.trustCertificate(one.id, { sha256 })));
    await call('forget', () => core.forgetCertificate(one.id));
    await call('update', () => core.updatePanel(one.id, {}));
    await call('import', () => core.applyImport(preview.id, { duplicates: 'update' }));
    await call('remove', () => core.removePanel(one.id));
    await call('remove many', () => core.removePanels([two.id]));
    await call('list', () => core.listPanels());
    stop();
    assert.deepEqual(calls, ['trust', 'forget', 'update', 'import', 'remove', 'remove many', 'list']);
    assert.equal(resets, 6);
  });
});
