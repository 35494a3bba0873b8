import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, request as httpsRequest } from 'node:https';
import { connect, type TLSSocket } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { certificateFingerprint, describeCertificate, selfSignedCertificate } from '../support/tls-certificate.ts';
import { suiteReferencePanel } from '../support/helpers.ts';
import { call, operate, tokenOf } from '../support/reference-panel/raw-client.ts';
import {
  DEMO_USER,
  demoTotp,
  newTotpSecret,
  startReferencePanel,
  TWO_FACTOR_USER,
  type DemoUser,
  type ReferencePanel,
} from '../support/reference-panel/server.ts';

/**
 * The reference panel speaks each generation exactly as the real panels do on the wire, swaps its
 * TLS certificate while running, and checks real TOTP codes.
 */

const TRPC_NULL_INPUT = '?input=%7B%22json%22%3Anull%7D';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function trpcErrorBody(code: string, number: number, httpStatus: number, message: string, path?: string) {
  return { error: { json: { message, code: number, data: { code, httpStatus, ...(path === undefined ? {} : { path }) } } } };
}

/** The token an answer carries, failing the test when it has none. */
function tokenIn(body: unknown, trpc = false): string {
  const holder = trpc ? (body as { result?: { data?: { json?: unknown } } }).result?.data?.json : body;
  const token = (holder as { token?: unknown } | undefined)?.token;
  assert.equal(typeof token, 'string', JSON.stringify(body));
  return token as string;
}

describe('the simple style (the default) is unchanged', () => {
  let panel: ReferencePanel;
  before(async () => {
    panel = await startReferencePanel({ users: [DEMO_USER, TWO_FACTOR_USER] });
  });
  after(() => panel.close());

  test('its own paths and words', async () => {
    assert.equal(panel.style, 'simple');
    const login = await call(panel, 'POST', '/api/login', { json: { email: DEMO_USER.email, password: DEMO_USER.password } });
    assert.equal(login.status, 200);
    assert.deepEqual(Object.keys(login.body as object), ['token']);
    const session = await call(panel, 'GET', '/api/getSession', { token: tokenIn(login.body) });
    const { password: _password, ...user } = DEMO_USER;
    assert.deepEqual((session.body as { user: unknown }).user, user);
    assert.deepEqual(await call(panel, 'POST', '/api/login', { json: { email: DEMO_USER.email, password: 'wrong' } }), {
      status: 401,
      contentType: 'application/json; charset=utf-8',
      body: { error: 'Invalid email or password' },
    });
    assert.deepEqual((await call(panel, 'GET', '/api/nothing')).body, { error: 'Not found' });
    assert.equal(TWO_FACTOR_USER.twoFactorCode, '246810');
    const guarded = { email: TWO_FACTOR_USER.email, password: TWO_FACTOR_USER.password };
    assert.deepEqual((await call(panel, 'POST', '/api/login', { json: guarded })).body, { twoFactorEnabled: true });
    assert.equal((await call(panel, 'POST', '/api/login', { json: { ...guarded, code: '246810' } })).status, 200);
  });
});

describe('the easypanel style (Easypanel 2.33+)', () => {
  const panel = suiteReferencePanel({ style: 'public', users: [DEMO_USER, TWO_FACTOR_USER] });
  const guarded = { email: TWO_FACTOR_USER.email, password: TWO_FACTOR_USER.password };

  test("log in answers { token }, with or without rememberMe; the session is Easypanel's, without the email", async () => {
    assert.equal(panel().style, 'public');
    const plain = await call(panel(), 'POST', '/api/login', { json: { email: DEMO_USER.email, password: DEMO_USER.password } });
    assert.equal(plain.status, 200);
    assert.deepEqual(Object.keys(plain.body as object), ['token']);
    const login = await call(panel(), 'POST', '/api/login', {
      json: { email: DEMO_USER.email, password: DEMO_USER.password, rememberMe: true },
    });
    assert.equal(login.status, 200);
    const token = tokenIn(login.body);
    assert.notEqual(token, tokenIn(plain.body));

    const session = await call(panel(), 'GET', '/api/getSession', { token });
    assert.equal(session.status, 200);
    const body = session.body as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['id', 'createdAt', 'userId', 'expiresAt', 'demoMode']);
    assert.equal(body.userId, DEMO_USER.id);
    assert.equal(body.demoMode, false);
    assert.match(String(body.id), /^\w{8,}$/);
    assert.match(String(body.createdAt), ISO);
    assert.match(String(body.expiresAt), ISO);
    assert.ok(Date.parse(String(body.expiresAt)) > Date.parse(String(body.createdAt)));
    assert.ok(!JSON.stringify(body).includes(DEMO_USER.email));
    // One session per token: the same id when read again, another for the other log in.
    const again = (await call(panel(), 'GET', '/api/getSession', { token })).body as { id: string };
    const other = (await call(panel(), 'GET', '/api/getSession', { token: tokenIn(plain.body) })).body as { id: string };
    assert.equal(again.id, body.id);
    assert.notEqual(other.id, body.id);
  });

  test('two-factor: a prompt without the code, 400 Invalid Code for a wrong one, a token for the right one', async () => {
    assert.deepEqual(await call(panel(), 'POST', '/api/login', { json: guarded }), {
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: { twoFactorEnabled: true },
    });
    assert.deepEqual(await call(panel(), 'POST', '/api/login', { json: { ...guarded, code: '135791' } }), {
      status: 400,
      contentType: 'application/json; charset=utf-8',
      body: { code: 'BAD_REQUEST', status: 400, message: 'Invalid Code' },
    });
    const right = await call(panel(), 'POST', '/api/login', { json: { ...guarded, code: '246810', rememberMe: false } });
    assert.equal(right.status, 200);
    tokenIn(right.body);
  });

  test('errors are { code, status, message }: wrong password, unknown and expired tokens, 404, 405, bad input', async () => {
    assert.deepEqual(await call(panel(), 'POST', '/api/login', { json: { email: DEMO_USER.email, password: 'wrong' } }), {
      status: 401,
      contentType: 'application/json; charset=utf-8',
      body: { code: 'UNAUTHORIZED', status: 401, message: 'Invalid credentials' },
    });
    const unauthorized = {
      status: 401,
      contentType: 'application/json; charset=utf-8',
      body: { code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' },
    };
    assert.deepEqual(await call(panel(), 'GET', '/api/getSession'), unauthorized);
    assert.deepEqual(await call(panel(), 'GET', '/api/getSession', { token: 'made-up' }), unauthorized);
    const token = tokenIn(
      (await call(panel(), 'POST', '/api/login', { json: { email: DEMO_USER.email, password: DEMO_USER.password } })).body,
    );
    assert.equal((await call(panel(), 'GET', '/api/getSession', { token })).status, 200);
    panel().expireAllTokens();
    assert.deepEqual(await call(panel(), 'GET', '/api/getSession', { token }), unauthorized);

    assert.deepEqual(await call(panel(), 'GET', '/api/nothing'), {
      status: 404,
      contentType: 'application/json; charset=utf-8',
      body: { code: 'NOT_FOUND', status: 404, message: 'Not found' },
    });
    // A 2.33 panel still answers the older tRPC route (docs/easypanel-api.md): in tRPC's words.
    const olderRoute = await call(panel(), 'POST', '/api/trpc/auth.login', { json: { json: {} } });
    assert.deepEqual(
      [olderRoute.status, (olderRoute.body as { error: { json: { data: unknown } } }).error.json.data],
      [400, { code: 'BAD_REQUEST', httpStatus: 400, path: 'auth.login' }],
    );
    const wrongMethod = await call(panel(), 'GET', '/api/login');
    assert.equal(wrongMethod.status, 405);
    assert.deepEqual(Object.keys(wrongMethod.body as object), ['code', 'status', 'message']);
    assert.equal((await call(panel(), 'POST', '/api/getSession')).status, 405);
    const badInput = await call(panel(), 'POST', '/api/login', {
      json: { email: DEMO_USER.email, password: DEMO_USER.password, rememberMe: 'yes' },
    });
    assert.deepEqual(badInput.body, {
      code: 'BAD_REQUEST',
      status: 400,
      message: 'Input validation failed',
      data: { zodErrors: { formErrors: [], fieldErrors: { rememberMe: ['Expected boolean, received string'] } } },
    });
  });

  test('faults still apply, and every request is recorded', async () => {
    const start = panel().requests.length;
    panel().setFault('login', { kind: 'rate-limited', retryAfterSeconds: 7 });
    const limited = await call(panel(), 'POST', '/api/login', { json: { email: DEMO_USER.email, password: DEMO_USER.password } });
    assert.equal(limited.status, 429);
    panel().setFault('getSession', { kind: 'bad-gateway-html' });
    const gateway = await call(panel(), 'GET', '/api/getSession', { token: 'x' });
    assert.equal(gateway.status, 502);
    assert.match(String(gateway.contentType), /text\/html/);
    assert.deepEqual(
      panel()
        .requests.slice(start)
        .map((request) => `${request.method} ${request.path}`),
      ['POST /api/login', 'GET /api/getSession'],
    );
  });
});

describe('the trpc style (Easypanel 2.30 and before)', () => {
  const panel = suiteReferencePanel({ style: 'trpc', users: [DEMO_USER, TWO_FACTOR_USER] });
  const guarded = { email: TWO_FACTOR_USER.email, password: TWO_FACTOR_USER.password };
  const logIn = (json: unknown) => call(panel(), 'POST', '/api/trpc/auth.login', { json: { json } });

  test('log in and session in tRPC result envelopes; the input query may be left out', async () => {
    assert.equal(panel().style, 'trpc');
    const login = await logIn({ email: DEMO_USER.email, password: DEMO_USER.password });
    assert.equal(login.status, 200);
    const token = tokenIn(login.body, true);
    assert.deepEqual(login.body, { result: { data: { json: { token } } } });

    for (const query of [TRPC_NULL_INPUT, '']) {
      const session = await call(panel(), 'GET', `/api/trpc/auth.getSession${query}`, { token });
      assert.equal(session.status, 200);
      const inner = (session.body as { result: { data: { json: Record<string, unknown> } } }).result.data.json;
      assert.deepEqual(Object.keys(session.body as object), ['result']);
      assert.deepEqual(Object.keys(inner), ['id', 'createdAt', 'userId', 'expiresAt', 'demoMode']);
      assert.equal(inner.userId, DEMO_USER.id);
      assert.equal(inner.demoMode, false);
      assert.match(String(inner.expiresAt), ISO);
    }
    assert.equal(panel().requests.at(-2)?.path, `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`);
    assert.deepEqual(JSON.parse(panel().requests.find((request) => request.path === '/api/trpc/auth.login')?.body ?? ''), {
      json: { email: DEMO_USER.email, password: DEMO_USER.password },
    });
  });

  test('two-factor: the prompt in an envelope, a wrong code a BAD_REQUEST, the right code a token', async () => {
    assert.deepEqual(await logIn(guarded), {
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: { result: { data: { json: { twoFactorEnabled: true } } } },
    });
    const wrong = await logIn({ ...guarded, code: '135791' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, trpcErrorBody('BAD_REQUEST', -32600, 400, 'Invalid Code', 'auth.login'));
    tokenIn((await logIn({ ...guarded, code: '246810' })).body, true);
  });

  test('errors: the status is the httpStatus and the body a tRPC error envelope', async () => {
    const wrongPassword = await logIn({ email: DEMO_USER.email, password: 'wrong' });
    assert.equal(wrongPassword.status, 401);
    assert.deepEqual(wrongPassword.body, trpcErrorBody('UNAUTHORIZED', -32001, 401, 'Invalid credentials', 'auth.login'));

    const unauthorized = trpcErrorBody('UNAUTHORIZED', -32001, 401, 'Unauthorized', 'auth.getSession');
    const anonymous = await call(panel(), 'GET', `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`);
    assert.deepEqual([anonymous.status, anonymous.body], [401, unauthorized]);
    const token = tokenIn((await logIn({ email: DEMO_USER.email, password: DEMO_USER.password })).body, true);
    assert.equal((await call(panel(), 'GET', `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`, { token })).status, 200);
    panel().expireAllTokens();
    const expired = await call(panel(), 'GET', `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`, { token });
    assert.deepEqual([expired.status, expired.body], [401, unauthorized]);

    const badInput = await logIn({ email: DEMO_USER.email });
    assert.deepEqual(
      [badInput.status, (badInput.body as { error: { json: { data: unknown } } }).error.json.data],
      [400, { code: 'BAD_REQUEST', httpStatus: 400, path: 'auth.login' }],
    );
    const unknownProcedure = await call(panel(), 'GET', '/api/trpc/auth.nothing');
    assert.deepEqual(
      [unknownProcedure.status, unknownProcedure.body],
      [404, trpcErrorBody('NOT_FOUND', -32004, 404, 'No "query"-procedure on path "auth.nothing"', 'auth.nothing')],
    );
  });

  test('the plain paths of 2.33+ do not exist: 404 with a tRPC NOT_FOUND envelope', async () => {
    const notFound = trpcErrorBody('NOT_FOUND', -32004, 404, 'Not found');
    const login = await call(panel(), 'POST', '/api/login', { json: { email: DEMO_USER.email, password: DEMO_USER.password } });
    assert.deepEqual([login.status, login.body], [404, notFound]);
    const session = await call(panel(), 'GET', '/api/getSession', { token: 'anything' });
    assert.deepEqual([session.status, session.body], [404, notFound]);
  });

  test('a procedure called with the wrong method: 405 METHOD_NOT_SUPPORTED', async () => {
    const getLogin = await call(panel(), 'GET', '/api/trpc/auth.login');
    assert.equal(getLogin.status, 405);
    assert.deepEqual(
      getLogin.body,
      trpcErrorBody(
        'METHOD_NOT_SUPPORTED',
        -32005,
        405,
        'Unsupported GET-request to mutation procedure at path "auth.login"',
        'auth.login',
      ),
    );
    const postSession = await call(panel(), 'POST', '/api/trpc/auth.getSession', { json: { json: null } });
    assert.equal(postSession.status, 405);
    assert.equal((postSession.body as { error: { json: { data: { code: string } } } }).error.json.data.code, 'METHOD_NOT_SUPPORTED');
  });

  test('faults set on login and getSession apply to auth.login and auth.getSession', async () => {
    const start = panel().requests.length;
    panel().setFault('login', { kind: 'server-error' });
    assert.equal((await logIn({ email: DEMO_USER.email, password: DEMO_USER.password })).status, 500);
    assert.equal(
      (await call(panel(), 'POST', '/api/login', { json: {} })).status,
      404,
      'the fault is on the procedure, not the plain path',
    );
    panel().setFault('login', null);
    const token = tokenIn((await logIn({ email: DEMO_USER.email, password: DEMO_USER.password })).body, true);

    panel().setFault('getSession', {
      kind: 'status',
      status: 429,
      body: trpcErrorBody('TOO_MANY_REQUESTS', -32029, 429, 'Too many requests'),
    });
    const limited = await call(panel(), 'GET', `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`, { token });
    assert.deepEqual([limited.status, limited.body], [429, trpcErrorBody('TOO_MANY_REQUESTS', -32029, 429, 'Too many requests')]);
    panel().setFault('getSession', { kind: 'latency', ms: 150 });
    // The answer comes after a 100 ms timer set beside the request: the latency held it back.
    const order: string[] = [];
    const timer = new Promise<void>((resolve) => setTimeout(resolve, 100)).then(() => order.push('timer'));
    const answered = call(panel(), 'GET', `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`, { token }).then((answer) => {
      order.push('answer');
      return answer;
    });
    assert.equal((await answered).status, 200);
    await timer;
    assert.deepEqual(order, ['timer', 'answer']);
    panel().setFault('getSession', { kind: 'redirect', to: `/api/v2/trpc/auth.getSession${TRPC_NULL_INPUT}`, status: 307 });
    assert.equal(
      (await call(panel(), 'GET', `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`, { token })).status,
      200,
      'the same-origin redirect target answers',
    );

    assert.equal(panel().requests.length - start, 7);
    assert.deepEqual(
      panel()
        .requests.slice(start, start + 2)
        .map((request) => `${request.method} ${request.path}`),
      ['POST /api/trpc/auth.login', 'POST /api/login'],
    );
  });
});

describe('real TOTP codes', () => {
  const secret = newTotpSecret();
  const user: DemoUser = {
    id: 'usr_2001',
    email: 'totp@paneldeck.test',
    password: 'totp-password',
    name: 'TOTP Operator',
    role: 'admin',
    totpSecret: secret,
  };
  const credentials = { email: user.email, password: user.password };
  const totp = demoTotp(secret);
  /** A code no counter near now gives, so a refusal is certain. */
  const wrongCode = () => {
    const near = new Set([-2, -1, 0, 1, 2].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
    return ['000000', '111111', '222222'].find((code) => !near.has(code)) ?? '333333';
  };

  test('a secret is base32 of 20 bytes and gives 6-digit SHA-1 codes every 30 s', () => {
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.match(totp.generate(), /^\d{6}$/);
    assert.match(totp.toString(), /^otpauth:\/\/totp\/.*secret=[A-Z2-7]{32}&algorithm=SHA1&digits=6&period=30$/);
  });

  for (const style of ['simple', 'public', 'rpc', 'trpc'] as const) {
    test(`${style}: the current code and the previous step's are accepted; an old or wrong one is refused`, async () => {
      const panel = await startReferencePanel({ style, users: [user] });
      try {
        const via = style === 'trpc' ? 'trpc' : style === 'rpc' ? 'rpc' : 'public';
        const logIn = (code?: string) => operate(panel, via, 'login', { ...credentials, code });
        const prompt = await logIn();
        assert.equal(prompt.status, 200);
        assert.equal(JSON.stringify(prompt.body).includes('"twoFactorEnabled":true'), true);
        tokenOf(via, await logIn(totp.generate()));
        tokenOf(via, await logIn(totp.generate({ timestamp: Date.now() - 30_000 })));
        for (const refused of [
          wrongCode(),
          totp.generate({ timestamp: Date.now() - 5 * 60_000 }),
          demoTotp(newTotpSecret()).generate(),
          '246810',
        ]) {
          const near = new Set([-1, 0, 1].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
          if (near.has(refused)) continue; // one in a hundred thousand: another secret's code can match
          const answer = await logIn(refused);
          assert.equal(answer.status, 400, `${refused}: ${JSON.stringify(answer.body)}`);
          assert.match(JSON.stringify(answer.body), /Invalid Code/);
        }
        assert.equal(panel.issuedTokens().length, 2);
      } finally {
        await panel.close();
      }
    });
  }

  test('the secret is not in the session answer', async () => {
    const panel = await startReferencePanel({ users: [user] });
    try {
      const token = tokenIn((await call(panel, 'POST', '/api/login', { json: { ...credentials, code: totp.generate() } })).body);
      const session = await call(panel, 'GET', '/api/getSession', { token });
      assert.equal(session.status, 200);
      assert.ok(!JSON.stringify(session.body).includes(secret));
    } finally {
      await panel.close();
    }
  });
});

describe('self-signed certificates', () => {
  test("two certificates differ; the fingerprint is Node's SHA-256 form; describeCertificate reads them", async () => {
    const first = await selfSignedCertificate();
    const second = await selfSignedCertificate({ commonName: 'renewed.paneldeck.test' });
    const fingerprint = certificateFingerprint(first.cert);
    assert.match(fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.notEqual(fingerprint, certificateFingerprint(second.cert));
    const described = describeCertificate(second.cert);
    assert.equal(described.sha256, certificateFingerprint(second.cert));
    assert.equal(described.subject, 'CN=renewed.paneldeck.test');
    assert.equal(described.issuer, 'CN=renewed.paneldeck.test');
    assert.equal(describeCertificate(first.cert).subject, 'CN=127.0.0.1');
    assert.match(described.validFrom, ISO);
    assert.match(described.validTo, ISO);
    assert.ok(Date.parse(described.validFrom) <= Date.now() && Date.now() < Date.parse(described.validTo));
  });
});

describe('swapping the TLS certificate of a running panel', () => {
  let first: { key: string; cert: string };
  let second: { key: string; cert: string };
  before(async () => {
    first = await selfSignedCertificate();
    second = await selfSignedCertificate({ commonName: 'renewed.paneldeck.test' });
  });

  /** The fingerprint a fresh TLS connection is shown. */
  async function presented(panel: ReferencePanel): Promise<string> {
    const socket = connect({ host: '127.0.0.1', port: panel.port, rejectUnauthorized: false });
    try {
      await once(socket, 'secureConnect');
      return socket.getPeerCertificate().fingerprint256;
    } finally {
      socket.destroy();
    }
  }

  /**
   * A kept-alive connection spoken to by hand, so that only the panel can close it (an http Agent
   * also drops its idle connections by itself).
   */
  async function openConnection(panel: ReferencePanel) {
    const socket = connect({ host: '127.0.0.1', port: panel.port, rejectUnauthorized: false });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await once(socket, 'secureConnect');
    let buffered = '';
    let waiting: (() => void) | null = null;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      waiting?.();
    });
    return {
      fingerprint: socket.getPeerCertificate().fingerprint256,
      /** Resolves when the panel closes the connection; fails the test after `ms`. */
      closedWithin: (ms: number) =>
        Promise.race([
          closed,
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error(`the panel kept the connection open for ${ms} ms`)), ms).unref(),
          ),
        ]),
      get: async (path: string): Promise<{ status: number; head: string; body: string }> => {
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
        for (;;) {
          const end = buffered.indexOf('\r\n\r\n');
          const length = Number(/content-length: (\d+)/i.exec(buffered)?.[1] ?? NaN);
          if (end >= 0 && buffered.length >= end + 4 + length) {
            const head = buffered.slice(0, end);
            const body = buffered.slice(end + 4, end + 4 + length);
            buffered = buffered.slice(end + 4 + length);
            return { status: Number(head.split(' ')[1]), head, body };
          }
          if (socket.destroyed) throw new Error('the connection closed before the answer');
          await new Promise<void>((resolve) => {
            waiting = resolve;
            socket.once('close', resolve);
          });
        }
      },
      destroy: () => socket.destroy(),
    };
  }

  /** A GET on a new connection through `agent`, which offers the TLS session it cached to resume. */
  function get(agent: Agent, panel: ReferencePanel, path: string): Promise<{ status: number; fingerprint: string; resumed: boolean }> {
    return new Promise((resolve, reject) => {
      const request = httpsRequest(`${panel.url}${path}`, { agent, rejectUnauthorized: false }, (response) => {
        const socket = response.socket as TLSSocket;
        const seen = {
          status: response.statusCode ?? 0,
          fingerprint: socket.getPeerCertificate().fingerprint256,
          resumed: socket.isSessionReused(),
        };
        response.resume();
        response.on('end', () => resolve(seen));
      });
      request.on('error', reject);
      request.end();
    });
  }

  test('new connections see the new certificate; idle and kept-alive ones are closed by the panel', async () => {
    const panel = await startReferencePanel({ tls: first, style: 'public' });
    const idle = await openConnection(panel);
    const keptAlive = await openConnection(panel);
    try {
      assert.equal(await presented(panel), certificateFingerprint(first.cert));
      assert.equal(idle.fingerprint, certificateFingerprint(first.cert));
      assert.equal((await keptAlive.get('/api/getSession')).status, 401);
      assert.equal((await keptAlive.get('/api/getSession')).status, 401, 'the connection is kept alive');

      await panel.setCertificate(second);
      await idle.closedWithin(2000);
      await keptAlive.closedWithin(2000);
      assert.equal(await presented(panel), certificateFingerprint(second.cert));
      const fresh = await openConnection(panel);
      assert.equal(fresh.fingerprint, certificateFingerprint(second.cert));
      assert.equal((await fresh.get('/api/getSession')).status, 401);
      fresh.destroy();
    } finally {
      idle.destroy();
      keptAlive.destroy();
      await panel.close();
    }
  });

  test('a cached TLS session is not resumed after the swap: the client gets a full handshake and the new certificate', async () => {
    const panel = await startReferencePanel({ tls: first });
    const agent = new Agent({ keepAlive: false, maxCachedSessions: 10 });
    try {
      const one = await get(agent, panel, '/api/getSession');
      const two = await get(agent, panel, '/api/getSession');
      assert.equal(one.fingerprint, certificateFingerprint(first.cert));
      assert.equal(two.resumed, true, 'the agent resumes sessions (else this test proves nothing)');
      await panel.setCertificate(second);
      const after = await get(agent, panel, '/api/getSession');
      assert.equal(after.status, 401);
      assert.equal(after.resumed, false);
      assert.equal(after.fingerprint, certificateFingerprint(second.cert));
    } finally {
      agent.destroy();
      await panel.close();
    }
  });

  test("once setCertificate has resolved, a keep-alive client's next request goes out on a new connection", async () => {
    const panel = await startReferencePanel({ tls: first });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let round = 0; round < 5; round++) {
        const [old, fresh] = round % 2 === 0 ? [first, second] : [second, first];
        const before = await get(agent, panel, '/api/getSession');
        assert.equal(before.fingerprint, certificateFingerprint(old.cert));
        await panel.setCertificate(fresh);
        const after = await get(agent, panel, '/api/getSession');
        assert.equal(after.status, 401);
        assert.equal(after.fingerprint, certificateFingerprint(fresh.cert));
      }
    } finally {
      agent.destroy();
      await panel.close();
    }
  });

  test('a connection busy at the swap finishes its answer, then the panel closes it', async () => {
    const panel = await startReferencePanel({ tls: first });
    const connection = await openConnection(panel);
    try {
      panel.setFault('getSession', { kind: 'latency', ms: 300 });
      const pending = connection.get('/api/getSession');
      while (panel.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await panel.setCertificate(second);
      const answered = await pending;
      assert.equal(answered.status, 401, answered.body);
      assert.deepEqual(JSON.parse(answered.body), { error: 'Not authenticated' });
      await connection.closedWithin(2000);
    } finally {
      connection.destroy();
      await panel.close();
    }
  });

  test('an http panel has no certificate to swap; a non-certificate is refused', async () => {
    const http = await startReferencePanel();
    try {
      assert.throws(() => http.setCertificate(second), /serves plain http.*tls/);
    } finally {
      await http.close();
    }
    const tls = await startReferencePanel({ tls: first });
    try {
      assert.throws(() => tls.setCertificate({ key: first.key, cert: 'not a certificate' }), /not a PEM certificate/);
      assert.equal(await presented(tls), certificateFingerprint(first.cert));
    } finally {
      await tls.close();
    }
  });
});
