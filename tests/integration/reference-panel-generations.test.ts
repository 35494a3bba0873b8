import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  call,
  dataOf,
  errorOf,
  operate,
  tokenOf,
  DEMO_CREDENTIALS as credentials,
  withReferencePanel,
} from '../support/reference-panel/raw-client.ts';
import { DEMO_USER, TWO_FACTOR_USER, type PanelStyle, type Transport } from '../support/reference-panel/server.ts';

/**
 * The reference panel's three Easypanel generations on the wire, with raw fetch, pinned to
 * docs/easypanel-api.md: which routes each answers, every envelope of a log-in cycle (log in,
 * session, version, log out), session lifetimes, two-factor, and the RPC layer's own rules.
 */

const guarded = { email: TWO_FACTOR_USER.email, password: TWO_FACTOR_USER.password };
const DAY = 24 * 60 * 60 * 1000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type Generation = Exclude<PanelStyle, 'simple'>;

/** The routes each generation answers: all operations, only tRPC's writes (2.31+), or none (404). */
const ANSWERS: Record<Generation, Record<Transport, 'all' | 'writes' | 'none'>> = {
  trpc: { trpc: 'all', rpc: 'none', public: 'none' },
  rpc: { trpc: 'writes', rpc: 'all', public: 'none' },
  public: { trpc: 'writes', rpc: 'all', public: 'all' },
};

/** How each generation says "not found" for a path it does not have. */
const NOT_FOUND: Record<Generation, unknown> = {
  trpc: { error: { json: { message: 'Not found', code: -32004, data: { code: 'NOT_FOUND', httpStatus: 404 } } } },
  rpc: { json: { defined: false, code: 'NOT_FOUND', status: 404, message: 'Not found' } },
  public: { code: 'NOT_FOUND', status: 404, message: 'Not found' },
};

const TRPC_GET_REFUSED = (path: string) => ({
  error: { json: { message: 'Method not supported', code: -32005, data: { code: 'METHOD_NOT_SUPPORTED', httpStatus: 405, path } } },
});

describe('which routes each generation answers', () => {
  for (const [style, answers] of Object.entries(ANSWERS) as [Generation, Record<Transport, string>][]) {
    test(`${style}: ${JSON.stringify(answers)}`, async () => {
      await withReferencePanel({ style }, async (panel) => {
        for (const [via, answered] of Object.entries(answers) as [Transport, string][]) {
          const login = await operate(panel, via, 'login', credentials);
          if (answered === 'none') {
            assert.deepEqual([login.status, login.body], [404, NOT_FOUND[style]], `${style} ${via}`);
            continue;
          }
          const token = tokenOf(via, login);
          for (const read of ['getSession', 'getUpdateStatus'] as const) {
            const answer = await operate(panel, via, read, undefined, token);
            if (answered === 'all') assert.equal(answer.status, 200, `${style} ${via} ${read}`);
            else {
              const path = read === 'getSession' ? 'auth.getSession' : 'update.getStatus';
              assert.deepEqual([answer.status, answer.body], [405, TRPC_GET_REFUSED(path)], `${style} ${via} ${read}`);
            }
          }
          assert.equal((await operate(panel, via, 'logout', undefined, token)).status, 200, `${style} ${via} logout`);
          assert.equal(panel.logouts.at(-1)?.via, via);
        }
      });
    });
  }

  test('2.31+: every tRPC GET is refused, even of an unknown procedure and without a token', async () => {
    await withReferencePanel({ style: 'rpc' }, async (panel) => {
      const answer = await call(panel, 'GET', '/api/trpc/auth.nothing');
      assert.deepEqual([answer.status, answer.body], [405, TRPC_GET_REFUSED('auth.nothing')]);
    });
  });
});

/** Each generation's envelopes, written out as docs/easypanel-api.md gives them. */
const WIRE: Record<
  Generation,
  {
    via: Transport;
    version: string;
    success(json: unknown, dates?: boolean): unknown;
    unauthorized(path: string): unknown;
  }
> = {
  trpc: {
    via: 'trpc',
    version: '2.28.1',
    success: (json, dates) => ({
      result: { data: dates ? { json, meta: { values: { createdAt: ['Date'], expiresAt: ['Date'] } } } : { json } },
    }),
    unauthorized: (path) => ({
      error: { json: { message: 'Unauthorized', code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401, path } } },
    }),
  },
  rpc: {
    via: 'rpc',
    version: '2.32.2',
    success: (json, dates) =>
      dates
        ? {
            json,
            meta: [
              [1, 'createdAt'],
              [1, 'expiresAt'],
            ],
          }
        : { json },
    unauthorized: () => ({ json: { defined: false, code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' } }),
  },
  public: {
    via: 'public',
    version: '2.33.4',
    success: (json) => json,
    unauthorized: () => ({ code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' }),
  },
};

describe('a log-in cycle in each generation, envelope by envelope', () => {
  for (const [style, wire] of Object.entries(WIRE) as [Generation, (typeof WIRE)[Generation]][]) {
    test(`${style}: log in, session, version, log out, then 401`, async () => {
      await withReferencePanel({ style }, async (panel) => {
        const { via } = wire;
        const login = await operate(panel, via, 'login', credentials);
        const token = tokenOf(via, login);
        assert.match(token, /^[a-z0-9]{25}$/, 'a 25-character id, as Easypanel tokens look');
        assert.deepEqual([login.status, login.contentType, login.body], [200, 'application/json; charset=utf-8', wire.success({ token })]);

        const session = await operate(panel, via, 'getSession', undefined, token);
        const held = dataOf(via, session.body) as Record<string, unknown>;
        assert.deepEqual(Object.keys(held).sort(), ['createdAt', 'demoMode', 'expiresAt', 'id', 'userId']);
        assert.deepEqual([session.status, session.body], [200, wire.success(held, true)]);
        assert.equal(held.userId, DEMO_USER.id);
        assert.equal(held.demoMode, false);
        assert.match(String(held.createdAt), ISO);

        const status = await operate(panel, via, 'getUpdateStatus', undefined, token);
        assert.deepEqual([status.status, status.body], [200, wire.success({ version: wire.version, available: false })]);

        const logout = await operate(panel, via, 'logout', undefined, token);
        // 2.33: a call that returns nothing answers 200 with an empty body.
        assert.deepEqual([logout.status, logout.body], [200, via === 'public' ? '' : wire.success(null)]);
        assert.deepEqual(panel.logouts, [{ via, token, userId: DEMO_USER.id, apiToken: false }]);
        for (const [route, path] of [
          ['getSession', 'auth.getSession'],
          ['getUpdateStatus', 'update.getStatus'],
          ['logout', 'auth.logout'],
        ] as const) {
          const after = await operate(panel, via, route, undefined, token);
          assert.deepEqual([after.status, after.body], [401, wire.unauthorized(path)], `${route} after the log out`);
        }
        assert.equal(panel.logouts.length, 1, 'a refused log out is not recorded');
      });
    });
  }

  test('after a log out the token gets 401 on every route the panel answers; other sessions live on', async () => {
    await withReferencePanel({ style: 'public' }, async (panel) => {
      const token = tokenOf('public', await operate(panel, 'public', 'login', credentials));
      const other = tokenOf('rpc', await operate(panel, 'rpc', 'login', credentials));
      assert.equal((await call(panel, 'POST', '/api/logout', { token, rawBody: '' })).status, 200);
      const reads = [
        call(panel, 'GET', '/api/getSession', { token }),
        call(panel, 'GET', '/api/getUpdateStatus', { token }),
        operate(panel, 'rpc', 'getSession', undefined, token),
        operate(panel, 'rpc', 'getUpdateStatus', undefined, token),
        call(panel, 'GET', '/api/rpc/auth/getSession', { token }),
      ];
      assert.deepEqual(
        (await Promise.all(reads)).map((answer) => answer.status),
        [401, 401, 401, 401, 401],
      );
      assert.equal((await operate(panel, 'public', 'getSession', undefined, other)).status, 200);
      assert.equal((await call(panel, 'POST', '/api/logout')).status, 401, 'no token, no log out');
      assert.equal(panel.logouts.length, 1);
    });
  });
});

describe('how long a session lasts', () => {
  for (const style of ['trpc', 'rpc', 'public'] as const) {
    test(`${style}: a day without rememberMe, 30 days with it`, async () => {
      await withReferencePanel({ style }, async (panel) => {
        const { via } = WIRE[style];
        const lifetime = async (input: object) => {
          const token = tokenOf(via, await operate(panel, via, 'login', input));
          const session = dataOf(via, (await operate(panel, via, 'getSession', undefined, token)).body) as Record<string, string>;
          return Date.parse(String(session.expiresAt)) - Date.parse(String(session.createdAt));
        };
        assert.equal(await lifetime(credentials), DAY);
        assert.equal(await lifetime({ ...credentials, rememberMe: false }), DAY);
        assert.equal(await lifetime({ ...credentials, rememberMe: true }), 30 * DAY);
        panel.setTokenTtl(5000);
        panel.setRememberMeTtl(7 * DAY);
        assert.equal(await lifetime(credentials), 5000);
        assert.equal(await lifetime({ ...credentials, rememberMe: true }), 7 * DAY);
      });
    });
  }

  test('both lifetimes can be set at start; the simple style keeps its hour', async () => {
    await withReferencePanel({ style: 'rpc', tokenTtlMs: 60_000, rememberMeTtlMs: 2 * DAY }, async (panel) => {
      const plain = tokenOf('rpc', await operate(panel, 'rpc', 'login', credentials));
      const remembered = tokenOf('rpc', await operate(panel, 'rpc', 'login', { ...credentials, rememberMe: true }));
      const spans = await Promise.all(
        [plain, remembered].map(async (token) => {
          const session = dataOf('rpc', (await operate(panel, 'rpc', 'getSession', undefined, token)).body) as Record<string, string>;
          return Date.parse(String(session.expiresAt)) - Date.parse(String(session.createdAt));
        }),
      );
      assert.deepEqual(spans, [60_000, 2 * DAY]);
    });
    await withReferencePanel({}, async (panel) => {
      const token = tokenOf('public', await call(panel, 'POST', '/api/login', { json: credentials }));
      const session = (await call(panel, 'GET', '/api/getSession', { token })).body as Record<string, string>;
      assert.equal(Date.parse(String(session.expiresAt)) - Date.parse(String(session.issuedAt)), 60 * 60 * 1000);
    });
  });
});

describe('two-factor in every generation and on every route that logs in', () => {
  for (const [style, answers] of Object.entries(ANSWERS) as [Generation, Record<Transport, string>][]) {
    test(`${style}: { twoFactorEnabled: true } without a token, "Invalid Code" for a wrong code, a token for the right one`, async () => {
      await withReferencePanel({ style }, async (panel) => {
        for (const via of (Object.keys(answers) as Transport[]).filter((transport) => answers[transport] !== 'none')) {
          const prompt = await operate(panel, via, 'login', guarded);
          assert.equal(prompt.status, 200);
          assert.deepEqual(dataOf(via, prompt.body), { twoFactorEnabled: true }, `${style} ${via}`);
          const wrong = await operate(panel, via, 'login', { ...guarded, code: '135791' });
          assert.equal(wrong.status, 400);
          assert.deepEqual([errorOf(via, wrong.body).code, errorOf(via, wrong.body).message], ['BAD_REQUEST', 'Invalid Code']);
          tokenOf(via, await operate(panel, via, 'login', { ...guarded, code: TWO_FACTOR_USER.twoFactorCode, rememberMe: true }));
        }
        assert.equal(panel.issuedTokens().length, Object.values(answers).filter((answered) => answered !== 'none').length);
      });
    });
  }
});
