import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createPanelService } from '../electron/core/index.ts';
import { tempDir, testEncryption } from './helpers.ts';

/**
 * A crash during a write: a child process changes the panel list in a loop and is killed with
 * SIGKILL at random moments; after each kill a fresh service must load a valid list holding
 * every change the child reported as done.
 */

const WRITER = fileURLToPath(new URL('./crash/registry-writer.ts', import.meta.url));
/** At least 50; each round costs a Node start (about 0.3 s, 1 s on a busy machine). */
const KILLS = 55;
/** Temporary files of the atomic write (`<file>.tmp-<pid>-<8 hex>`), left behind by a kill mid-write. */
const ATOMIC_TEMP = /^(panels|tokens|settings)\.json\.tmp-\d+-[0-9a-f]{8}$/;
const STORE_FILES = new Set(['panels.json', 'tokens.json', 'settings.json']);

type Timing = { kind: 'at-spawn' } | { kind: 'during-start'; ms: number } | { kind: 'while-writing'; ms: number };

/** Varies the moment of the kill: before Node is up, while the service opens, between and inside writes. */
function pickTiming(round: number): Timing {
  const ms = Math.floor(Math.random() * 80);
  if (round % 10 === 0) return { kind: 'at-spawn' };
  if (round % 5 === 0) return { kind: 'during-start', ms: Math.floor(Math.random() * 300) };
  return { kind: 'while-writing', ms };
}

interface Round {
  lines: string[];
  timing: Timing;
}

/** Runs the writer on `dataDir` and kills it with SIGKILL at the moment `timing` says. */
async function runAndKill(dataDir: string, timing: Timing): Promise<Round> {
  // The writer is not a test: without this variable it would not try to talk to the test runner.
  const { NODE_TEST_CONTEXT: _runner, ...env } = process.env;
  const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', WRITER, dataDir, '10000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  // 'close' comes after the child exited and its output was read to the end.
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('close', (code, signal) => resolve(signal ?? code)));
  let output = '';
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const ready = new Promise<void>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.startsWith('ready')) resolve();
    });
  });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  if (timing.kind === 'during-start') await sleep(timing.ms);
  if (timing.kind === 'while-writing') {
    await Promise.race([ready, exited]);
    await sleep(timing.ms);
  }
  child.kill('SIGKILL');
  const ended = await exited;
  assert.equal(ended, 'SIGKILL', `the writer ended on its own (${String(ended)}) before it was killed:\n${errors}`);
  // A last line without its newline was cut by the kill: it was not fully reported.
  const lines = output.split('\n').slice(0, -1);
  return { lines, timing };
}

/** What the panel list must hold: names by id, from what the writers reported. */
interface Expected {
  names: Map<string, string>;
}

/**
 * Checks the list on disk against what was reported. The one change that was in flight at the
 * kill (its `try` line printed, its done line not) may or may not have been saved; nothing else
 * is uncertain.
 */
function checkRound(expected: Expected, round: Round, loaded: Map<string, string>): void {
  const names = new Map(expected.names);
  const removed = new Set<string>();
  let inFlight: Change | null = null;
  for (const line of round.lines) {
    if (line.startsWith('ready')) continue;
    if (line.startsWith('try ')) {
      inFlight = parseChange(line.slice('try '.length));
      continue;
    }
    inFlight = null;
    const change = parseChange(line);
    if (change.op === 'remove') {
      names.delete(change.id);
      removed.add(change.id);
    } else names.set(change.id, change.name);
  }
  const context = `after a kill ${JSON.stringify(round.timing)} with ${round.lines.length} lines reported`;
  const mayBeGone = (id: string) => inFlight?.op === 'remove' && inFlight.id === id;

  for (const [id, name] of names) {
    const found = loaded.get(id);
    if (found === undefined && mayBeGone(id)) continue;
    assert.ok(found !== undefined, `panel ${id} ("${name}") was reported saved but is gone ${context}`);
    const inFlightName = inFlight?.op === 'rename' && inFlight.id === id ? inFlight.name : null;
    assert.ok(found === name || found === inFlightName, `panel ${id} is named "${found}", expected "${name}" ${context}`);
  }
  for (const id of removed) assert.ok(!loaded.has(id), `panel ${id} was reported removed but is back ${context}`);
  // Only the add that was in flight may be there without having been reported.
  const unreported = [...loaded].filter(([id]) => !names.has(id) && !mayBeGone(id));
  assert.ok(unreported.length <= 1, `${unreported.length} panels nobody reported ${context}`);
  for (const [, name] of unreported) {
    assert.ok(inFlight?.op === 'add' && inFlight.name === name, `panel "${name}" is there but was never being added ${context}`);
  }
}

type Change = { op: 'add' | 'rename'; id: string; name: string } | { op: 'remove'; id: string };

/** `add <id> <name>`, `rename <id> <name>`, `remove <id>` (the id of an add in flight is `-`). */
function parseChange(line: string): Change {
  const [op, id = '', ...name] = line.split(' ');
  if (op === 'add' || op === 'rename') return { op, id, name: name.join(' ') };
  if (op === 'remove') return { op, id };
  assert.fail(`unexpected line from the writer: ${line}`);
}

describe('a crash while the panel list is being saved', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir('paneldeck-crash-');
  });
  after(() => dir?.cleanup());

  test(`the writer is killed ${KILLS} times with SIGKILL; each time a fresh service loads every reported panel`, async () => {
    const expected: Expected = { names: new Map() };
    let leftoverTemps = 0;
    let roundsWithTemps = 0;
    let killedWhileWriting = 0;
    for (let index = 0; index < KILLS; index++) {
      const round = await runAndKill(dir.path, pickTiming(index));
      if (round.lines.at(-1)?.startsWith('try ')) killedWhileWriting++;
      const temps = (await readdir(dir.path)).filter((file) => ATOMIC_TEMP.test(file)).length;
      leftoverTemps += temps;
      if (temps > 0) roundsWithTemps++;

      const fresh = createPanelService({ dataDir: dir.path, encryption: testEncryption() });
      assert.equal(await fresh.loadProblem(), null, `the panel list did not load cleanly after kill ${index + 1}`);
      const loaded = new Map((await fresh.listPanels()).map((panel) => [panel.id, panel.name]));
      checkRound(expected, round, loaded);

      const files = await readdir(dir.path);
      assert.deepEqual(files.filter((file) => file.includes('.corrupt-')), [], 'a damaged file was moved aside');
      // Opening the store removes what killed writes left; nothing else may be there.
      assert.deepEqual(files.filter((file) => !STORE_FILES.has(file)), [], 'only the stores are left once a service opened them');
      // The next writer starts from what is on disk now.
      expected.names = loaded;
    }
    // Kills that only ever hit the start would prove nothing about writes.
    assert.ok(killedWhileWriting >= 10, `only ${killedWhileWriting} kills came with a change in flight`);
    assert.ok(expected.names.size >= 20, `the list should have grown over the run, it has ${expected.names.size} panels`);
    console.log(
      `crash test: ${KILLS} kills survived, ${expected.names.size} panels ` +
        `(${killedWhileWriting} kills with a change in flight; ${roundsWithTemps} kills landed inside a write and left ${leftoverTemps} temporary files, removed at the next start)`,
    );
  });
});
