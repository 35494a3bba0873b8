import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { PanelError } from '../../shared/contract/errors.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { readAllFiles, rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type PanelStyle, type ReferencePanel } from '../support/reference-panel/server.ts';
import { secretFormsIn } from '../support/secret-forms.ts';

/**
 * Signing in with a long-lived API token made in Easypanel, over real HTTP against the reference
 * panel's three generations: whether its session route takes API tokens (`accept`) or not
 * (`refuse`, docs/easypanel-api.md does not know), the token is checked before it is kept, marked as an API
 * token, read without signing the panel out, and a log out forgets it here without asking the
 * panel (a log out does not end an API token). The token never reaches the window.
 */

const GENERATIONS: readonly PanelStyle[] = ['trpc', 'rpc', 'public'];
const SESSION_ROUTES = ['accept', 'refuse'] as const;

describe('API tokens', () => {
  const panels = new Map<string, ReferencePanel>();
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  /** Everything that crossed to the window, as the window would get it. */
  let toWindow: unknown[];

  before(async () => {
    for (const style of GENERATIONS)
      for (const apiTokenSession of SESSION_ROUTES)
        panels.set(`${style}/${apiTokenSession}`, await startReferencePanel({ style, apiTokenSession }));
  });
  after(() => Promise.all([...panels.values()].map((panel) => panel.close())));
  beforeEach(async () => {
    dir = await tempDir();
    toWindow = [];
    core = createCore({
      dataDir: dir.path,
      encryption: testEncryption(),
      timeoutMs: 3000,
      emit: (event: PanelEvent) => toWindow.push(event),
    });
  });
  afterEach(async () => {
    await core.flush();
    await dir.cleanup();
  });

  /** What the window would hold: every answer and every failure's code and message. */
  async function sent<T>(work: Promise<T>): Promise<T> {
    try {
      const value = await work;
      toWindow.push(value);
      return value;
    } catch (error) {
      if (error instanceof PanelError) toWindow.push(error.toInfo());
      throw error;
    }
  }

  async function assertNowhere(secret: string): Promise<void> {
    await core.flush();
    const files = await readAllFiles(dir.path);
    const places = {
      window: JSON.stringify(toWindow),
      ...Object.fromEntries(files.map((file) => [file.path, file.content])),
    };
    const leaks = Object.entries(places).flatMap(([place, text]) => secretFormsIn(text, secret).map((form) => `${place}: ${form}`));
    assert.deepEqual(leaks, []);
  }

  for (const style of GENERATIONS) {
    for (const sessionRoute of SESSION_ROUTES) {
      test(`${style}, session route that ${sessionRoute}s API tokens: accepted, kept, read, logged out here only`, async () => {
        const panel = panels.get(`${style}/${sessionRoute}`)!;
        const token = panel.createApiToken();
        const { id } = await sent(core.addPanel({ address: panel.url }));
        const requestsBefore = panel.requests.length;
        const signedIn = await sent(core.logInWithApiToken(id, { token }));
        assert.equal(signedIn.signedIn, true);
        assert.equal(signedIn.tokenKind, 'api-token');
        assert.equal(signedIn.tokenStorage, 'keyring');
        assert.equal(signedIn.sessionExpiresAt, null);
        // Which read accepted it: the session read where the route takes API tokens (2.33's, read
        // first; older generations' panels are found by the version read), else the version read.
        const asked = panel.requests.slice(requestsBefore).map((request) => request.path.split('?')[0]);
        const acceptedBy = sessionRoute === 'accept' && style === 'public' ? /getSession$/ : /getUpdateStatus$|update.getStatus$/;
        assert.match(asked.at(-1)!, acceptedBy, asked.join(', '));
        // A later read never signs it out, and shows no end: the session, or the version where the session route refuses.
        const session = await sent(core.getSession(id));
        assert.deepEqual(
          Object.keys(session.session as object).sort(),
          sessionRoute === 'accept' ? ['createdAt', 'demoMode', 'expiresAt', 'id', 'userId'] : ['available', 'version'],
        );
        const [check] = await sent(core.checkPanels([id]));
        assert.equal(check?.ok, true, JSON.stringify(check));
        const [listed] = await sent(core.listPanels());
        assert.equal(listed?.signedIn, true);
        assert.equal(listed?.tokenKind, 'api-token');
        assert.equal(listed?.sessionExpiresAt, null);

        const logoutsBefore = panel.logouts.length;
        const loggedOut = await sent(core.logOut(id));
        assert.equal(loggedOut.signedIn, false);
        assert.equal(loggedOut.tokenKind, null);
        assert.match(loggedOut.signedOutReason?.message ?? '', /stays valid until it is revoked in Easypanel/);
        assert.equal(panel.logouts.length, logoutsBefore, 'the panel was not asked to log out');
        // Both in the activity log, newest first, neither with the token: the log out sent nothing, and says so.
        const { entries } = await core.listActivity({ panelId: id });
        assert.deepEqual(
          entries.map((entry) => `${entry.what.action} ${entry.outcome}`),
          ['logOutApiToken ok', 'logInWithApiToken ok'],
        );
        assert.ok(!JSON.stringify(entries).includes(token), 'the token is in no entry');
        const authorization = `Bearer ${token}`;
        const stillValid =
          style === 'trpc'
            ? await fetch(`${panel.baseUrl}/trpc/update.getStatus`, { headers: { authorization } })
            : await fetch(`${panel.baseUrl}/rpc/update/getStatus`, {
                method: 'POST',
                headers: { authorization, 'content-type': 'application/json' },
                body: '{"json":null}',
              });
        assert.equal(stillValid.status, 200);
        await assertNowhere(token);
      });
    }

    test(`${style}: a wrong or revoked token is refused with a clear message, and nothing is kept`, async () => {
      const panel = panels.get(`${style}/accept`)!;
      const { id } = await core.addPanel({ address: panel.url });
      const wrong = 'f'.repeat(64);
      const refused = await rejectsWith(
        sent(core.logInWithApiToken(id, { token: wrong })),
        'UNAUTHORIZED',
        /^The panel refused this API token/,
      );
      assert.doesNotMatch(refused.message, /f{16}/);
      const [listed] = await core.listPanels();
      assert.equal(listed?.signedIn, false);
      assert.equal(listed?.tokenKind, null);
      await assertNowhere(wrong);
    });
  }

  test('a token revoked in Easypanel signs the panel out at the next read, saying so', async () => {
    const panel = panels.get('public/refuse')!;
    const token = panel.createApiToken();
    const { id } = await core.addPanel({ address: panel.url });
    await core.logInWithApiToken(id, { token });
    panel.revokeApiToken();
    await rejectsWith(core.getSession(id), 'UNAUTHORIZED', /no longer accepts the saved API token/);
    const [listed] = await core.listPanels();
    assert.equal(listed?.signedIn, false);
    assert.equal(listed?.signedOutReason?.code, 'UNAUTHORIZED');
    panel.createApiToken();
  });

  test('a panel whose generation was not known yet is found by the version read and remembered', async () => {
    const panel = panels.get('rpc/accept')!;
    const token = panel.createApiToken();
    const { id, generation } = await core.addPanel({ address: panel.url });
    assert.equal(generation, 'public');
    const signedIn = await core.logInWithApiToken(id, { token });
    assert.equal(signedIn.generation, 'rpc');
    assert.equal(signedIn.sessionPath, '/rpc/auth/getSession');
    await core.getSession(id);
  });

  test('a password log in after an API token replaces it, and the API token is not logged out at the panel', async () => {
    const panel = panels.get('public/accept')!;
    const token = panel.createApiToken();
    const { id } = await core.addPanel({ address: panel.url });
    await core.logInWithApiToken(id, { token });
    const logoutsBefore = panel.logouts.length;
    const signedIn = await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    assert.equal(signedIn.tokenKind, 'session');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(panel.logouts.length, logoutsBefore);
  });
});
