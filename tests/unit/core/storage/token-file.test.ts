import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import { jsonFileStore, type JournalPolicy } from '../../../../electron/core/storage/document-store.ts';
import { TokenFile, type StoredToken } from '../../../../electron/core/storage/token-file.ts';
import { rejectsWith, tempDir } from '../../../support/helpers.ts';
import { FaultyFiles } from '../../../support/storage/faulty-files.ts';

/** The token store on disk: each flush writes what the file should hold as of its call, only the panels that changed. */

const entry = (n: number): StoredToken => ({
  ciphertext: Buffer.from(`cipher ${n}`).toString('base64'),
  backend: 'kwallet5',
  savedAt: '2026-01-01T00:00:00.000Z',
});

describe('the token file', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir('paneldeck-tokens-');
  });
  afterEach(() => dir.cleanup());

  let runs = 0;
  /** The token store of the current run, in a folder of its own. */
  const store = (files?: FaultyFiles, journal: JournalPolicy | null = { fromBytes: 0, journalShare: 3 }) =>
    jsonFileStore(join(dir.path, `run-${runs}`, 'tokens.json'), { mode: 0o600, journal, ...(files ? { files } : {}) });
  /** What a start would find in the file. */
  const onDisk = () => {
    const { entries } = TokenFile.read(store(), new Date());
    return Object.fromEntries([...entries].map(([panelId, stored]) => [panelId, stored?.ciphertext]));
  };

  test('a flush that fails takes to disk no change made after it was asked for, and leaves its own due', async () => {
    const files = new FaultyFiles();
    const { file } = TokenFile.read(store(files), new Date());
    file.intend('p1', entry(1));
    await file.flush();
    let failNext = true;
    files.decide = (operation) => {
      const fail = failNext && operation.kind === 'write';
      if (fail) failNext = false;
      return { fail };
    };
    file.intend('p1', undefined);
    const failing = file.flush();
    // Made while the failing write is under way: it goes with the next flush only.
    file.intend('p2', entry(2));
    await rejectsWith(failing, 'STORAGE', /token store/);
    assert.deepEqual(onDisk(), { p1: entry(1).ciphertext });
    await file.flush();
    assert.deepEqual(onDisk(), { p2: entry(2).ciphertext }, 'the log out of p1 was carried by the next write');
  });

  test('property: intends and flushes at once, some failing: after everything settles and one last flush, the file is what was intended', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }), fc.boolean()), {
          minLength: 1,
          maxLength: 25,
        }),
        fc.array(fc.nat({ max: 60 }), { maxLength: 4 }),
        async (changes, failures) => {
          runs++;
          const files = new FaultyFiles();
          files.decide = (operation, index) => ({ fail: operation.kind === 'write' && failures.includes(index) });
          const { file } = TokenFile.read(store(files), new Date());
          const intended = new Map<string, StoredToken>();
          const flushes: Promise<void>[] = [];
          for (const [panel, value, flush] of changes) {
            const stored = value === undefined ? undefined : entry(value);
            file.intend(`p${panel}`, stored);
            if (stored) intended.set(`p${panel}`, stored);
            else intended.delete(`p${panel}`);
            if (flush) flushes.push(file.flush());
          }
          await Promise.allSettled(flushes);
          files.decide = () => ({ fail: false });
          await file.flush();
          assert.deepEqual(onDisk(), Object.fromEntries([...intended].map(([panelId, stored]) => [panelId, stored.ciphertext])));
        },
      ),
      { numRuns: 300 },
    );
  });
});
