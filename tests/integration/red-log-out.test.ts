import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { type Confirmations, confirmations } from '../support/confirmations.ts';

/**
 * A log out of a production (red) panel is asked for in main's confirmation, its name typed, as
 * every other write to a red panel is (issue 35): a refusal leaves it signed in with nothing sent.
 * A log out touching no red panel asks nothing here (the window asks for several itself).
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

describe('log out of a production panel', () => {
  // Two panels, as one address is one panel in the list.
  const references: ReferencePanel[] = [];
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let asked: Confirmations;
  let answer = true;
  before(async () => {
    for (let index = 0; index < 2; index++) references.push(await startReferencePanel({ style: 'public' }));
  });
  after(() => Promise.all(references.map((reference) => reference.close())));
  const logouts = () => references.reduce((sum, reference) => sum + reference.logouts.length, 0);
  beforeEach(async () => {
    dir = await tempDir();
    answer = true;
    asked = confirmations(() => answer);
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), confirmWrite: asked.confirmWrite, timeoutMs: 5000 });
  });
  afterEach(() => dir.cleanup());

  async function signedIn(name: string, colour: 'red' | 'green' | null, reference = references[0]!): Promise<string> {
    const { id } = await core.addPanel({ address: reference.url, name, colour });
    await core.logIn(id, credentials);
    return id;
  }
  const isSignedIn = async (id: string) => (await core.listPanels()).find((panel) => panel.id === id)?.signedIn;

  test('one red panel: main asks with its name to type; no leaves it signed in and the panel unasked, yes logs out', async () => {
    const id = await signedIn('Shop production', 'red');
    const before = logouts();
    answer = false;
    await rejectsWith(core.logOut(id), 'NOT_CONFIRMED');
    assert.equal(await isSignedIn(id), true);
    assert.equal(logouts(), before);
    const [plan] = asked.plans;
    assert.equal(plan?.title, 'Log out of Shop production');
    assert.equal(plan?.typedConfirmation?.text, 'Shop production');
    assert.deepEqual(
      plan?.panels.map((panel) => [panel.name, panel.production, panel.requests.map((request) => request.request)]),
      [['Shop production', true, ['POST /api/logout']]],
    );

    answer = true;
    const after = await core.logOut(id);
    assert.equal(after.signedIn, false);
    assert.equal(logouts(), before + 1);
    assert.equal(asked.plans.length, 2);
  });

  test('a red panel signed in with an API token asks too, alone or among others: nothing is sent, its access here ends', async () => {
    const api = await startReferencePanel({ style: 'public', apiTokenSession: 'accept' });
    try {
      const { id } = await core.addPanel({ address: api.url, name: 'Shop production', colour: 'red' });
      await core.logInWithApiToken(id, { token: api.createApiToken() });
      const plain = await signedIn('Staging', null, references[1]);
      answer = false;
      await rejectsWith(core.logOut(id), 'NOT_CONFIRMED');
      await rejectsWith(core.logOutPanels([id, plain]), 'NOT_CONFIRMED');
      assert.deepEqual([await isSignedIn(id), await isSignedIn(plain)], [true, true]);
      const [alone, both] = asked.plans;
      assert.equal(alone?.typedConfirmation?.text, 'Shop production');
      assert.deepEqual(
        alone?.panels.map((panel) => panel.requests.map((request) => request.request)),
        [['nothing is sent']],
      );
      assert.deepEqual(
        both?.panels.map((panel) => panel.name),
        ['Shop production', 'Staging'],
      );
      answer = true;
      assert.equal((await core.logOut(id)).signedIn, false);
      assert.equal(api.logouts.length, 0, 'an API token is not ended at the panel');
    } finally {
      await api.close();
    }
  });

  test('a panel that is not red logs out as before: nothing is asked here', async () => {
    const id = await signedIn('Staging', 'green');
    const after = await core.logOut(id);
    assert.equal(after.signedIn, false);
    assert.equal(asked.plans.length, 0);
  });

  test('several with a red one among them: one plan of all, the red name typed; no logs out none of them', async () => {
    const red = await signedIn('Shop production', 'red');
    const plain = await signedIn('Staging', null, references[1]);
    const before = logouts();
    answer = false;
    await rejectsWith(core.logOutPanels([red, plain]), 'NOT_CONFIRMED');
    assert.deepEqual([await isSignedIn(red), await isSignedIn(plain)], [true, true]);
    const [plan] = asked.plans;
    assert.equal(plan?.title, 'Log out of 2 panels');
    assert.deepEqual(
      plan?.panels.map((panel) => panel.name),
      ['Shop production', 'Staging'],
    );
    assert.equal(plan?.typedConfirmation?.text, 'Shop production');
    assert.equal(logouts(), before);

    answer = true;
    const panels = await core.logOutPanels([red, plain]);
    assert.deepEqual(
      panels.map((panel) => panel.signedIn),
      [false, false],
    );
  });

  test('several without a red one: nothing is asked here', async () => {
    const one = await signedIn('Staging', 'green');
    const two = await signedIn('Testing', null, references[1]);
    const panels = await core.logOutPanels([one, two]);
    assert.deepEqual(
      panels.map((panel) => panel.signedIn),
      [false, false],
    );
    assert.equal(asked.plans.length, 0);
  });
});
