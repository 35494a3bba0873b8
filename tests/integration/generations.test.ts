import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEMO_USER, startReferencePanel, TWO_FACTOR_USER, type ReferencePanel } from '../support/reference-panel/server.ts';
import { rejectsWith, suiteCore } from '../support/helpers.ts';

/**
 * Every Easypanel generation with default settings: the first log in finds which one the panel
 * speaks (the public API of 2.33+, the RPC layer of 2.31–2.32, tRPC of 2.30 and before) and
 * remembers it; every check then reads the session in that generation's form.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

describe('a fleet of a 2.28, a 2.32 and a 2.33 panel with default settings', () => {
  let panels: Record<'trpc' | 'rpc' | 'public', ReferencePanel>;
  before(async () => {
    const [trpc, rpc, easypanel] = await Promise.all(
      (['trpc', 'rpc', 'public'] as const).map((style) => startReferencePanel({ style, users: [DEMO_USER, TWO_FACTOR_USER] })),
    );
    panels = { trpc: trpc!, rpc: rpc!, public: easypanel! };
  });
  after(() => Promise.all(Object.values(panels).map((panel) => panel.close())));
  const core = suiteCore();

  test('each logs in, its generation is remembered, and every check reads all three', async () => {
    const app = core();
    const ids: Record<string, string> = {};
    for (const [style, panel] of Object.entries(panels)) {
      const { id } = await app.addPanel({ address: panel.url, name: style });
      ids[style] = id;
      await app.logIn(id, credentials);
    }
    const byName = new Map((await app.listPanels()).map((panel) => [panel.name, panel]));
    assert.equal(byName.get('trpc')!.generation, 'trpc');
    assert.equal(byName.get('rpc')!.generation, 'rpc');
    assert.equal(byName.get('rpc')!.loginPath, '/rpc/auth/login');
    assert.equal(byName.get('rpc')!.sessionPath, '/rpc/auth/getSession');
    assert.equal(byName.get('public')!.generation, 'public');
    const results = await app.checkPanels();
    assert.deepEqual(
      results.map((result) => result.ok),
      [true, true, true],
    );
    // The 2.32 panel was read through its own RPC route, never the tRPC GET it refuses.
    const rpcPaths = panels.rpc.requests.map((request) => `${request.method} ${request.path}`);
    assert.ok(rpcPaths.includes('POST /api/rpc/auth/getSession'), rpcPaths.join(', '));
    assert.ok(!rpcPaths.some((path) => path.startsWith('GET /api/trpc/')), rpcPaths.join(', '));
    // The password went only to log-in routes, in a body.
    for (const panel of Object.values(panels)) {
      for (const request of panel.requests) {
        if (request.body.includes(DEMO_USER.password)) assert.match(request.path, /login$/, `${request.method} ${request.path}`);
        assert.ok(!request.path.includes(encodeURIComponent(DEMO_USER.password)));
      }
    }
    for (const id of Object.values(ids)) await app.removePanel(id);
  });

  test('an expired token on the 2.32 panel: UNAUTHORIZED, and the panel is signed out', async () => {
    const app = core();
    const { id } = await app.addPanel({ address: panels.rpc.url });
    await app.logIn(id, credentials);
    panels.rpc.expireAllTokens();
    await rejectsWith(app.getSession(id), 'UNAUTHORIZED');
    const panel = (await app.listPanels()).find((one) => one.id === id)!;
    assert.equal(panel.signedIn, false);
    await app.removePanel(id);
  });

  test('a 2.32 two-factor account asks for the code and signs in with it', async () => {
    const app = core();
    const { id } = await app.addPanel({ address: panels.rpc.url });
    await rejectsWith(app.logIn(id, { email: TWO_FACTOR_USER.email, password: TWO_FACTOR_USER.password }), 'TWO_FACTOR_REQUIRED');
    const panel = await app.logIn(id, {
      email: TWO_FACTOR_USER.email,
      password: TWO_FACTOR_USER.password,
      code: TWO_FACTOR_USER.twoFactorCode!,
    });
    assert.equal(panel.signedIn, true);
    assert.equal(panel.generation, 'rpc');
    const { session } = await app.getSession(id);
    assert.ok(session && typeof session === 'object');
    await app.removePanel(id);
  });

  test('a wrong password on the 2.32 panel: the panel’s own words, INVALID_CREDENTIALS', async () => {
    const app = core();
    const { id } = await app.addPanel({ address: panels.rpc.url });
    await rejectsWith(app.logIn(id, { email: DEMO_USER.email, password: 'not the password' }), 'INVALID_CREDENTIALS');
    assert.equal((await app.listPanels()).find((one) => one.id === id)!.generation, 'rpc');
    await app.removePanel(id);
  });
});

describe('the RPC layer’s refusals in the panel’s own words', () => {
  let panel: ReferencePanel;
  before(async () => {
    panel = await startReferencePanel({ style: 'rpc', logInLimit: { attempts: 1, windowMs: 60_000 } });
  });
  after(() => panel.close());
  const core = suiteCore();

  test('429 with json.data.reset: RATE_LIMITED saying how long to wait', async () => {
    const app = core();
    const { id } = await app.addPanel({ address: panel.url });
    await rejectsWith(app.logIn(id, { email: DEMO_USER.email, password: 'wrong one' }), 'INVALID_CREDENTIALS');
    const limited = await rejectsWith(app.logIn(id, credentials), 'RATE_LIMITED');
    assert.match(limited.message, /Wait (\d+ s|\d+ min)/);
  });
});
