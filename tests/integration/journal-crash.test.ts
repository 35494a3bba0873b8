import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCore, openJsonFiles } from '../../electron/core/index.ts';
import { journalPathOf, type JournalPolicy } from '../../electron/core/storage/document-store.ts';
import { fileHash, readJournal } from '../../electron/core/storage/journal.ts';
import { startWriter } from '../support/crash/writer-process.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';

/**
 * A kill with SIGKILL while the panel list is journaled: a child process adds, renames and removes
 * panels in a loop, every change appended to panels.journal and the list written whole again each
 * time the journal reaches half of it (a compaction every few dozen changes), and is killed at
 * random moments: inside an append, between a compaction's rename and its journal's removal,
 * before either. Some rounds first cut the journal's last line or add a torn one, as a power cut
 * can. After each kill a fresh service must load the list cleanly (no problem, nothing moved
 * aside), with every change the child reported done, and nothing it did not report but the change
 * in flight at the kill.
 */

const KILLS = 40;
const JOURNAL: JournalPolicy = { fromBytes: 0, journalShare: 0.5 };
/** Rounds that start on a journal whose end was damaged on purpose. */
const TORN_ROUNDS = new Set([5, 11, 17, 23, 29, 35]);
const ALLOWED_FILES = /^(panels|tokens|settings|checks)\.(json|journal)$/;

/** What a kill left, looked at before the next start read it. */
interface KillLeft {
  tornTail: boolean;
  staleJournal: boolean;
  tempFiles: number;
}

/**
 * Kills the writer as it starts its `change`th change, or a moment later: counted in changes, not
 * milliseconds, so a slow machine reaches the same depths (compactions, changes in flight) as a fast one.
 */
async function runAndKill(dataDir: string, change: number, lateMs: number): Promise<string[]> {
  const writer = startWriter(dataDir, ['10000'], { PANELDECK_TEST_JOURNAL: `${JOURNAL.fromBytes},${JOURNAL.journalShare}` });
  await writer.started;
  await writer.startedChange(change);
  if (lateMs > 0) await new Promise((resolve) => setTimeout(resolve, lateMs));
  return writer.kill();
}

/** What a kill left in the folder, before a start cleans it up. */
function lookAt(dir: string): KillLeft {
  const names = readdirSync(dir);
  const tempFiles = names.filter((name) => name.includes('.tmp-')).length;
  const path = join(dir, 'panels.json');
  if (!existsSync(journalPathOf(path)) || !existsSync(path)) return { tornTail: false, staleJournal: false, tempFiles };
  const journal = readFileSync(journalPathOf(path));
  const read = readJournal(journal, fileHash(readFileSync(path)));
  return { tornTail: read !== null && read.goodBytes < journal.length, staleJournal: read === null, tempFiles };
}

/** Checks the list a fresh start loaded against what the child reported; returns the expected list for the next round. */
function check(expected: Map<string, string>, lines: readonly string[], loaded: Map<string, string>, context: string): boolean {
  const names = new Map(expected);
  let inFlight: { op: string; id: string; name: string } | null = null;
  for (const line of lines) {
    const [word = '', ...rest] = line.split(' ');
    if (word === 'ready') continue;
    if (word === 'try') {
      const [op = '', id = '', ...name] = rest;
      inFlight = { op, id, name: name.join(' ') };
      continue;
    }
    const [id = '', ...name] = rest;
    inFlight = null;
    if (word === 'remove') names.delete(id);
    else if (word === 'add' || word === 'rename') names.set(id, name.join(' '));
    else assert.fail(`unexpected line from the writer: ${line}`);
  }
  const why = `${context}; last lines: ${JSON.stringify(lines.slice(-6))}`;
  for (const [id, name] of names) {
    const found = loaded.get(id);
    if (found === undefined && inFlight?.op === 'remove' && inFlight.id === id) continue;
    assert.ok(found !== undefined, `panel ${id} ("${name}") was reported saved but is gone ${why}`);
    const renaming = inFlight?.op === 'rename' && inFlight.id === id ? inFlight.name : null;
    assert.ok(found === name || found === renaming, `panel ${id} is "${found}", expected "${name}" ${why}`);
  }
  const unreported = [...loaded].filter(([id]) => !names.has(id));
  assert.ok(unreported.length <= 1, `${unreported.length} panels nobody reported ${why}`);
  for (const [, name] of unreported) assert.ok(inFlight?.op === 'add' && inFlight.name === name, `"${name}" was never being added ${why}`);
  return inFlight !== null;
}

describe('a kill while the panel list is journaled', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir('paneldeck-journal-crash-');
  });
  after(() => dir?.cleanup());

  test(`the writer is killed ${KILLS} times with SIGKILL; each time a fresh start loads every reported change, and only those`, async () => {
    let expected = new Map<string, string>();
    const totals = { inFlight: 0, tornTails: 0, staleJournals: 0, tempFiles: 0, damagedByTest: 0, changes: 0, journaled: 0 };
    for (let round = 0; round < KILLS; round++) {
      const journal = journalPathOf(join(dir.path, 'panels.json'));
      if (TORN_ROUNDS.has(round) && existsSync(journal)) {
        // A power cut: the end of the last line never reached the disk, or came back as garbage.
        const text = readFileSync(journal);
        if (round % 2 === 1) appendFileSync(journal, randomBytes(40));
        else appendFileSync(journal, `${text.subarray(text.lastIndexOf(10, text.length - 2) + 1, text.length - 5).toString('utf8')}`);
        totals.damagedByTest++;
      }
      // Every other round is killed the instant a change starts, the rest a few milliseconds later.
      const lines = await runAndKill(dir.path, 1 + Math.floor(Math.random() * 60), round % 2 === 0 ? 0 : Math.floor(Math.random() * 4));
      const left = lookAt(dir.path);
      if (left.tornTail) totals.tornTails++;
      if (left.staleJournal) totals.staleJournals++;
      totals.tempFiles += left.tempFiles;
      totals.changes += lines.filter((line) => !line.startsWith('try') && !line.startsWith('ready')).length;
      if (existsSync(journal)) totals.journaled++;

      const fresh = createCore({
        dataDir: dir.path,
        encryption: testEncryption(),
        openStore: openJsonFiles(dir.path, { journal: JOURNAL }),
      });
      const context = `after kill ${round + 1} (${JSON.stringify(left)})`;
      assert.equal(await fresh.loadProblem(), null, `the list did not load cleanly ${context}`);
      assert.deepEqual((await fresh.getAppStatus()).startupProblems, [], context);
      const loaded = new Map((await fresh.listPanels()).map((panel) => [panel.id, panel.name]));
      if (check(expected, lines, loaded, context)) totals.inFlight++;
      const stray = readdirSync(dir.path).filter((name) => !ALLOWED_FILES.test(name));
      assert.deepEqual(stray, [], `a start left files that are not stores ${context}`);
      expected = loaded;
    }
    assert.ok(totals.inFlight >= 10, `only ${totals.inFlight} kills came with a change in flight`);
    assert.ok(totals.journaled >= KILLS / 2, `the list was journaled after only ${totals.journaled} kills`);
    console.log(
      `journal crash test: ${KILLS} kills survived, ${expected.size} panels, ${totals.changes} changes reported; ${totals.inFlight} kills with a change in flight; ` +
        `${totals.tornTails} kills left a cut journal line, ${totals.staleJournals} a stale journal (killed inside a compaction), ${totals.tempFiles} temporary files; ` +
        `${totals.damagedByTest} journals damaged at the end on purpose; all loaded cleanly`,
    );
  });
});
