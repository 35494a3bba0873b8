import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rejectsWith, suiteReferencePanel, suiteCore } from '../support/helpers.ts';
import { DEMO_USER } from '../support/reference-panel/server.ts';

/**
 * A plain log in that finds no login route tries the tRPC form (Easypanel 2.30 and before), and
 * remembers it when a tRPC answer comes back. Only at the default paths: paths the operator set
 * are theirs, so a 404 there is reported against them, the password goes to no route they did not
 * name, and a tRPC-shaped refusal elsewhere does not overwrite them.
 */

const trpcPanel = suiteReferencePanel({ style: 'trpc' });
const core = suiteCore();

test('own paths and a 404: the error names them, no tRPC route is tried, the paths and style stay', async (t) => {
  const app = core();
  const panel = trpcPanel();
  const { id } = await app.addPanel({ address: panel.url });
  t.after(() => app.removePanel(id));
  await app.updatePanel(id, { loginPath: '/custom/login', sessionPath: '/custom/session' });
  const before = panel.requests.length;
  await rejectsWith(app.logIn(id, { email: DEMO_USER.email, password: 'wrong password' }), 'LOGIN_ENDPOINT_NOT_FOUND', /\/custom\/login/);
  assert.deepEqual(
    panel.requests.slice(before).map((request) => request.path),
    ['/api/custom/login'],
  );
  const after = (await app.listPanels()).find((one) => one.id === id)!;
  assert.equal(after.generation, 'public');
  assert.equal(after.loginPath, '/custom/login');
  assert.equal(after.sessionPath, '/custom/session');
});

test('default paths and a 404: the tRPC form is found and remembered, even on a refusal', async (t) => {
  const app = core();
  const panel = trpcPanel();
  const { id } = await app.addPanel({ address: panel.url });
  t.after(() => app.removePanel(id));
  await rejectsWith(app.logIn(id, { email: DEMO_USER.email, password: 'wrong password' }), 'INVALID_CREDENTIALS');
  const after = (await app.listPanels()).find((one) => one.id === id)!;
  assert.equal(after.generation, 'trpc');
  assert.equal(after.loginPath, '/trpc/auth.login');
});
