import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { rejectsWith, suiteCore } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/**
 * "Keep me signed in" over real HTTP against the reference panel's three generations: the log in
 * carries `rememberMe: true` in each one's wire format, the panel's longer session is the end shown
 * (read from its session answer, never computed here), and the choice is remembered per panel. And
 * a log in again while signed in: the old token is replaced only once the new log in succeeded,
 * then its session is ended at the panel.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

/** The input of a log in request as the panel got it, out of its generation's envelope. */
function logInInput(panel: ReferencePanel): Record<string, unknown> {
  const request = panel.requests.filter((one) => /\/(login|auth\.login|auth\/login)$/.test(one.path)).at(-1);
  assert.ok(request, 'a log in was sent');
  const body = JSON.parse(request.body) as Record<string, unknown>;
  return panel.style === 'public' && request.path === '/api/login' ? body : (body.json as Record<string, unknown>);
}

/** Waits a little for what is done without being waited for (ending the old session at the panel). */
async function eventually(check: () => boolean): Promise<void> {
  for (let tries = 0; !check() && tries < 100; tries++) await sleep(20);
}

describe('keep me signed in', () => {
  const panels: ReferencePanel[] = [];
  before(async () => {
    // Lifetimes unlike any default, so that the end shown can only have come from the panel.
    for (const style of ['trpc', 'rpc', 'public'] as const)
      panels.push(await startReferencePanel({ style, tokenTtlMs: 3 * HOUR, rememberMeTtlMs: 45 * DAY }));
  });
  after(() => Promise.all(panels.map((panel) => panel.close())));
  const core = suiteCore();

  test('on by default: rememberMe is sent in every generation, and the panel’s longer session is the end shown', async () => {
    const app = core();
    for (const panel of panels) {
      const added = await app.addPanel({ address: panel.url });
      assert.equal(added.keepSignedIn, true);
      const signedIn = await app.logIn(added.id, credentials);
      assert.equal(signedIn.tokenKind, 'session');
      assert.equal(logInInput(panel).rememberMe, true, panel.style);
      // The end comes from the session answer, once read.
      assert.equal(signedIn.sessionExpiresAt, null);
      const readAt = Date.now();
      await app.getSession(added.id);
      const listed = (await app.listPanels()).find((one) => one.id === added.id);
      const ends = Date.parse(listed?.sessionExpiresAt ?? '');
      assert.ok(Math.abs(ends - (readAt + 45 * DAY)) < 60_000, `${panel.style}: ends ${listed?.sessionExpiresAt}`);
      await app.removePanel(added.id);
    }
  });

  test('turned off: no rememberMe, the short session, and the choice is remembered for the next log in', async () => {
    const app = core();
    for (const panel of panels) {
      const { id } = await app.addPanel({ address: panel.url });
      const signedIn = await app.logIn(id, { ...credentials, rememberMe: false });
      assert.equal(signedIn.keepSignedIn, false);
      assert.equal(Object.hasOwn(logInInput(panel), 'rememberMe'), false, panel.style);
      const readAt = Date.now();
      await app.getSession(id);
      const listed = (await app.listPanels()).find((one) => one.id === id);
      assert.ok(Math.abs(Date.parse(listed?.sessionExpiresAt ?? '') - (readAt + 3 * HOUR)) < 60_000, panel.style);
      // The next log in without a choice (a bulk log in, a script) uses the panel's.
      await app.logOut(id);
      await app.logIn(id, credentials);
      assert.equal(Object.hasOwn(logInInput(panel), 'rememberMe'), false, panel.style);
      // And the setting can be changed in the panel settings too.
      assert.equal((await app.updatePanel(id, { keepSignedIn: true })).keepSignedIn, true);
      await app.logIn(id, credentials);
      assert.equal(logInInput(panel).rememberMe, true);
      await app.removePanel(id);
    }
  });

  test('log in again while signed in: the new token replaces the old once it worked, and the old session ends at the panel', async () => {
    const app = core();
    for (const panel of panels) {
      const { id } = await app.addPanel({ address: panel.url });
      await app.logIn(id, credentials);
      const [old] = panel.issuedTokens().slice(-1);
      // A failed log in again leaves the sign-in as it was.
      await rejectsWith(app.logIn(id, { ...credentials, password: 'wrong' }), 'INVALID_CREDENTIALS');
      assert.equal((await app.getSession(id)).panelId, id);
      const logoutsBefore = panel.logouts.length;
      const again = await app.logIn(id, credentials);
      assert.equal(again.signedIn, true);
      const [fresh] = panel.issuedTokens().slice(-1);
      assert.notEqual(fresh, old);
      await eventually(() => panel.logouts.length > logoutsBefore);
      assert.deepEqual(
        panel.logouts.slice(logoutsBefore).map((logout) => logout.token === old),
        [true],
        `${panel.style}: the old session was ended at the panel, once`,
      );
      // The new sign-in works on.
      await app.getSession(id);
      assert.equal((await app.listPanels()).find((one) => one.id === id)?.signedIn, true);
      await app.removePanel(id);
    }
  });
});
