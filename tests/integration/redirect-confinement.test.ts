import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWith, suiteReferencePanel, suiteCore } from '../support/helpers.ts';
import { DEMO_USER } from '../support/reference-panel/server.ts';

/**
 * Configured paths are confined to the panel's `/api`; so are redirects. A same-origin 307/308
 * resends the body (the password) and every redirect resends the token: followed out of `/api`,
 * they would hand either to another application on the panel's host.
 */

const reference = suiteReferencePanel();
const core = suiteCore();
const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
let added: string | null = null;
/** The one panel of the suite, added at its first use. */
async function panelId(): Promise<string> {
  added ??= (await core().addPanel({ address: reference().url })).id;
  return added;
}

describe('redirects stay under the panel’s API', () => {
  test('a 307 from the log in to another path of the origin: refused, the password is not sent there', async () => {
    const panel = reference();
    const app = core();
    const id = await panelId();
    panel.setFault('login', { kind: 'redirect', to: '/admin/login', status: 307 });
    try {
      await rejectsWith(app.logIn(id, credentials), 'REDIRECT_REFUSED', /redirected to \/admin\/login, outside its API \(\/api\/\)/);
    } finally {
      panel.setFault('login', null);
    }
    assert.deepEqual(
      panel.requests.filter((request) => !request.path.startsWith('/api/')),
      [],
    );
  });

  test('a 308 from the session read to another path of the origin: refused, the token is not sent there', async () => {
    const panel = reference();
    const app = core();
    const id = await panelId();
    await app.logIn(id, credentials);
    panel.setFault('getSession', { kind: 'redirect', to: '/../grafana/api/user', status: 308 });
    try {
      await rejectsWith(app.getSession(id), 'REDIRECT_REFUSED', /outside its API/);
    } finally {
      panel.setFault('getSession', null);
    }
    assert.deepEqual(
      panel.requests.filter((request) => !request.path.startsWith('/api/')).map((request) => request.path),
      [],
    );
  });

  test('a redirect within the API is still followed (a panel that moved its routes under /api)', async () => {
    const panel = reference();
    const app = core();
    const id = await panelId();
    panel.setFault('login', { kind: 'redirect', to: '/api/v2/login', status: 307 });
    try {
      await app.logIn(id, credentials);
    } finally {
      panel.setFault('login', null);
    }
    assert.equal(panel.requests.filter((request) => request.path === '/api/v2/login').length, 1);
  });
});
