import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  call,
  dataOf,
  errorOf,
  operate,
  type RawAnswer,
  tokenOf,
  DEMO_CREDENTIALS as credentials,
  withReferencePanel,
} from '../support/reference-panel/raw-client.ts';
import { DEMO_USER, TWO_FACTOR_USER, type PanelStyle, type ReferencePanel, type Transport } from '../support/reference-panel/server.ts';

/**
 * The version each generation reports, found by probing as docs/easypanel-api.md says, and long-lived API
 * tokens: on the wire with raw fetch.
 */

const TRPC_NULL_INPUT = '?input=%7B%22json%22%3Anull%7D';

/** Every generation takes a log in at tRPC's POST route. */
const logIn = async (panel: ReferencePanel) => tokenOf('trpc', await operate(panel, 'trpc', 'login', credentials));

/** docs/easypanel-api.md's probe, in its order (2.33 also answers the older routes): the generation and version. */
async function probe(panel: ReferencePanel, token: string): Promise<[string, unknown]> {
  const plain = await call(panel, 'GET', '/api/getUpdateStatus', { token });
  const plainVersion = (plain.body as { version?: unknown }).version;
  if (plain.status === 200 && typeof plainVersion === 'string') return ['2.33+', plainVersion];
  const trpc = await call(panel, 'GET', `/api/trpc/update.getStatus${TRPC_NULL_INPUT}`, { token });
  if (trpc.status === 200) return ['2.30 and before', (dataOf('trpc', trpc.body) as { version?: unknown }).version];
  const rpc = await call(panel, 'POST', '/api/rpc/update/getStatus', { token, json: { json: null } });
  if (rpc.status === 200) return ['2.31-2.32', (dataOf('rpc', rpc.body) as { version?: unknown }).version];
  return ['none', null];
}

/** The version routes each generation answers. */
const VERSION_ROUTES: Record<Exclude<PanelStyle, 'simple'>, Transport[]> = {
  trpc: ['trpc'],
  rpc: ['rpc'],
  public: ['public', 'rpc'],
};

describe('the version each generation reports', () => {
  test('probing in the documented order tells the three generations apart', async () => {
    const found: [string, unknown][] = [];
    for (const style of ['trpc', 'rpc', 'public'] as const) {
      await withReferencePanel({ style }, async (panel) => {
        found.push(await probe(panel, await logIn(panel)));
      });
    }
    assert.deepEqual(found, [
      ['2.30 and before', '2.28.1'],
      ['2.31-2.32', '2.32.2'],
      ['2.33+', '2.33.4'],
    ]);
  });

  for (const [style, routes] of Object.entries(VERSION_ROUTES) as [Exclude<PanelStyle, 'simple'>, Transport[]][]) {
    test(`${style}: the option and setVersion set it on every route; without a token it is a 401`, async () => {
      await withReferencePanel({ style, version: '2.29.0-beta' }, async (panel) => {
        const token = await logIn(panel);
        const versions = async () =>
          Promise.all(routes.map(async (via) => dataOf(via, (await operate(panel, via, 'getUpdateStatus', undefined, token)).body)));
        assert.equal(panel.version(), '2.29.0-beta');
        assert.deepEqual(
          await versions(),
          routes.map(() => ({ version: '2.29.0-beta', available: false })),
        );
        panel.setVersion('2.40.0');
        assert.deepEqual(
          await versions(),
          routes.map(() => ({ version: '2.40.0', available: false })),
        );
        for (const via of routes) {
          const anonymous = await operate(panel, via, 'getUpdateStatus');
          assert.deepEqual([anonymous.status, errorOf(via, anonymous.body).code], [401, 'UNAUTHORIZED'], via);
        }
      });
    });
  }

  test('setVersion with upgrade moves a running panel to that version\u2019s generation, its sessions still valid', async () => {
    await withReferencePanel({ style: 'trpc', version: '2.30.2' }, async (panel) => {
      const token = await logIn(panel);
      assert.deepEqual(await probe(panel, token), ['2.30 and before', '2.30.2']);
      panel.setVersion('2.31.0', { upgrade: true });
      assert.equal(panel.style, 'rpc');
      assert.deepEqual(await probe(panel, token), ['2.31-2.32', '2.31.0']);
      panel.setVersion('2.33.0', { upgrade: true });
      assert.equal(panel.style, 'public');
      assert.deepEqual(await probe(panel, token), ['2.33+', '2.33.0']);
      // Without `upgrade` only the version it names changes.
      panel.setVersion('2.28.0');
      assert.equal(panel.style, 'public');
    });
    await withReferencePanel({}, async (panel) => {
      assert.throws(() => panel.setVersion('2.33.0', { upgrade: true }), /cannot upgrade a simple panel/);
    });
  });

  test('the simple style has no version route', async () => {
    await withReferencePanel({}, async (panel) => {
      assert.equal(panel.version(), null);
      assert.deepEqual((await call(panel, 'GET', '/api/getUpdateStatus')).body, { error: 'Not found' });
    });
  });
});

describe('long-lived API tokens', () => {
  /** Reads the session and the version with the token on every route a 2.33 panel answers them. */
  const readsWith = async (panel: ReferencePanel, authorization: string): Promise<number[]> => {
    const answers: RawAnswer[] = await Promise.all([
      call(panel, 'GET', '/api/getSession', { authorization }),
      call(panel, 'GET', '/api/getUpdateStatus', { authorization }),
      call(panel, 'POST', '/api/rpc/auth/getSession', { authorization, json: { json: null } }),
      call(panel, 'POST', '/api/rpc/update/getStatus', { authorization, json: { json: null } }),
    ]);
    return answers.map((answer) => answer.status);
  };

  test('one never expires, works as Bearer (and bare) until revoked, and is no session token', async () => {
    await withReferencePanel({ style: 'public' }, async (panel) => {
      const token = panel.createApiToken();
      assert.match(token, /^[0-9a-f]{64}$/);
      assert.deepEqual(panel.issuedTokens(), []);
      assert.deepEqual(await readsWith(panel, `Bearer ${token}`), [200, 200, 200, 200]);
      assert.deepEqual(await readsWith(panel, token), [200, 200, 200, 200], 'the bare token is accepted too');

      const session = (await call(panel, 'GET', '/api/getSession', { token })).body as Record<string, unknown>;
      assert.equal(session.userId, DEMO_USER.id);
      assert.equal(session.expiresAt, '9999-12-31T23:59:59.999Z', 'a session that never ends');

      panel.expireAllTokens();
      assert.deepEqual(await readsWith(panel, `Bearer ${token}`), [200, 200, 200, 200], 'it is no session: it does not expire');
      assert.equal((await call(panel, 'POST', '/api/logout', { token })).status, 200);
      assert.deepEqual(panel.logouts, [{ via: 'public', token, userId: DEMO_USER.id, apiToken: true }]);
      assert.deepEqual(await readsWith(panel, `Bearer ${token}`), [200, 200, 200, 200], 'a log out does not end it');

      panel.revokeApiToken();
      assert.deepEqual(await readsWith(panel, `Bearer ${token}`), [401, 401, 401, 401]);
    });
  });

  test('a new one replaces the previous one of that user; each user has their own', async () => {
    await withReferencePanel({ style: 'public' }, async (panel) => {
      const first = panel.createApiToken(DEMO_USER);
      const guarded = panel.createApiToken(TWO_FACTOR_USER);
      const second = panel.createApiToken(DEMO_USER);
      assert.deepEqual(await readsWith(panel, `Bearer ${first}`), [401, 401, 401, 401]);
      assert.deepEqual(await readsWith(panel, `Bearer ${second}`), [200, 200, 200, 200]);
      const session = (await call(panel, 'GET', '/api/getSession', { token: guarded })).body as { userId?: unknown };
      assert.equal(session.userId, TWO_FACTOR_USER.id);
      panel.revokeApiToken(TWO_FACTOR_USER);
      assert.equal((await call(panel, 'GET', '/api/getSession', { token: guarded })).status, 401);
      assert.equal((await call(panel, 'GET', '/api/getSession', { token: second })).status, 200);
    });
  });

  for (const [style, via] of [
    ['trpc', 'trpc'],
    ['rpc', 'rpc'],
    ['public', 'public'],
  ] as const) {
    test(`${style}: with apiTokenSession 'refuse', getSession is a 401 but the version is read`, async () => {
      await withReferencePanel({ style, apiTokenSession: 'refuse' }, async (panel) => {
        const token = panel.createApiToken();
        const session = await operate(panel, via, 'getSession', undefined, token);
        assert.deepEqual([session.status, errorOf(via, session.body).code], [401, 'UNAUTHORIZED']);
        assert.equal((await operate(panel, via, 'getUpdateStatus', undefined, token)).status, 200);
        const sessionToken = await logIn(panel);
        assert.equal((await operate(panel, via, 'getSession', undefined, sessionToken)).status, 200, 'log-in sessions are read');
      });
    });
  }
});
