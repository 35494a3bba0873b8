import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { describeConnectionFailure } from '../../../../electron/core/net/connection-errors.ts';
import { sendRequest, type HttpRequest } from '../../../../electron/core/net/http-client.ts';
import { rejectsWith } from '../../../support/helpers.ts';
import { startReferencePanel, type ReferencePanel } from '../../../support/reference-panel/server.ts';
import { selfSignedCertificate } from '../../../support/tls-certificate.ts';

const get = (url: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'GET',
  url,
  headers: { authorization: 'Bearer secret-token-value', accept: 'application/json' },
  timeoutMs: 2000,
  maxBytes: 64 * 1024,
  secrets: ['secret-token-value'],
  ...extra,
});

describe('sendRequest against real servers on loopback', () => {
  let panel: ReferencePanel;
  let other: ReferencePanel;
  before(async () => {
    [panel, other] = await Promise.all([startReferencePanel(), startReferencePanel()]);
  });
  after(() => Promise.all([panel.close(), other.close()]));

  test('reads a normal answer with status, type and body', async () => {
    const response = await sendRequest(fetch, get(`${panel.baseUrl}/getSession`));
    assert.equal(response.status, 401);
    assert.match(response.contentType, /application\/json/);
    assert.deepEqual(JSON.parse(response.text), { error: 'Not authenticated' });
  });

  test('a slow answer fails with TIMEOUT after the limit', async () => {
    panel.setFault('getSession', { kind: 'latency', ms: 5000 });
    try {
      // Without the timeout the answer (a 401) would arrive after 5 s: a TIMEOUT naming 0.3 s is the proof, no clock needed.
      await rejectsWith(
        sendRequest(fetch, get(`${panel.baseUrl}/getSession`, { timeoutMs: 300 })),
        'TIMEOUT',
        /did not answer within 0\.3 s/,
      );
    } finally {
      panel.setFault('getSession', null);
    }
  });

  test('a body that never ends fails with TIMEOUT, not a hang', async () => {
    panel.setFault('getSession', { kind: 'never-ending-body' });
    try {
      await rejectsWith(sendRequest(fetch, get(`${panel.baseUrl}/getSession`, { timeoutMs: 500 })), 'TIMEOUT');
    } finally {
      panel.setFault('getSession', null);
    }
  });

  test('a huge body fails with RESPONSE_TOO_LARGE while streaming (no Content-Length)', async () => {
    panel.setFault('getSession', { kind: 'huge-body', bytes: 4 * 1024 * 1024 });
    try {
      await rejectsWith(sendRequest(fetch, get(`${panel.baseUrl}/getSession`)), 'RESPONSE_TOO_LARGE', /larger than 64\.0 KiB/);
    } finally {
      panel.setFault('getSession', null);
    }
  });

  test('a declared Content-Length over the cap fails before reading', async () => {
    panel.setFault('getSession', { kind: 'status', status: 200, body: { big: 'y'.repeat(100_000) } });
    try {
      await rejectsWith(sendRequest(fetch, get(`${panel.baseUrl}/getSession`)), 'RESPONSE_TOO_LARGE');
    } finally {
      panel.setFault('getSession', null);
    }
  });

  test('a cross-origin redirect is refused and the other origin never receives the request', async () => {
    panel.setFault('getSession', { kind: 'redirect', to: `${other.baseUrl}/getSession`, status: 307 });
    try {
      await rejectsWith(sendRequest(fetch, get(`${panel.baseUrl}/getSession`)), 'REDIRECT_REFUSED', new RegExp(other.url));
      assert.equal(other.requests.length, 0);
    } finally {
      panel.setFault('getSession', null);
    }
  });

  test('a same-origin redirect is followed, with its headers', async () => {
    panel.setFault('getSession', { kind: 'redirect', to: '/api/v2/getSession', status: 301 });
    try {
      const response = await sendRequest(fetch, get(`${panel.baseUrl}/getSession`));
      assert.equal(response.url, `${panel.baseUrl}/v2/getSession`);
      assert.equal(response.status, 401);
      const last = panel.requests.at(-1);
      assert.equal(last?.path, '/api/v2/getSession');
      assert.equal(last?.headers.authorization, 'Bearer secret-token-value');
    } finally {
      panel.setFault('getSession', null);
    }
  });

  test('a 307 keeps a POST body; a 302 after POST continues as GET', async () => {
    panel.setFault('login', { kind: 'redirect', to: '/api/v2/login', status: 307 });
    const post = get(`${panel.baseUrl}/login`, {
      method: 'POST',
      body: '{"email":"a","password":"b"}',
      headers: { 'content-type': 'application/json' },
    });
    try {
      assert.equal((await sendRequest(fetch, post)).status, 401);
      assert.equal(panel.requests.at(-1)?.body, '{"email":"a","password":"b"}');
      panel.setFault('login', { kind: 'redirect', to: '/api/v2/login', status: 302 });
      assert.equal((await sendRequest(fetch, post)).status, 405);
      assert.equal(panel.requests.at(-1)?.method, 'GET');
    } finally {
      panel.setFault('login', null);
    }
  });

  test('a redirect loop stops with REDIRECT_REFUSED', async () => {
    panel.setFault('getSession', { kind: 'redirect', to: '/api/getSession' });
    try {
      await rejectsWith(sendRequest(fetch, get(`${panel.baseUrl}/getSession`)), 'REDIRECT_REFUSED', /more than 5 times/);
    } finally {
      panel.setFault('getSession', null);
    }
  });
});

describe('limits that hold whatever the server or fetch does', () => {
  test('follows five same-origin redirects and refuses the sixth', async () => {
    // /hop/N redirects to /hop/N-1; /hop/0 answers.
    const server = createServer((request, response) => {
      const left = Number(/^\/hop\/(\d+)$/.exec(request.url ?? '')?.[1] ?? 0);
      if (left > 0) response.writeHead(302, { location: `/hop/${left - 1}` }).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"arrived":true}');
    });
    const port = await listen(server);
    try {
      const response = await sendRequest(fetch, get(`http://127.0.0.1:${port}/hop/5`));
      assert.equal(response.url, `http://127.0.0.1:${port}/hop/0`);
      assert.deepEqual(JSON.parse(response.text), { arrived: true });
      await rejectsWith(sendRequest(fetch, get(`http://127.0.0.1:${port}/hop/6`)), 'REDIRECT_REFUSED', /more than 5 times/);
    } finally {
      server.close();
    }
  });

  test('the deadline holds for a fetch that ignores the abort signal, before and after the headers', async () => {
    const neverAnswers = () => new Promise<Response>(() => undefined);
    const neverFinishesBody = async () =>
      new Response(new ReadableStream({ pull: () => new Promise<void>(() => undefined) }), { status: 200 });
    for (const stuckFetch of [neverAnswers, neverFinishesBody]) {
      await rejectsWith(sendRequest(stuckFetch, get('https://panel.example.com/api/getSession', { timeoutMs: 200 })), 'TIMEOUT', /0\.2 s/);
    }
  });
});

describe('connection failures are told apart', () => {
  test('a closed port: NETWORK, "refused the connection"', async () => {
    const port = await freePort();
    await rejectsWith(sendRequest(fetch, get(`http://127.0.0.1:${port}/api/getSession`)), 'NETWORK', /refused the connection/);
  });

  test('an unknown host: NETWORK, "does not resolve"', async () => {
    await rejectsWith(sendRequest(fetch, get('https://paneldeck-test.invalid/api/getSession')), 'NETWORK', /does not resolve/);
  });

  test('a connection the server drops: NETWORK, "closed before the panel answered"', async () => {
    const server = createServer((request) => request.socket.destroy());
    const port = await listen(server);
    try {
      await rejectsWith(sendRequest(fetch, get(`http://127.0.0.1:${port}/api/getSession`)), 'NETWORK', /closed before/);
    } finally {
      server.close();
    }
  });

  test('a self-signed certificate: TLS, and the request never reaches the server', async () => {
    const panel = await startReferencePanel({ tls: await selfSignedCertificate() });
    try {
      await rejectsWith(sendRequest(fetch, get(`${panel.baseUrl}/getSession`)), 'TLS', /self-signed/);
      assert.equal(panel.requests.length, 0);
    } finally {
      await panel.close();
    }
  });

  test('https to a plain-http port: TLS, asking whether it serves plain http', async () => {
    const panel = await startReferencePanel();
    try {
      await rejectsWith(sendRequest(fetch, get(`https://127.0.0.1:${panel.port}/api/getSession`)), 'TLS', /plain http/);
    } finally {
      await panel.close();
    }
  });

  test("Chromium's network errors (net.request, net.fetch) are read from their net::ERR_ messages", () => {
    const url = new URL('https://panel.example.com/api/getSession');
    const cases: [string, string, RegExp][] = [
      ['net::ERR_NAME_NOT_RESOLVED', 'NETWORK', /does not resolve/],
      ['net::ERR_CONNECTION_REFUSED', 'NETWORK', /refused/],
      ['net::ERR_CERT_DATE_INVALID', 'TLS', /expired/],
      ['net::ERR_CERT_COMMON_NAME_INVALID', 'TLS', /another domain/],
      ['net::ERR_CERT_AUTHORITY_INVALID', 'TLS', /does not trust/],
      ['net::ERR_CONNECTION_TIMED_OUT', 'TIMEOUT', /timed out/],
      ['net::ERR_INTERNET_DISCONNECTED', 'NETWORK', /cannot be reached/],
      // net.fetch with redirect: 'manual' fails like this instead of returning the 3xx.
      ['Redirect was cancelled', 'REDIRECT_REFUSED', /did not follow/],
    ];
    for (const [message, code, pattern] of cases) {
      const error = describeConnectionFailure(new Error(message), url);
      assert.equal(error.code, code, message);
      assert.match(error.message, pattern, message);
    }
  });
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
