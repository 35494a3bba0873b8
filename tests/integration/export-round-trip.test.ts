import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createCore, type Core } from '../../electron/core/index.ts';
import { PANEL_NAME_MAX } from '../../shared/labels.ts';
import type { ImportPreview } from '../../shared/transfer.ts';
import { rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { settingsOf } from '../support/panel-fixture.ts';

/**
 * Every list Paneldeck can hold exports and imports back whole: names it makes itself (after a
 * long address, a copy's " (copy)") stay within the name's limit, and a longer name from an older
 * version's export is shortened on import, with a note, instead of losing the panel.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

let folders = 0;
/** A core on a folder of its own that exports to, and imports from, `file`. */
function openCore(file: string): Core {
  folders++;
  return createCore({
    dataDir: join(dir.path, `data-${folders}`),
    encryption: testEncryption(),
    chooseExportFile: async () => file,
    chooseImportFile: async () => file,
  });
}

/** Exports everything from `from`, imports it into a new core, and returns both lists' settings. */
async function roundTrip(from: Core, file: string) {
  await from.exportPanels();
  const into = openCore(file);
  const preview = (await into.previewImport({ from: 'file' })) as ImportPreview;
  await into.applyImport(preview.id, { duplicates: 'update' });
  return { before: settingsOf(await from.listPanels()), after: settingsOf(await into.listPanels()), preview };
}

/** A host name of about `length` characters, in labels of at most 63. */
const longHost = (length: number, seed: string) => {
  const labels: string[] = [];
  for (let left = length; left > 0; left -= 64) labels.push(`${seed}${'a'.repeat(Math.max(1, Math.min(62, left - 1) - seed.length))}`);
  return `${labels.join('.')}.example`;
};

describe('names Paneldeck makes itself fit the limit', () => {
  test('a panel added without a name at a 200-character address, and copies of copies of a 100-character name: all import back', async () => {
    const file = join(dir.path, 'names.json');
    const app = openCore(file);
    const unnamed = await app.addPanel({ address: longHost(200, 'h') });
    assert.ok(unnamed.name.length <= PANEL_NAME_MAX, `${unnamed.name.length} characters`);
    assert.ok(unnamed.name.endsWith('…'));
    let source = await app.addPanel({ address: 'one.example', name: 'N'.repeat(PANEL_NAME_MAX) });
    for (const n of [2, 3, 4]) {
      source = await app.duplicatePanel(source.id, { address: `copy-${n}.example` });
      assert.ok(source.name.length <= PANEL_NAME_MAX, `${source.name.length} characters`);
      assert.ok(source.name.endsWith(' (copy)'));
    }
    const { before, after, preview } = await roundTrip(app, file);
    assert.equal(preview.counts.invalid, 0);
    assert.deepEqual(after, before);
  });

  test('a name over the limit in a file (older versions wrote them): shortened, with a note, never refused', async () => {
    const file = join(dir.path, 'old.json');
    const app = openCore(file);
    const text = JSON.stringify([{ name: `${'Old '.repeat(40)}panel`, address: 'old.example' }]);
    const preview = (await app.previewImport({ from: 'text', text })) as ImportPreview;
    assert.equal(preview.rows[0]!.status, 'new');
    assert.match(preview.rows[0]!.message ?? '', /name was shortened to 100 characters/);
    await app.applyImport(preview.id, { duplicates: 'update' });
    const [panel] = await app.listPanels();
    assert.equal(panel!.name.length, PANEL_NAME_MAX);
  });

  test('property: any list made through Add panel and Duplicate exports and imports back whole', async () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        name: fc.oneof(
          fc.constant(''),
          fc.string({ minLength: 1, maxLength: PANEL_NAME_MAX }).filter((name) => name.trim() !== '' && !/\p{Cc}/u.test(name)),
        ),
        hostLength: fc.integer({ min: 5, max: 220 }),
      }),
      fc.record({ kind: fc.constant('duplicate' as const), of: fc.nat() }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        run++;
        const file = join(dir.path, `property-${run}.json`);
        const app = openCore(file);
        let n = 0;
        for (const one of steps) {
          n++;
          const panels = await app.listPanels();
          if (one.kind === 'add' || panels.length === 0) {
            const name = one.kind === 'add' ? one.name : '';
            await app.addPanel({ address: longHost(one.kind === 'add' ? one.hostLength : 20, `p${n}x`), name });
          } else {
            await app.duplicatePanel(panels[one.of % panels.length]!.id, { address: `copy-${n}.example` });
          }
        }
        const { before, after, preview } = await roundTrip(app, file);
        assert.equal(preview.counts.invalid, 0, JSON.stringify(preview.rows.filter((row) => row.status === 'invalid')));
        assert.deepEqual(after, before);
      }),
      { numRuns: 25 },
    );
  });
});

describe('Duplicate and plain http', () => {
  test('the copy of a panel allowed plain http to another host is not: the choice is asked again for the new address', async () => {
    const app = openCore(join(dir.path, 'unused.json'));
    const source = await app.addPanel({ address: 'http://203.0.113.7:3000', allowPlainHttp: true });
    await rejectsWith(app.duplicatePanel(source.id, { address: 'http://203.0.113.8:3000' }), 'INVALID_INPUT', /https/);
    const allowed = await app.duplicatePanel(source.id, { address: 'http://203.0.113.8:3000', allowPlainHttp: true });
    assert.equal(allowed.allowPlainHttp, true);
    const https = await app.duplicatePanel(source.id, { address: 'https://203.0.113.9' });
    assert.equal(https.allowPlainHttp, false);
  });
});
