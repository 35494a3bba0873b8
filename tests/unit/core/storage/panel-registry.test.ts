import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { normaliseAddress } from '../../../../electron/core/common/address.ts';
import { newPanelRecord as newRecord } from '../../../../electron/core/panels/new-panel.ts';
import { jsonFileStore, type JournalPolicy } from '../../../../electron/core/storage/document-store.ts';
import { PanelRegistry, type PanelRecord } from '../../../../electron/core/storage/panel-registry.ts';
import { rejectsWith, tempDir } from '../../../support/helpers.ts';
import { FaultyFiles } from '../../../support/storage/faulty-files.ts';

/** The panel list's changes: shown at once, resolved once on disk, taken back when the disk fails. */

const JOURNAL: JournalPolicy = { fromBytes: 0, journalShare: 100 };

function panel(address: string, name = address): PanelRecord {
  const { baseUrl, display } = normaliseAddress(address);
  return newRecord({ baseUrl, display, allowPlainHttp: false, name }, '2026-01-01T00:00:00.000Z');
}

const names = (registry: PanelRegistry) => registry.list().map((record) => record.name);

describe('the panel registry', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let path: string;
  let files: FaultyFiles;
  beforeEach(async () => {
    dir = await tempDir('paneldeck-registry-');
    path = join(dir.path, 'panels.json');
    files = new FaultyFiles();
  });
  afterEach(() => dir.cleanup());

  const open = (journal: JournalPolicy | null = JOURNAL) =>
    new PanelRegistry(jsonFileStore(path, { mode: 0o600, journal, files }), new Date());
  const reopened = () => names(new PanelRegistry(jsonFileStore(path, { mode: 0o600, journal: JOURNAL }), new Date()));

  test('a change shows at once, and its promise resolves once it is on disk', async () => {
    const registry = open();
    const adding = registry.insert(panel('a.example.com', 'A'));
    assert.deepEqual(names(registry), ['A'], 'shown before its write');
    assert.deepEqual(reopened(), [], 'not yet on disk');
    await adding;
    assert.deepEqual(reopened(), ['A']);
    const renamed = await registry.update(registry.list()[0]!.id, { name: 'A2' });
    assert.equal(renamed?.name, 'A2');
    assert.deepEqual(reopened(), ['A2']);
  });

  test('a write that fails is taken back, and the changes queued after it are written on the list without it', async () => {
    const registry = open();
    await registry.insert(panel('a.example.com', 'A'));
    const [a] = registry.list();
    let writes = 0;
    files.decide = (operation) => ({ fail: operation.kind === 'write' && writes++ === 0 });
    const rename = registry.update(a!.id, { name: 'renamed' });
    const add = registry.insert(panel('b.example.com', 'B'));
    assert.deepEqual(names(registry), ['renamed', 'B']);
    await rejectsWith(rename, 'STORAGE', /disk is full/);
    await add;
    assert.deepEqual(names(registry), ['A', 'B'], 'the rename is gone, the add stays');
    assert.deepEqual(reopened(), ['A', 'B']);
  });

  test('two panels at one address are refused: at once against the list shown, and at the write when the change before failed', async () => {
    const registry = open();
    await registry.insert(panel('a.example.com', 'A'));
    await rejectsWith(registry.insert(panel('a.example.com', 'Twin')), 'DUPLICATE_PANEL', /already in your list as "A"/);
    await rejectsWith(registry.insertAndUpdate([panel('c.example.com'), panel('c.example.com')], new Map()), 'DUPLICATE_PANEL');
    assert.deepEqual(names(registry), ['A']);

    // B moves to c.example.com, then C is added at b.example.com, freed by the move; the move's write fails.
    await registry.insert(panel('b.example.com', 'B'));
    const b = registry.list()[1]!;
    let failNext = true;
    files.decide = (operation) => {
      const fail = failNext && operation.kind === 'write';
      if (fail) failNext = false;
      return { fail };
    };
    const move = registry.update(b.id, { baseUrl: normaliseAddress('c.example.com').baseUrl });
    const add = registry.insert(panel('b.example.com', 'C'));
    await rejectsWith(move, 'STORAGE');
    await rejectsWith(add, 'DUPLICATE_PANEL', /already in your list as "B"/);
    assert.deepEqual(names(registry), ['A', 'B']);
    assert.deepEqual(reopened(), ['A', 'B']);
  });

  test('a list an older version left with two panels at one address still loads, and changes to it go through', async () => {
    const [first, second, other] = [panel('a.example.com', 'First'), panel('a.example.com', 'Second'), panel('o.example.com', 'Other')];
    writeFileSync(path, JSON.stringify({ version: 3, panels: [first, second, other] }));
    const registry = open(null);
    assert.equal(registry.findByBaseUrl(first.baseUrl)?.name, 'First', 'the first in the list, as a search finds it');
    await registry.update(other.id, { name: 'Other2' });
    await registry.remove(first.id);
    assert.equal(registry.findByBaseUrl(first.baseUrl)?.name, 'Second');
    assert.deepEqual(
      JSON.parse(readFileSync(path, 'utf8')).panels.map((record: PanelRecord) => record.name),
      ['Second', 'Other2'],
    );
  });

  test('compact folds the journal into panels.json: the file alone is the list', async () => {
    const registry = open();
    await registry.insert(panel('a.example.com', 'A'));
    await registry.insert(panel('b.example.com', 'B'));
    await registry.compact();
    assert.deepEqual(
      JSON.parse(readFileSync(path, 'utf8')).panels.map((record: PanelRecord) => record.name),
      ['A', 'B'],
    );
  });
});
