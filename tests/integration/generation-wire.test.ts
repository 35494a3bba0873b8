import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { readTrpcAnswer, withTrpcStatus } from '../../electron/core/easypanel/generation-wire.ts';
import { lastNonVersionRequest, rejectsWith, suiteReferencePanel, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, TWO_FACTOR_USER, type ReferencePanel } from '../support/reference-panel/server.ts';

/**
 * The two ways Easypanel speaks its API, against the reference panel's Easypanel (2.33+) and tRPC
 * (2.30 and before) modes: a plain log in that finds no login tries tRPC once and remembers it,
 * tRPC envelopes are unwrapped, and tRPC errors mean what the same plain errors mean.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const TRPC_NULL_INPUT = '?input=%7B%22json%22%3Anull%7D';

function coreSuite() {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  beforeEach(async () => {
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 4000 });
  });
  afterEach(async () => {
    await core.flush();
    await dir.cleanup();
  });
  return () => core;
}

describe('an Easypanel 2.33+ panel (plain API)', () => {
  const panel = suiteReferencePanel({ style: 'public', users: [DEMO_USER, TWO_FACTOR_USER] });
  const core = coreSuite();

  test('logs in and reads its session as it is, staying plain', async () => {
    const { id } = await core().addPanel({ address: panel().url });
    const signedIn = await core().logIn(id, credentials);
    assert.equal(signedIn.generation, 'public');
    const { session } = await core().getSession(id);
    assert.equal((session as { userId?: unknown }).userId, 'usr_1001');
    assert.ok(!('result' in (session as object)));
    assert.ok(panel().requests.every((request) => !request.path.includes('trpc')));
  });

  test('its errors in its own words; a wrong password is INVALID_CREDENTIALS without a tRPC attempt', async () => {
    const { id } = await core().addPanel({ address: panel().url });
    const before = panel().requests.length;
    await rejectsWith(core().logIn(id, { ...credentials, password: 'wrong' }), 'INVALID_CREDENTIALS');
    assert.equal(panel().requests.length - before, 1);
  });
});

describe('an Easypanel 2.30 panel (tRPC)', () => {
  const panel = suiteReferencePanel({ style: 'trpc', users: [DEMO_USER, TWO_FACTOR_USER] });
  const core = coreSuite();

  test('a plain log in finds nothing, nor the RPC form, the tRPC form works and is remembered; the session is unwrapped', async () => {
    const { id } = await core().addPanel({ address: panel().url });
    const start = panel().requests.length;
    const signedIn = await core().logIn(id, credentials);
    assert.equal(signedIn.generation, 'trpc');
    assert.equal(signedIn.loginPath, '/trpc/auth.login');
    assert.equal(signedIn.sessionPath, '/trpc/auth.getSession');
    const sent = panel().requests.slice(start);
    assert.deepEqual(
      sent.map((request) => `${request.method} ${request.path}`),
      ['POST /api/login', 'POST /api/rpc/auth/login', 'POST /api/trpc/auth.login'],
    );
    // "Keep me signed in" is on by default: rememberMe goes with every log in.
    assert.deepEqual(JSON.parse(sent[2]!.body), { json: { ...credentials, rememberMe: true } });

    const { session } = await core().getSession(id);
    assert.equal((session as { userId?: unknown }).userId, 'usr_1001', JSON.stringify(session));
    const read = lastNonVersionRequest(panel())!;
    assert.equal(read.path, `/api/trpc/auth.getSession${TRPC_NULL_INPUT}`);
    assert.match(String(read.headers.authorization), /^Bearer /);

    // The log out ends the session at the panel in its style; the next log in goes straight to tRPC.
    const again = panel().requests.length;
    await core().logOut(id);
    await core().logIn(id, credentials);
    assert.deepEqual(
      panel()
        .requests.slice(again)
        .map((request) => request.path),
      ['/api/trpc/auth.logout', '/api/trpc/auth.login'],
    );
  });

  test('a refused password and a code asked for are tRPC answers too: the style is remembered with the error', async () => {
    const { id } = await core().addPanel({ address: panel().url });
    await rejectsWith(core().logIn(id, { ...credentials, password: 'wrong' }), 'INVALID_CREDENTIALS');
    assert.equal((await core().listPanels())[0]?.generation, 'trpc');

    const guarded = await core().addPanel({ address: `http://localhost:${panel().port}`, name: 'Guarded' });
    const twoFactor = { email: TWO_FACTOR_USER.email, password: TWO_FACTOR_USER.password };
    await rejectsWith(core().logIn(guarded.id, twoFactor), 'TWO_FACTOR_REQUIRED');
    await rejectsWith(core().logIn(guarded.id, { ...twoFactor, code: '135791' }), 'INVALID_CREDENTIALS', /refused the code/);
    assert.equal((await core().logIn(guarded.id, { ...twoFactor, code: TWO_FACTOR_USER.twoFactorCode })).signedIn, true);
  });

  test('an expired token is UNAUTHORIZED and signs the panel out; a 429 says when to try again', async () => {
    const { id } = await core().addPanel({ address: panel().url });
    await core().logIn(id, credentials);
    const reset = Date.now() + 42_000;
    panel().setFault('getSession', {
      kind: 'status',
      status: 429,
      body: {
        error: { json: { message: 'Too many requests', code: -32029, data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, reset } } },
      },
    });
    await rejectsWith(core().getSession(id), 'RATE_LIMITED', /Wait (4[0-3]) s/);
    panel().setFault('getSession', null);
    panel().expireAllTokens();
    await rejectsWith(core().getSession(id), 'UNAUTHORIZED');
    assert.equal((await core().listPanels())[0]?.signedIn, false);
  });

  test('a tRPC error sent with status 200 means what its code says', async () => {
    const { id } = await core().addPanel({ address: panel().url });
    await core().logIn(id, credentials);
    panel().setFault('getSession', {
      kind: 'status',
      status: 200,
      body: { error: { json: { message: 'UNAUTHORIZED', code: -32001, data: { code: 'UNAUTHORIZED' } } } },
    });
    await rejectsWith(core().getSession(id), 'UNAUTHORIZED');
  });

  test('an answer that is JSON but no tRPC envelope is BAD_RESPONSE pointing at the generation', async () => {
    const { id } = await core().addPanel({ address: panel().url });
    await core().logIn(id, credentials);
    panel().setFault('getSession', { kind: 'status', status: 200, body: { id: 'bare' } });
    await rejectsWith(core().getSession(id), 'BAD_RESPONSE', /not a tRPC answer.*choose its generation/s);
  });
});

describe('generation and paths set by the operator', () => {
  let panel: ReferencePanel;
  before(async () => {
    panel = await startReferencePanel();
  });
  after(() => panel.close());
  const core = coreSuite();

  test('a login path the operator set that the panel lacks: LOGIN_ENDPOINT_NOT_FOUND naming it, and no other route tried', async () => {
    const { id } = await core().addPanel({ address: panel.url });
    await core().updatePanel(id, { loginPath: '/nowhere' });
    const before = panel.requests.length;
    const error = await rejectsWith(core().logIn(id, credentials), 'LOGIN_ENDPOINT_NOT_FOUND', /\/nowhere/);
    assert.doesNotMatch(error.message, /tRPC/);
    assert.deepEqual(
      panel.requests.slice(before).map((request) => request.path),
      ['/api/nowhere'],
    );
    assert.equal((await core().listPanels())[0]?.generation, 'public');
  });

  test('a panel with neither login at the default paths: LOGIN_ENDPOINT_NOT_FOUND naming both tries', async () => {
    const other = await startReferencePanel();
    try {
      other.setFault('login', { kind: 'status', status: 404 });
      const { id } = await core().addPanel({ address: other.url });
      await rejectsWith(core().logIn(id, credentials), 'LOGIN_ENDPOINT_NOT_FOUND', /\/login.*older tRPC form \(\/trpc\/auth\.login\)/s);
      await core().removePanel(id);
    } finally {
      await other.close();
    }
  });

  test('the generation moves default paths with it and keeps chosen ones; the session path is checked and used', async () => {
    const { id } = await core().addPanel({ address: panel.url });
    const trpc = await core().updatePanel(id, { generation: 'trpc' });
    assert.deepEqual([trpc.loginPath, trpc.sessionPath], ['/trpc/auth.login', '/trpc/auth.getSession']);
    const custom = await core().updatePanel(id, { generation: 'public', sessionPath: 'v2/getSession' });
    assert.deepEqual([custom.generation, custom.loginPath, custom.sessionPath], ['public', '/login', '/v2/getSession']);
    for (const bad of ['/../other/collect', '/%2e%2e/x', '/a?b', '//evil.example/x']) {
      await rejectsWith(core().updatePanel(id, { sessionPath: bad }), 'INVALID_INPUT', /session path/);
    }
    await rejectsWith(core().updatePanel(id, { generation: 'graphql' as 'public' }), 'INVALID_INPUT', /Generation must be/);

    await core().logIn(id, credentials);
    await core().getSession(id);
    assert.equal(lastNonVersionRequest(panel)?.path, '/api/v2/getSession');
    const reset = await core().updatePanel(id, { sessionPath: null });
    assert.equal(reset.sessionPath, '/getSession');
  });
});

describe('tRPC envelopes', () => {
  test('results with and without superjson, errors by httpStatus or by code, batches of one', () => {
    assert.deepEqual(readTrpcAnswer({ result: { data: { json: { a: 1 } } } }), { kind: 'result', value: { a: 1 } });
    assert.deepEqual(readTrpcAnswer({ result: { data: { a: 1 } } }), { kind: 'result', value: { a: 1 } });
    assert.deepEqual(readTrpcAnswer([{ result: { data: { json: null } } }]), { kind: 'result', value: null });
    assert.deepEqual(readTrpcAnswer({ error: { json: { data: { httpStatus: 401 } } } }), { kind: 'error', status: 401 });
    assert.deepEqual(readTrpcAnswer({ error: { json: { data: { code: 'FORBIDDEN' } } } }), { kind: 'error', status: 403 });
    assert.deepEqual(readTrpcAnswer({ error: { data: { code: 'NOT_FOUND' } } }), { kind: 'error', status: 404 });
    assert.deepEqual(readTrpcAnswer({ error: { json: { data: { code: 'MADE_UP' } } } }), { kind: 'error', status: null });
    assert.deepEqual(readTrpcAnswer({ token: 'x' }), { kind: 'other' });
    assert.deepEqual(readTrpcAnswer('text'), { kind: 'other' });
    const response = { status: 200, url: 'https://p/api', contentType: 'application/json', retryAfter: null, text: '' };
    assert.equal(withTrpcStatus(response, { kind: 'error', status: 401 }).status, 401);
    assert.equal(withTrpcStatus(response, { kind: 'error', status: null }).status, 200);
    assert.equal(withTrpcStatus(response, { kind: 'result', value: 1 }), response);
  });
});
