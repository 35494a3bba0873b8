import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  jsonFileStore,
  journalPathOf,
  type DocumentChange,
  type DocumentStore,
  type JournalPolicy,
} from '../../../../electron/core/storage/document-store.ts';
import { tempDir } from '../../../support/helpers.ts';
import { FaultyFiles } from '../../../support/storage/faulty-files.ts';

/** A document written whole, or its changes journaled: what is on disk after each save, a kill, or a failing disk. */

/** Every save journaled: the file written whole again only once the journal is a hundred times its (tiny) size. */
const ALWAYS: JournalPolicy = { fromBytes: 0, journalShare: 100 };

type Panel = { id: string; name: string };
const doc = (panels: readonly Panel[]) => ({ version: 3, panels: [...panels] });
const [A, B, C] = ['A', 'B', 'C'].map((name): Panel => ({ id: name.toLowerCase(), name })) as [Panel, Panel, Panel];
const set = (...panels: Panel[]): DocumentChange => ({ field: 'panels', set: panels.map((panel) => [panel.id, panel]), remove: [] });

describe('a document store', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let path: string;
  beforeEach(async () => {
    dir = await tempDir('paneldeck-store-');
    path = join(dir.path, 'panels.json');
  });
  afterEach(() => dir.cleanup());

  const open = (journal: JournalPolicy | null = ALWAYS, files?: FaultyFiles): DocumentStore => {
    const store = jsonFileStore(path, { mode: 0o600, journal, ...(files ? { files } : {}) });
    store.read();
    return store;
  };
  const fresh = (journal: JournalPolicy | null = ALWAYS) => jsonFileStore(path, { mode: 0o600, journal }).read();
  const names = () => readdirSync(dir.path).sort();

  test('without a journal: written whole, tab-indented, no temp file; read gives it back', async () => {
    const store = open(null);
    await store.save(set(A), () => doc([A]));
    assert.equal(readFileSync(path, 'utf8'), `${JSON.stringify(doc([A]), null, '\t')}\n`);
    assert.deepEqual(names(), ['panels.json']);
    assert.deepEqual(fresh(null), doc([A]));
  });

  test('a document smaller than fromBytes is written whole even with a journal policy', async () => {
    const store = open({ fromBytes: 10_000, journalShare: 1 });
    await store.save(null, () => doc([A]));
    await store.save(set(B), () => doc([A, B]));
    assert.deepEqual(names(), ['panels.json']);
  });

  test('journaled: the file stays as written, the journal holds the changes, read replays them, compact folds them in', async () => {
    const store = open();
    await store.save(null, () => doc([A]));
    const written = readFileSync(path, 'utf8');
    await store.save(set(B), () => doc([A, B]));
    await store.save(set({ id: 'a', name: 'A2' }), () => doc([{ id: 'a', name: 'A2' }, B]));
    assert.equal(readFileSync(path, 'utf8'), written, 'the file is not rewritten');
    assert.deepEqual(names(), ['panels.journal', 'panels.json']);
    assert.deepEqual(fresh(), doc([{ id: 'a', name: 'A2' }, B]));
    // Any reader of the policy's stores replays, whatever its own thresholds.
    assert.deepEqual(fresh({ fromBytes: 1e9, journalShare: 1 }), doc([{ id: 'a', name: 'A2' }, B]));

    await store.compact(() => doc([{ id: 'a', name: 'A2' }, B]));
    assert.deepEqual(names(), ['panels.json']);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), doc([{ id: 'a', name: 'A2' }, B]));
    await store.compact(() => assert.fail('nothing to fold in: not written'));
  });

  test('once the journal would pass journalShare of the file, the save writes the file whole and the journal starts again', async () => {
    const store = open({ fromBytes: 0, journalShare: 1 });
    let panels: Panel[] = [{ id: 'a', name: 'A'.repeat(200) }];
    await store.save(null, () => doc(panels));
    const fileSize = () => readFileSync(path).length;
    const journalSize = () => (existsSync(journalPathOf(path)) ? readFileSync(journalPathOf(path)).length : 0);
    let wholeWrites = 0;
    for (let round = 0; round < 40; round++) {
      const before = readFileSync(path, 'utf8');
      const changed = { id: `p${round % 3}`, name: `name ${round}` };
      panels = [...panels.filter((panel) => panel.id !== changed.id), changed];
      const now = [...panels];
      await store.save(set(changed), () => doc(now));
      if (readFileSync(path, 'utf8') !== before) wholeWrites++;
      assert.ok(journalSize() <= fileSize(), `the journal (${journalSize()} bytes) outgrew the file (${fileSize()})`);
      assert.deepEqual((fresh() as { panels: Panel[] }).panels.map((panel) => panel.id).sort(), panels.map((panel) => panel.id).sort());
    }
    assert.ok(wholeWrites >= 2 && wholeWrites <= 20, `${wholeWrites} whole writes in 40 saves`);
  });

  test('a journal that does not follow the file (left by a kill after a whole write, or by an older version) is ignored and removed', async () => {
    const store = open();
    await store.save(null, () => doc([A]));
    await store.save(set(B), () => doc([A, B]));
    const journal = readFileSync(journalPathOf(path));
    // An older version writes the file whole, knowing nothing of the journal.
    writeFileSync(path, `${JSON.stringify(doc([{ id: 'z', name: 'Z' }]), null, '\t')}\n`);
    assert.deepEqual(fresh(), doc([{ id: 'z', name: 'Z' }]));
    assert.deepEqual(names(), ['panels.json']);
    // The same journal beside the file it follows is read again.
    writeFileSync(journalPathOf(path), journal);
    writeFileSync(path, `${JSON.stringify(doc([A]), null, '\t')}\n`);
    assert.deepEqual(fresh(), doc([A, B]));
  });

  test('a line cut by a kill is dropped at read, and the next append goes where it began', async () => {
    const store = open();
    await store.save(null, () => doc([]));
    await store.save(set(A), () => doc([A]));
    appendFileSync(journalPathOf(path), '0badc0de {"field":"panels","set":[["b",{"id":"b"');
    const again = open();
    assert.deepEqual(fresh(), doc([A]));
    await again.save(set(C), () => doc([A, C]));
    assert.deepEqual(fresh(), doc([A, C]));
    assert.doesNotMatch(readFileSync(journalPathOf(path), 'utf8'), /0badc0de/);
  });

  test('damage in the middle of the journal: the changes before it are read, a copy of the journal is kept', async () => {
    const store = open();
    await store.save(null, () => doc([]));
    for (const id of ['a', 'b', 'c']) await store.save(set({ id, name: id }), () => doc([]));
    const lines = readFileSync(journalPathOf(path), 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"b"', '"x"');
    writeFileSync(journalPathOf(path), lines.join('\n'));
    const again = jsonFileStore(path, { mode: 0o600, journal: ALWAYS });
    assert.deepEqual(again.read(), doc([{ id: 'a', name: 'a' }]));
    const copy = again.damagedJournal();
    assert.ok(copy && existsSync(copy), 'no copy of the damaged journal');
    assert.match(readFileSync(copy, 'utf8'), /"x"/);
  });

  test('an append that fails half-way (disk full) rejects, leaves nothing a read sees, and the next save goes on', async () => {
    const files = new FaultyFiles();
    const store = open(ALWAYS, files);
    await store.save(null, () => doc([]));
    await store.save(set(A), () => doc([A]));
    files.decide = (operation) => (operation.kind === 'write' ? { fail: true, partialBytes: 20 } : { fail: false });
    await assert.rejects(
      store.save(set(B), () => doc([A, B])),
      /ENOSPC/,
    );
    assert.deepEqual(fresh(), doc([A]));
    files.decide = () => ({ fail: false });
    await store.save(set(C), () => doc([A, C]));
    assert.deepEqual(fresh(), doc([A, C]));
  });

  test('when the half line cannot be taken back either, the next save writes the file whole', async () => {
    const files = new FaultyFiles();
    const store = open(ALWAYS, files);
    await store.save(null, () => doc([]));
    await store.save(set(A), () => doc([A]));
    files.decide = (operation) =>
      operation.kind === 'write'
        ? { fail: true, partialBytes: 30 }
        : operation.kind === 'truncate'
          ? { fail: true, code: 'EIO' }
          : { fail: false };
    await assert.rejects(store.save(set(B), () => doc([A, B])));
    assert.deepEqual(fresh(), doc([A]), 'the half line is the last one: dropped');
    files.decide = () => ({ fail: false });
    const written = readFileSync(path, 'utf8');
    await store.save(set(C), () => doc([A, C]));
    assert.notEqual(readFileSync(path, 'utf8'), written, 'written whole');
    assert.deepEqual(fresh(), doc([A, C]));
    assert.deepEqual(names(), ['panels.json'], 'the journal with the half line is gone');
  });

  test('a whole write that fails at any step leaves the file as it was, its journal still read, and no temp file', async () => {
    // (The folder is made only when it is missing: window-state.test.ts has a folder that cannot be.)
    for (const failing of ['open', 'write', 'sync', 'rename'] as const) {
      const files = new FaultyFiles();
      const store = open(ALWAYS, files);
      await store.save(null, () => doc([A]));
      await store.save(set(B), () => doc([A, B]));
      files.decide = (operation) => ({ fail: operation.kind === failing && !operation.path.endsWith('.journal') });
      await assert.rejects(
        store.save(null, () => doc([{ id: 'z', name: 'Z' }])),
        /ENOSPC/,
        failing,
      );
      assert.deepEqual(fresh(), doc([A, B]), failing);
      assert.deepEqual(names(), ['panels.journal', 'panels.json'], failing);
      files.decide = () => ({ fail: false });
      await store.save(null, () => doc([]));
    }
  });

  test('saves made at once are written one after another, in the order they were made', async () => {
    const store = open();
    await store.save(null, () => doc([]));
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((id, index) =>
        store.save(index === 2 ? null : set({ id, name: id }), () => {
          order.push(id);
          return doc([]);
        }),
      ),
    );
    assert.deepEqual(order, ['c'], 'only the whole write asks for the document');
    const journal = readFileSync(journalPathOf(path), 'utf8');
    assert.ok(!journal.includes('"a"') && !journal.includes('"b"'), 'the whole write made the journal before it stale');
    assert.ok(journal.indexOf('"d"') > 0);
  });
});
