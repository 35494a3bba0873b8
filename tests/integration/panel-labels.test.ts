import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { cleanTags, LABEL_LIMITS } from '../../shared/labels.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../../electron/core/index.ts';
import { rejectsWith, suiteCore, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel } from '../support/reference-panel/server.ts';

/** Group, tags, colour and favourite: what the operator may give a panel, and what is refused. */

describe('panel labels through the core', () => {
  const core = suiteCore();

  test('given at add, changed one at a time, cleared with null and []', async () => {
    const added = await core().addPanel({
      address: 'labels.example.com',
      group: 'Acme',
      tags: ['prod', 'eu'],
      colour: 'red',
      favourite: true,
    });
    assert.deepEqual([added.group, added.tags, added.colour, added.favourite], ['Acme', ['prod', 'eu'], 'red', true]);
    const moved = await core().updatePanel(added.id, { group: 'Globex' });
    assert.deepEqual(
      [moved.group, moved.tags, moved.colour, moved.favourite],
      ['Globex', ['prod', 'eu'], 'red', true],
      'only the group changed',
    );
    const cleared = await core().updatePanel(added.id, { group: '   ', tags: [], colour: null, favourite: false });
    assert.deepEqual([cleared.group, cleared.tags, cleared.colour, cleared.favourite], [null, [], null, false]);
  });

  test('refused with a message that says what is wrong, and nothing changes', async () => {
    const { id } = await core().addPanel({ address: 'refused.example.com', group: 'Kept' });
    const cases: [unknown, RegExp][] = [
      [{ colour: 'pink' }, /Colour must be one of red, orange/],
      [{ tags: ['a,b'] }, /commas separate tags/],
      [{ tags: ['x'.repeat(LABEL_LIMITS.tagLength + 1)] }, /too long \(32 characters at most\)/],
      [{ tags: Array.from({ length: LABEL_LIMITS.tags + 1 }, (_, index) => `t${index}`) }, /Too many tags \(20 at most\)/],
      [{ group: 'g'.repeat(LABEL_LIMITS.groupLength + 1) }, /Group is too long/],
      [{ group: 'bad\u0007group' }, /control characters/],
      [{ favourite: 'yes' }, /Favourite must be true or false/],
      [{ tags: 'prod' }, /Tags must be a list of text/],
    ];
    for (const [patch, message] of cases) {
      await rejectsWith(core().updatePanel(id, patch as never), 'INVALID_INPUT', message);
    }
    const [panel] = (await core().listPanels()).filter((candidate) => candidate.id === id);
    assert.deepEqual([panel?.group, panel?.tags, panel?.colour, panel?.favourite], ['Kept', [], null, false]);
  });
});

test('cleanTags keeps the first spelling of each tag, in order, without empties', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 30 }), (values) => {
      const tags = cleanTags(values);
      assert.equal(new Set(tags.map((tag) => tag.toLowerCase())).size, tags.length, 'no repeats in any letter case');
      assert.ok(tags.every((tag) => tag !== '' && tag === tag.trim()));
      assert.deepEqual(cleanTags(tags), tags, 'clean tags stay as they are');
    }),
  );
});

describe('the panel list kept in the settings', () => {
  const core = suiteCore();

  test('saved whole and read back; a bad one is refused with a message; a damaged file costs only the view', async () => {
    const view = {
      selectedPanelId: '00000000-0000-4000-8000-000000000001',
      sort: 'expiry' as const,
      attentionOnly: true,
      collapsedGroups: ['Acme'],
    };
    const status = await core().updateSettings({ panelList: view });
    assert.deepEqual(status.settings.panelList, view);
    assert.equal(status.settings.checkConcurrency, 16, 'the other settings stay');
    await rejectsWith(
      core().updateSettings({ panelList: { ...view, sort: 'colour' } as never }),
      'INVALID_INPUT',
      /Sort must be one of name, status, checked, expiry/,
    );
    await rejectsWith(core().updateSettings({ panelList: { ...view, selectedPanelId: 'x' } }), 'INVALID_INPUT', /UUID/);
    assert.deepEqual((await core().getAppStatus()).settings.panelList, view);
  });
});

test('a damaged view in settings.json falls back to the default view and keeps the other settings', async () => {
  const dir = await tempDir();
  try {
    writeFileSync(
      join(dir.path, 'settings.json'),
      JSON.stringify({ version: 1, storeTokensWithWeakProtection: false, checkConcurrency: 32, panelList: { sort: 'bogus' } }),
    );
    const status = await createCore({ dataDir: dir.path, encryption: testEncryption() }).getAppStatus();
    assert.equal(status.settings.checkConcurrency, 32);
    assert.deepEqual(status.settings.panelList, { selectedPanelId: null, sort: 'name', attentionOnly: false, collapsedGroups: [] });
    assert.deepEqual(status.startupProblems, []);
  } finally {
    await dir.cleanup();
  }
});

test('a settings.json from before the rename still reads: its old key is the panel list, written back as `panelList`', async () => {
  const dir = await tempDir();
  try {
    const file = join(dir.path, 'settings.json');
    const look = { selectedPanelId: null, sort: 'status', attentionOnly: true, collapsedGroups: ['Acme'], layout: 'table' };
    const old = { version: 1, storeTokensWithWeakProtection: false, checkConcurrency: 8, boardView: look }; // retired-word: an old file's key
    writeFileSync(file, JSON.stringify(old));
    const core = createCore({ dataDir: dir.path, encryption: testEncryption() });
    const status = await core.getAppStatus();
    assert.deepEqual(status.settings.panelList, look);
    assert.equal(status.settings.checkConcurrency, 8);
    assert.deepEqual(status.startupProblems, []);
    await core.updateSettings({ theme: 'dark' });
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(written.panelList, look);
    assert.equal(Object.hasOwn(written, 'boardView'), false, 'the old key is not written again'); // retired-word
  } finally {
    await dir.cleanup();
  }
});

describe('request timeout, theme and default email', () => {
  const core = suiteCore();

  test('saved and refused with the field named; an empty default email clears it', async () => {
    const status = await core().updateSettings({ requestTimeoutSeconds: 30, theme: 'dark', defaultEmail: '  ops@example.com ' });
    assert.deepEqual(
      [status.settings.requestTimeoutSeconds, status.settings.theme, status.settings.defaultEmail],
      [30, 'dark', 'ops@example.com'],
    );
    await rejectsWith(core().updateSettings({ requestTimeoutSeconds: 1 }), 'INVALID_INPUT', /^Request timeout must be at least 3/);
    await rejectsWith(core().updateSettings({ theme: 'blue' as never }), 'INVALID_INPUT', /^Theme must be one of system, light, dark/);
    await rejectsWith(core().updateSettings({ defaultEmail: 'not an email' }), 'INVALID_INPUT', /^Default email must look like/);
    assert.equal((await core().updateSettings({ defaultEmail: '' })).settings.defaultEmail, null);
  });
});

test('the request timeout applies from the next request on: a slower panel answers TIMEOUT under the setting', async () => {
  const dir = await tempDir();
  const panel = await startReferencePanel();
  try {
    const core = createCore({ dataDir: dir.path, encryption: testEncryption() });
    const { id } = await core.addPanel({ address: panel.url });
    await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    await core.updateSettings({ requestTimeoutSeconds: 3 });
    panel.setFault('getSession', { kind: 'latency', ms: 3500 });
    await rejectsWith(core.getSession(id), 'TIMEOUT', /3 s/);
    await core.updateSettings({ requestTimeoutSeconds: 10 });
    assert.ok((await core.getSession(id)).session, 'answers within the longer time');
    await core.flush();
  } finally {
    await panel.close();
    await dir.cleanup();
  }
});
