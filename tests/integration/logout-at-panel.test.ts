import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { createCore } from '../../electron/core/index.ts';
import { suiteCore, tempDir, testEncryption } from '../support/helpers.ts';
import { appStores, diskFullError } from '../support/model/stores.ts';

/**
 * Log out ends the session at the panel too (auth.logout, POST /api/logout), after forgetting the
 * token here: a panel that cannot be reached leaves the operator signed out here, told that the
 * session at the panel ends by itself.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

describe('log out at the panel', () => {
  const panels: ReferencePanel[] = [];
  before(async () => {
    for (const style of ['trpc', 'rpc', 'public'] as const) panels.push(await startReferencePanel({ style }));
  });
  after(() => Promise.all(panels.map((panel) => panel.close())));
  const core = suiteCore();

  test('one panel of each generation: the panel is asked, and the token no longer works there', async () => {
    const app = core();
    for (const panel of panels) {
      const { id } = await app.addPanel({ address: panel.url });
      await app.logIn(id, credentials);
      const [token] = panel.issuedTokens().slice(-1);
      const after = await app.logOut(id);
      assert.equal(after.signedIn, false);
      assert.equal(after.signedOutReason, null);
      assert.equal(panel.logouts.length, 1, panel.style);
      // The write is in the activity log with its outcome.
      const [entry] = (await app.listActivity({ panelId: id })).entries;
      assert.deepEqual([entry?.what.action, entry?.outcome, entry?.message], ['logOut', 'ok', null], panel.style);
      const read = await fetch(`${panel.baseUrl}/getUpdateStatus`, { headers: { authorization: `Bearer ${token}` } });
      assert.notEqual(read.status, 200);
      await app.removePanel(id);
    }
  });

  test('several at once: each panel is asked once', async () => {
    const app = core();
    const ids: string[] = [];
    for (const panel of panels) {
      const { id } = await app.addPanel({ address: panel.url });
      await app.logIn(id, credentials);
      ids.push(id);
    }
    const before = panels.map((panel) => panel.logouts.length);
    const afterwards = await app.logOutPanels(ids);
    assert.ok(afterwards.every((panel) => !panel.signedIn));
    assert.deepEqual(
      panels.map((panel, index) => panel.logouts.length - before[index]!),
      [1, 1, 1],
    );
    // A removal asks too (without waiting for the answer).
    await app.logIn(ids[0]!, credentials);
    const count = panels[0]!.logouts.length;
    await app.removePanel(ids[0]!);
    for (let tries = 0; panels[0]!.logouts.length === count && tries < 50; tries++) await sleep(20);
    assert.equal(panels[0]!.logouts.length, count + 1);
    await app.removePanels(ids.slice(1));
  });

  // Found by the model-based test (tests/integration/model-security.test.ts): a log in whose answer
  // came after a log out or a removal was dropped here, and the session it opened stayed open at the panel.
  test('a log in answered after a log out or a removal: its token is dropped here and its session ended at the panel', async () => {
    const app = core();
    const panel = panels[2]!;
    const { id } = await app.addPanel({ address: panel.url });
    const ended = async (how: () => Promise<unknown>, code: string) => {
      panel.setFault('login', { kind: 'latency', ms: 300 });
      const before = panel.issuedTokens().length;
      const logIn = app.logIn(id, credentials);
      while (panel.requests.at(-1)?.path !== '/api/login') await sleep(5);
      await how();
      await assert.rejects(logIn, (error: { code?: string }) => error.code === code);
      panel.setFault('login', null);
      const [token] = panel.issuedTokens().slice(before);
      assert.ok(token, 'the panel issued a token to the log in');
      // Nobody waits for that log out: it goes out once the log in's answer is in.
      for (let tries = 0; panel.acceptsToken(token) && tries < 50; tries++) await sleep(20);
      assert.equal(panel.acceptsToken(token), false, 'the session the dropped log in opened was ended at the panel');
      assert.equal(panel.logouts.at(-1)?.token, token);
    };
    await ended(() => app.logOut(id), 'NOT_SIGNED_IN');
    assert.equal((await app.listPanels()).find((one) => one.id === id)?.signedIn, false);
    await ended(() => app.removePanel(id), 'NOT_FOUND');
  });

  test('a log in whose token cannot be written: STORAGE, signed out here, and its session ended at the panel', async () => {
    const dir = await tempDir();
    let full = false;
    const stores = appStores(dir.path, (name, path) => {
      if (full && name === 'tokens') throw diskFullError(path);
    });
    try {
      const app = createCore({ dataDir: dir.path, encryption: testEncryption(), openStore: stores.openStore });
      const panel = panels[2]!;
      const { id } = await app.addPanel({ address: panel.url });
      const before = panel.issuedTokens().length;
      full = true;
      await assert.rejects(app.logIn(id, credentials), (error: { code?: string }) => error.code === 'STORAGE');
      full = false;
      assert.equal((await app.listPanels()).find((one) => one.id === id)?.signedIn, false);
      const [token] = panel.issuedTokens().slice(before);
      assert.ok(token, 'the panel issued a token to the log in');
      for (let tries = 0; panel.acceptsToken(token) && tries < 50; tries++) await sleep(20);
      assert.equal(panel.acceptsToken(token), false, 'the session the failed log in opened was ended at the panel');
      await app.flush();
    } finally {
      stores.retire();
      await dir.cleanup();
    }
  });

  test('a panel that cannot be reached: signed out here, and told the session at the panel ends by itself', async () => {
    const app = core();
    const gone = await startReferencePanel({ style: 'public' });
    const { id } = await app.addPanel({ address: gone.url });
    await app.logIn(id, credentials);
    await app.getSession(id);
    await gone.close();
    const after = await app.logOut(id);
    assert.equal(after.signedIn, false);
    assert.match(
      after.signedOutReason?.message ?? '',
      /^Signed out here; the panel could not end its session \(.+\), so it ends by itself on .+ GMT\.$/,
    );
    await app.removePanel(id);
  });
});
