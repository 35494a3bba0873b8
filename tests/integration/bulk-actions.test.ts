import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { createCore } from '../../electron/core/index.ts';
import { PANEL_COLOURS } from '../../shared/labels.ts';
import type { Panel } from '../../shared/types.ts';
import { rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel } from '../support/reference-panel/server.ts';

/** Changes to several panels at once, each in one write, and Duplicate. */

async function withCore<T>(run: (app: ReturnType<typeof createCore>, dataDir: string) => Promise<T>, chooseFile?: string): Promise<T> {
  const dir = await tempDir();
  try {
    const app = createCore({
      dataDir: dir.path,
      encryption: testEncryption(),
      chooseExportFile: async () => chooseFile ?? null,
      chooseImportFile: async () => chooseFile ?? null,
    });
    return await run(app, dir.path);
  } finally {
    await dir.cleanup();
  }
}

test('group, tags, colour and favourite of several panels at once; the others untouched', async () => {
  await withCore(async (app, dataDir) => {
    const a = await app.addPanel({ address: 'a.example.com', tags: ['old', 'keep'] });
    const b = await app.addPanel({ address: 'b.example.com', tags: ['Old'] });
    const c = await app.addPanel({ address: 'c.example.com', group: 'C', tags: ['old'] });
    const changed = await app.updatePanels([a.id, b.id], {
      group: 'Acme',
      addTags: ['eu', 'keep'],
      removeTags: ['OLD'],
      colour: 'red',
      favourite: true,
    });
    assert.deepEqual(
      changed.map((panel) => [panel.id, panel.group, panel.tags, panel.colour, panel.favourite]),
      [
        [a.id, 'Acme', ['keep', 'eu'], 'red', true],
        [b.id, 'Acme', ['eu', 'keep'], 'red', true],
      ],
    );
    const untouched = (await app.listPanels()).find((panel) => panel.id === c.id)!;
    assert.deepEqual([untouched.group, untouched.tags, untouched.colour], ['C', ['old'], null]);
    // On disk too: what a restart would read.
    const onDisk = JSON.parse(readFileSync(join(dataDir, 'panels.json'), 'utf8')) as { panels: { id: string; group: string | null }[] };
    assert.deepEqual(
      onDisk.panels.map((panel) => panel.group),
      ['Acme', 'Acme', 'C'],
    );
    // Clearing: no group, no colour.
    const cleared = await app.updatePanels([a.id], { group: null, colour: null });
    assert.deepEqual([cleared[0]!.group, cleared[0]!.colour], [null, null]);
  });
});

test('mute: set on several panels or one (updatePanels, updatePanel), kept on disk, never exported, not copied by Duplicate', async () => {
  await withCore(async (app, dataDir) => {
    const a = await app.addPanel({ address: 'a.example.com' });
    const b = await app.addPanel({ address: 'b.example.com' });
    assert.deepEqual([a.muted, b.muted], [false, false]);
    const muted = await app.updatePanels([a.id, b.id], { muted: true });
    assert.deepEqual(
      muted.map((panel) => panel.muted),
      [true, true],
    );
    assert.equal((await app.updatePanel(b.id, { muted: false })).muted, false);
    const onDisk = JSON.parse(readFileSync(join(dataDir, 'panels.json'), 'utf8')) as { panels: { muted?: boolean }[] };
    assert.deepEqual(
      onDisk.panels.map((panel) => panel.muted),
      [true, false],
    );
    const copy = await app.duplicatePanel(a.id, { address: 'c.example.com' });
    assert.equal(copy.muted, false);
    await rejectsWith(app.updatePanels([a.id], { muted: 'yes' as never }), 'INVALID_INPUT', /Muted must be true or false/);
  });
});

test('a tag change that would give a panel too many tags changes nothing, and says which panel', async () => {
  await withCore(async (app) => {
    const full = await app.addPanel({
      address: 'full.example.com',
      name: 'Full',
      tags: Array.from({ length: 19 }, (_, index) => `t${index}`),
    });
    const other = await app.addPanel({ address: 'other.example.com' });
    await rejectsWith(
      app.updatePanels([other.id, full.id], { addTags: ['x', 'y'] }),
      'INVALID_INPUT',
      /^"Full" would have 21 tags \(20 at most\), so nothing was changed\./,
    );
    assert.deepEqual((await app.listPanels()).find((panel) => panel.id === other.id)!.tags, []);
  });
});

test('log out of several panels: all signed out, the token store written once without their tokens', async () => {
  const reference = await startReferencePanel();
  try {
    await withCore(async (app, dataDir) => {
      const first = await app.addPanel({ address: reference.url });
      await app.logIn(first.id, { email: DEMO_USER.email, password: DEMO_USER.password });
      const signedOut = await app.addPanel({ address: 'signed-out.example.com' });
      const panels = await app.logOutPanels([first.id, signedOut.id]);
      assert.deepEqual(
        panels.map((panel) => panel.signedIn),
        [false, false],
      );
      const tokens = JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8')) as { tokens: Record<string, unknown> };
      assert.deepEqual(Object.keys(tokens.tokens), []);
      await rejectsWith(app.getSession(first.id), 'NOT_SIGNED_IN');
    });
  } finally {
    await reference.close();
  }
});

test('remove several panels in one go; unknown ids are ignored, an empty list is refused', async () => {
  await withCore(async (app) => {
    const ids = [];
    for (let index = 0; index < 5; index++) ids.push((await app.addPanel({ address: `p${index}.example.com` })).id);
    await app.removePanels([ids[1]!, ids[3]!, '00000000-0000-4000-8000-000000000000']);
    assert.deepEqual(
      (await app.listPanels()).map((panel) => panel.address),
      ['p0.example.com', 'p2.example.com', 'p4.example.com'],
    );
    await rejectsWith(app.removePanels([]), 'INVALID_INPUT', /Choose at least one panel/);
  });
});

test('Duplicate: the settings and labels at another address, signed out, named "(copy)"; the same address is refused', async () => {
  const reference = await startReferencePanel();
  try {
    await withCore(async (app) => {
      const source = await app.addPanel({
        address: reference.url,
        name: 'Prod',
        group: 'Acme',
        tags: ['eu'],
        colour: 'red',
        favourite: true,
      });
      await app.updatePanel(source.id, { generation: 'trpc', tokenField: 'result.data.token' });
      await app.logIn(source.id, { email: DEMO_USER.email, password: DEMO_USER.password }).catch(() => undefined);
      const copy = await app.duplicatePanel(source.id, { address: 'prod-2.example.com' });
      const original = (await app.listPanels()).find((panel) => panel.id === source.id)!;
      assert.deepEqual(
        [
          copy.name,
          copy.address,
          copy.group,
          copy.tags,
          copy.colour,
          copy.favourite,
          copy.generation,
          copy.loginPath,
          copy.sessionPath,
          copy.tokenField,
          copy.signedIn,
          copy.lastEmail,
        ],
        [
          'Prod (copy)',
          'prod-2.example.com',
          'Acme',
          ['eu'],
          'red',
          true,
          'trpc',
          original.loginPath,
          original.sessionPath,
          'result.data.token',
          false,
          null,
        ],
      );
      assert.notEqual(copy.id, source.id);
      await rejectsWith(app.duplicatePanel(source.id, { address: reference.url }), 'DUPLICATE_PANEL', /already in your list as "Prod"/);
      const named = await app.duplicatePanel(source.id, { address: 'prod-3.example.com', name: 'Prod 3' });
      assert.equal(named.name, 'Prod 3');
    });
  } finally {
    await reference.close();
  }
});

/** Any list of panels an operator could make comes back the same through export and import. */
test('property: export then import into an empty list gives the same panels', async () => {
  const label = fc
    .stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,14}$/)
    .map((text) => text.trim())
    .filter((text) => text.length > 0);
  const panelArb = fc.record({
    host: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
    name: fc.option(label, { nil: undefined }),
    group: fc.option(label, { nil: null }),
    tags: fc.uniqueArray(label, { maxLength: 4, selector: (tag) => tag.toLowerCase() }),
    colour: fc.constantFrom(null, ...PANEL_COLOURS),
    favourite: fc.boolean(),
    trpc: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(panelArb, { minLength: 1, maxLength: 12, selector: (panel) => panel.host }), async (specs) => {
      const dir = await tempDir();
      try {
        const file = join(dir.path, 'out.json');
        const source = createCore({
          dataDir: join(dir.path, 'a'),
          encryption: testEncryption(),
          chooseExportFile: async () => file,
        });
        for (const spec of specs) {
          const added = await source.addPanel({
            address: `${spec.host}.example.com`,
            name: spec.name,
            group: spec.group,
            tags: spec.tags,
            colour: spec.colour,
            favourite: spec.favourite,
          });
          if (spec.trpc) await source.updatePanel(added.id, { generation: 'trpc' });
        }
        await source.exportPanels();
        const target = createCore({
          dataDir: join(dir.path, 'b'),
          encryption: testEncryption(),
          chooseImportFile: async () => file,
        });
        const preview = (await target.previewImport({ from: 'file' }))!;
        assert.equal(preview.counts.new, specs.length);
        await target.applyImport(preview.id, { duplicates: 'skip' });
        assert.deepEqual(comparable(await target.listPanels()), comparable(await source.listPanels()));
      } finally {
        await dir.cleanup();
      }
    }),
    { numRuns: 40 },
  );
});

function comparable(panels: readonly Panel[]) {
  return panels.map(({ id: _id, createdAt: _createdAt, ...rest }) => rest);
}
