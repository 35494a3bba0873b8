import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { assertMode, readAllFiles, rejectsWith, tempDir, testEncryption, type TestEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

describe('what is kept on disk, and what survives a restart', () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let encryption: TestEncryption;
  const start = () => createCore({ dataDir: dir.path, encryption });

  before(async () => {
    panel = await startReferencePanel();
  });
  after(() => panel.close());
  beforeEach(async () => {
    dir = await tempDir();
    encryption = testEncryption();
  });
  afterEach(() => dir.cleanup());

  /** Panels A and B: the same reference panel under two addresses. */
  async function addTwoPanels(core: Core) {
    const a = await core.addPanel({ address: panel.url, name: 'A' });
    const b = await core.addPanel({ address: `http://localhost:${panel.port}`, name: 'B' });
    return [a, b] as const;
  }

  /** Starts anew on the same folder: the first panel is signed out with TOKEN_UNREADABLE and `reason`, the second still signed in. */
  async function restartExpectingOnlyTheFirstSignedOut(reason: RegExp): Promise<Core> {
    const restarted = start();
    const [first, second] = await restarted.listPanels();
    assert.equal(first?.signedIn, false);
    assert.equal(first?.signedOutReason?.code, 'TOKEN_UNREADABLE');
    assert.match(first?.signedOutReason?.message ?? '', reason);
    assert.equal(second?.signedIn, true);
    return restarted;
  }

  test('no file under the data folder holds the token or the password in clear; the token file is owner-only', async () => {
    const core = start();
    const { id } = await core.addPanel({ address: panel.url });
    await core.logIn(id, credentials);
    await core.getSession(id);
    const token = panel.issuedTokens().at(-1)!;
    const files = await readAllFiles(dir.path);
    // The log in is in the activity log (without its password or token: checked below with the rest).
    assert.deepEqual(files.map((file) => file.path.slice(dir.path.length + 1)).sort(), ['activity.jsonl', 'panels.json', 'tokens.json']);
    for (const file of files) {
      for (const secret of [token, DEMO_USER.password, Buffer.from(token).toString('base64')]) {
        assert.ok(!file.content.includes(secret), `${file.path} holds a secret in clear`);
      }
    }
    assertMode(join(dir.path, 'tokens.json'), 0o600);
    const stored = JSON.parse(readFileSync(join(dir.path, 'tokens.json'), 'utf8'));
    assert.equal(stored.tokens[id].backend, 'gnome_libsecret');
  });

  test('a new core on the same folder sees the same panels and stays signed in', async () => {
    const first = start();
    const a = await first.addPanel({ address: panel.url, name: 'A' });
    const b = await first.addPanel({ address: 'panel-b.example.com', name: 'B' });
    await first.logIn(a.id, credentials);
    await first.getSession(a.id);
    // Check results are written coalesced; the app flushes them at quit.
    await first.flush();

    const second = start();
    const panels = await second.listPanels();
    assert.deepEqual(
      panels.map((p) => [p.name, p.signedIn, p.tokenStorage]),
      [
        ['A', true, 'keyring'],
        ['B', false, null],
      ],
    );
    assert.deepEqual(panels[0]?.lastCheck?.ok, true);
    assert.equal((await second.getSession(a.id)).panelId, a.id);
    assert.equal(b.signedIn, false);
  });

  test('log out and remove delete the ciphertext from disk', async () => {
    const core = start();
    const a = await core.addPanel({ address: panel.url });
    const b = await core.addPanel({ address: `http://localhost:${panel.port}` });
    await core.logIn(a.id, credentials);
    await core.logIn(b.id, credentials);
    const tokens = () => Object.keys(JSON.parse(readFileSync(join(dir.path, 'tokens.json'), 'utf8')).tokens).sort();
    assert.deepEqual(tokens(), [a.id, b.id].sort());
    await core.logOut(a.id);
    assert.deepEqual(tokens(), [b.id]);
    await core.removePanel(b.id);
    assert.deepEqual(tokens(), []);
  });

  for (const [label, init] of [
    ['the basic_text backend', { backend: 'basic_text' }],
    ['no encryption', { available: false }],
  ] as const) {
    test(`with ${label} the token is kept in memory only and says so`, async () => {
      encryption = testEncryption(init);
      const core = start();
      const { id } = await core.addPanel({ address: panel.url });
      const signedIn = await core.logIn(id, credentials);
      assert.equal(signedIn.tokenStorage, 'memory');
      assert.equal((await core.getSession(id)).panelId, id);
      assert.equal(encryption.encryptCalls, 0, 'a weak key is never used');
      const onDisk = (await readAllFiles(dir.path)).map((file) => file.content).join('\n');
      assert.ok(!onDisk.includes(panel.issuedTokens().at(-1)!));

      const restarted = await start().listPanels();
      assert.equal(restarted[0]?.signedIn, false);
      assert.equal(restarted[0]?.signedOutReason?.code, 'NOT_SIGNED_IN');
      assert.match(restarted[0]?.signedOutReason?.message ?? '', /kept in memory only/);
      assert.equal(restarted[0]?.lastEmail, DEMO_USER.email);
    });
  }

  test('encryption that fails while saving falls back to memory', async () => {
    encryption.encrypt = async () => {
      throw new Error('keyring locked');
    };
    const core = start();
    const { id } = await core.addPanel({ address: panel.url });
    assert.equal((await core.logIn(id, credentials)).tokenStorage, 'memory');
  });

  test('a changed keyring leaves that panel signed out with TOKEN_UNREADABLE, keeps its ciphertext, and touches no other panel', async () => {
    const core = start();
    const [a, b] = await addTwoPanels(core);
    await core.logIn(a.id, credentials);
    encryption.changeKeyring();
    await core.logIn(b.id, credentials);

    const restarted = await restartExpectingOnlyTheFirstSignedOut(/keyring/);
    assert.equal((await restarted.getSession(b.id)).panelId, b.id);
    await rejectsWith(restarted.getSession(a.id), 'NOT_SIGNED_IN', /could not be decrypted/);
    const stored = JSON.parse(readFileSync(join(dir.path, 'tokens.json'), 'utf8'));
    assert.ok(stored.tokens[a.id], 'nothing is deleted silently');
  });

  test('secure storage gone at the next start (backend now basic_text): ENCRYPTION_UNAVAILABLE, ciphertext kept, back once it returns', async () => {
    const core = start();
    const { id } = await core.addPanel({ address: panel.url });
    await core.logIn(id, credentials);

    encryption.backendName = 'basic_text';
    const degraded = await start().listPanels();
    assert.equal(degraded[0]?.signedIn, false);
    assert.equal(degraded[0]?.signedOutReason?.code, 'ENCRYPTION_UNAVAILABLE');
    assert.match(
      degraded[0]?.signedOutReason?.message ?? '',
      /changed from gnome_libsecret to basic_text.*key built into the app.*stays on disk/,
    );

    encryption.backendName = 'gnome_libsecret';
    const recovered = start();
    assert.equal((await recovered.listPanels())[0]?.signedIn, true);
    assert.equal((await recovered.getSession(id)).panelId, id);
  });

  test('one damaged token entry signs out only its own panel; a copy of the file is kept and the other ciphertext survives', async () => {
    const core = start();
    const [a, b] = await addTwoPanels(core);
    await core.logIn(a.id, credentials);
    await core.logIn(b.id, credentials);
    const file = join(dir.path, 'tokens.json');
    const original = JSON.parse(readFileSync(file, 'utf8'));
    const intact = original.tokens[b.id];
    original.tokens[a.id].ciphertext = '%%% not base64 %%%';
    writeFileSync(file, JSON.stringify(original));

    const restarted = await restartExpectingOnlyTheFirstSignedOut(
      /damaged on disk \(the token store as it was is kept at .*tokens\.corrupt-/,
    );
    const copies = readdirSync(dir.path).filter((name) => /^tokens\.corrupt-.*\.json$/.test(name));
    assert.equal(copies.length, 1);
    assert.equal(JSON.parse(readFileSync(join(dir.path, copies[0]!), 'utf8')).tokens[a.id].ciphertext, '%%% not base64 %%%');

    await restarted.logIn(a.id, credentials);
    const rewritten = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(rewritten.tokens[b.id], intact);
    assert.equal(
      (await start().listPanels()).every((p) => p.signedIn),
      true,
    );
  });

  for (const [what, content, reason] of [
    ['not JSON', '{"version": 1, "tokens": {', /not valid JSON\. It was kept at .*tokens\.corrupt-/],
    ['of an unknown format', '{"version": 99, "tokens": []}', /format this version does not know\. It was kept at .*tokens\.corrupt-/],
  ] as const) {
    test(`a token store that is ${what}: signed-in panels say why and where the file went, and the panel list is kept`, async () => {
      const core = start();
      const { id } = await core.addPanel({ address: panel.url });
      await core.logIn(id, credentials);
      writeFileSync(join(dir.path, 'tokens.json'), content);
      const [restarted] = await start().listPanels();
      assert.equal(restarted?.id, id);
      assert.equal(restarted?.signedIn, false);
      assert.equal(restarted?.signedOutReason?.code, 'TOKEN_UNREADABLE');
      assert.match(restarted?.signedOutReason?.message ?? '', reason);
      const kept = readdirSync(dir.path).filter((name) => name.startsWith('tokens.corrupt-'));
      assert.deepEqual(
        kept.map((name) => readFileSync(join(dir.path, name), 'utf8')),
        [content],
      );
    });
  }

  test('a log in whose panel list cannot be saved is STORAGE and leaves the panel signed out, with no ciphertext left', async () => {
    const core = start();
    const { id } = await core.addPanel({ address: panel.url });
    rmSync(join(dir.path, 'panels.json'));
    mkdirSync(join(dir.path, 'panels.json'));
    await rejectsWith(core.logIn(id, credentials), 'STORAGE', /could not save the panel list/);
    assert.equal((await core.listPanels())[0]?.signedIn, false);
    await rejectsWith(core.getSession(id), 'NOT_SIGNED_IN');
    const stored = JSON.parse(readFileSync(join(dir.path, 'tokens.json'), 'utf8'));
    assert.equal(stored.tokens[id], undefined);
  });

  test('a registry that is not JSON is moved aside, and the app carries on', async () => {
    writeFileSync(join(dir.path, 'panels.json'), '{"version": 1, "panels": [');
    const core = start();
    assert.deepEqual(await core.listPanels(), []);
    const problem = await core.loadProblem();
    assert.match(problem?.message ?? '', /not valid JSON/);
    assert.match(problem?.movedTo ?? '', /panels\.corrupt-.*\.json$/);
    assert.equal(readFileSync(problem!.movedTo!, 'utf8'), '{"version": 1, "panels": [');
    await core.addPanel({ address: panel.url });
    assert.equal((await start().listPanels()).length, 1);
  });

  test('damaged entries are skipped, a copy of the file is kept, and the readable panels stay', async () => {
    const core = start();
    const { id } = await core.addPanel({ address: panel.url, name: 'Good' });
    const file = join(dir.path, 'panels.json');
    const document = JSON.parse(readFileSync(file, 'utf8'));
    document.panels.push({ id: 'broken', name: 7 }, { ...document.panels[0], id: crypto.randomUUID(), baseUrl: 'http://evil.example/api' });
    writeFileSync(file, JSON.stringify(document));
    const restarted = start();
    assert.deepEqual(
      (await restarted.listPanels()).map((p) => p.id),
      [id],
    );
    const problem = await restarted.loadProblem();
    assert.match(problem?.message ?? '', /2 damaged panel entries in the panel list were skipped/);
    assert.equal(JSON.parse(readFileSync(problem!.movedTo!, 'utf8')).panels.length, 3);
  });

  test('a write that fails is STORAGE, and nothing changes in memory', async () => {
    const core = start();
    const { id } = await core.addPanel({ address: panel.url, name: 'Before' });
    // A directory where the atomic write renames its file makes the write fail, even as root.
    rmSync(join(dir.path, 'panels.json'));
    mkdirSync(join(dir.path, 'panels.json'));
    await rejectsWith(core.updatePanel(id, { name: 'After' }), 'STORAGE', /could not save the panel list/);
    assert.equal((await core.listPanels())[0]?.name, 'Before');
    assert.ok(readdirSync(dir.path).includes('panels.json'));
  });
});
