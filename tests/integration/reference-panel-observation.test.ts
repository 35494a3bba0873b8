import assert from 'node:assert/strict';
import { Agent, request as httpsRequest } from 'node:https';
import { after, before, describe, test } from 'node:test';
import { call, DEMO_CREDENTIALS, operate, tokenOf, withReferencePanel } from '../support/reference-panel/raw-client.ts';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';

/**
 * What the reference panel tells a test about what it was sent: the certificate each request's
 * connection was made with (so a test can say which certificate a server presented when a token
 * reached it), and whether it still accepts a token (so a test can see a session ended at the panel).
 */

/** A GET over https through `agent`, accepting any certificate: the status. */
function get(agent: Agent, panel: ReferencePanel, path: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${panel.url}${path}`,
      { agent, rejectUnauthorized: false, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('each recorded request names the certificate its connection was made with', () => {
  let first: { key: string; cert: string };
  let second: { key: string; cert: string };
  before(async () => {
    first = await selfSignedCertificate();
    second = await selfSignedCertificate({ commonName: 'attacker.paneldeck.test' });
  });

  test('over TLS: the certificate presented then, before and after a swap, also on a kept-alive connection', async () => {
    const panel = await startReferencePanel({ tls: first, style: 'public' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await get(agent, panel, '/api/getSession', 'one');
      await get(agent, panel, '/api/getSession', 'two');
      await panel.setCertificate(second);
      await get(agent, panel, '/api/getSession', 'three');
      assert.deepEqual(
        panel.requests.map((request) => [request.headers.authorization, request.certificate]),
        [
          ['Bearer one', certificateFingerprint(first.cert)],
          ['Bearer two', certificateFingerprint(first.cert)],
          ['Bearer three', certificateFingerprint(second.cert)],
        ],
      );
    } finally {
      agent.destroy();
      await panel.close();
    }
  });

  test('over plain http: null', () =>
    withReferencePanel({}, async (panel) => {
      await call(panel, 'GET', '/api/getSession');
      assert.equal(panel.requests[0]?.certificate, null);
    }));
});

describe('acceptsToken says whether the panel lets a token in now', () => {
  let panel: ReferencePanel;
  before(async () => {
    panel = await startReferencePanel({ style: 'public' });
  });
  after(() => panel.close());

  test('a fresh session yes; after its log out, after expiry, or never issued, no; an API token yes until revoked', async () => {
    const ended = tokenOf('public', await operate(panel, 'public', 'login', DEMO_CREDENTIALS));
    const expiring = tokenOf('public', await operate(panel, 'public', 'login', DEMO_CREDENTIALS));
    assert.equal(panel.acceptsToken(ended), true);
    assert.equal(panel.acceptsToken(expiring), true);
    await operate(panel, 'public', 'logout', undefined, ended);
    assert.equal(panel.logouts.at(-1)?.token, ended);
    assert.equal(panel.acceptsToken(ended), false);
    assert.equal(panel.acceptsToken(expiring), true, 'a log out ends only its own session');
    panel.expireAllTokens();
    assert.equal(panel.acceptsToken(expiring), false);
    assert.equal(panel.acceptsToken('never-issued'), false);
    const apiToken = panel.createApiToken();
    assert.equal(panel.acceptsToken(apiToken), true);
    panel.revokeApiToken();
    assert.equal(panel.acceptsToken(apiToken), false);
  });
});
