import { STALE_AFTER_MS } from '../../electron/core/storage/check-change.ts';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCore } from '../../electron/core/index.ts';
import type { SessionCheck } from '../../shared/types.ts';
import { startWriter } from '../support/crash/writer-process.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/**
 * A crash during a write: a child process changes the panel list in a loop, logs in and out, and
 * runs check passes (whose history is written coalesced) and flushes, and is killed with SIGKILL
 * at random moments; after each kill a fresh service must load a valid list holding every change
 * the child reported as done, every log out and log in that answered, and every check the child
 * had flushed. Check history written after the last flush may be lost (the last seconds), and a
 * damaged check history never stops a start nor touches the other files.
 */

/** At least 50; each round costs a Node start (about 0.3 s, 1 s on a busy machine). */
const KILLS = 55;
/**
 * A writer starved of CPU (a machine busy with other work, a browser beside it) does less before
 * each kill: rounds go on past KILLS, up to this many, until the run has seen what ENOUGH asks.
 */
const MAX_KILLS = 2 * KILLS;
/** What a run must have seen to say anything: kills with a change in flight, answered calls, a grown list. */
const ENOUGH = { inFlight: 10, logOuts: 20, passes: 10, flushes: 5, panels: 20 };
/** Rounds that live past the history's 2 s coalescing delay, so that its own timer writes too. */
const LONG_ROUNDS = new Set([12, 42]);
/** Rounds that start on a damaged checks.json, each with one of `DAMAGES` in turn. */
const DAMAGED_ROUNDS = new Set([4, 13, 22, 31, 39, 52]);
/** Temporary files of the atomic write (`<file>.tmp-<pid>-<8 hex>`), left behind by a kill mid-write. */
const ATOMIC_TEMP = /^(panels\.json|tokens\.json|settings\.json|checks\.json|activity\.jsonl)\.tmp-\d+-[0-9a-f]{8}$/;
// The activity log appears with the first log out at a panel.
const STORE_FILES = new Set(['panels.json', 'tokens.json', 'settings.json', 'checks.json', 'alerts.json', 'activity.jsonl']);
/** A damaged history is moved aside under this name when it is not JSON at all. */
const HISTORY_ASIDE = /^checks\.corrupt-[0-9TZ-]+(-\d+)?\.json$/;
/** Outcomes a check never writes to the history. */
const NEVER_RECORDED: ReadonlySet<string> = new Set(['CANCELLED', 'NOT_SIGNED_IN', 'NOT_FOUND']);

/** How checks.json is damaged before a round: cut half-way, emptied, garbage, JSON of another shape. */
const DAMAGES: readonly ((text: string) => string | Buffer)[] = [
  (text) => text.slice(0, Math.floor(text.length / 2)),
  () => '',
  () => randomBytes(256),
  () => JSON.stringify({ version: 99, panels: [] }),
  (text) => text.replace(/"at": "[^"]+"/g, '"at": 12'),
  () => JSON.stringify({ version: 1, panels: { x: { lastCheck: { ok: 'maybe' } } } }),
];

type Timing =
  | { kind: 'at-spawn' }
  | { kind: 'during-start'; ms: number }
  | { kind: 'while-writing'; ms: number }
  /** Past the history's coalescing delay: its timer has written by then. */
  | { kind: 'long'; ms: number };

/** Varies the moment of the kill: before Node is up, while the service opens, between and inside writes. */
function pickTiming(round: number): Timing {
  const ms = Math.floor(Math.random() * 80);
  if (LONG_ROUNDS.has(round)) return { kind: 'long', ms: 2100 + Math.floor(Math.random() * 500) };
  // A damaged history must be seen by a start that gets going, so those rounds run a while.
  if (DAMAGED_ROUNDS.has(round)) return { kind: 'while-writing', ms };
  if (round % 10 === 0) return { kind: 'at-spawn' };
  if (round % 5 === 0) return { kind: 'during-start', ms: Math.floor(Math.random() * 300) };
  return { kind: 'while-writing', ms };
}

interface Round {
  lines: string[];
  timing: Timing;
}

/** Runs the writer on `dataDir` and kills it with SIGKILL at the moment `timing` says. */
async function runAndKill(dataDir: string, timing: Timing, panel: { url: string; keyHex: string }): Promise<Round> {
  const writer = startWriter(dataDir, ['10000', panel.url, panel.keyHex]);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  if (timing.kind === 'during-start') await sleep(timing.ms);
  if (timing.kind === 'while-writing' || timing.kind === 'long') {
    await writer.started;
    await sleep(timing.ms);
  }
  return { lines: await writer.kill(), timing };
}

/** A panel as a fresh service loaded it. */
interface Loaded {
  name: string;
  signedIn: boolean;
  lastCheck: SessionCheck | null;
  /** Why it is signed out, when it is: a 401 recorded by a pass tells itself apart. */
  signedOutCode: string | null;
}

/** What the folder must hold, by panel id, from what the writers reported (and from the last load). */
type Expected = Map<string, Loaded>;

interface RoundFigures {
  killedInFlight: boolean;
  logOuts: number;
  logIns: number;
  passes: number;
  checks: number;
  flushes: number;
  /** Reported checks that were not on disk after the kill: history after the last flush, lost. */
  lostChecks: number;
  /** Checks on disk newer than the last flush that finished: written by the history's own timer. */
  timerWritten: boolean;
}

/**
 * Checks the folder after a kill against what was reported. The one change in flight at the kill
 * (its `try` line printed, its done line not) may or may not have been saved; nothing else is
 * uncertain, except check history written after the last `flushed`.
 */
function checkRound(expected: Expected, round: Round, loaded: Map<string, Loaded>, historyDamaged: boolean): RoundFigures {
  const names = new Map([...expected].map(([id, panel]) => [id, panel.name]));
  const signedIn = new Map([...expected].map(([id, panel]) => [id, panel.signedIn]));
  /** The last check of each panel the history is sure to hold: the start's, then each flush's. */
  let durable = new Map<string, string>();
  if (!historyDamaged) for (const [id, panel] of expected) if (panel.lastCheck) durable.set(id, panel.lastCheck.at);
  /** The latest check the child reported, flushed or not. */
  const reported = new Map(durable);
  let flushing: Map<string, string> | null = null;
  const removed = new Set<string>();
  let inFlight: Change | null = null;
  const figures: RoundFigures = {
    killedInFlight: false,
    logOuts: 0,
    logIns: 0,
    passes: 0,
    checks: 0,
    flushes: 0,
    lostChecks: 0,
    timerWritten: false,
  };

  for (const line of round.lines) {
    const [word = '', ...rest] = line.split(' ');
    if (word === 'ready' || word === 'pass-start') continue;
    if (word === 'try') {
      inFlight = parseChange(rest.join(' '));
      // What was reported before the flush was asked for is what it writes.
      if (inFlight.op === 'flush') flushing = new Map(reported);
      continue;
    }
    if (word === 'pass') {
      figures.passes++;
      for (const entry of rest.filter((part) => part !== '')) {
        const [id = '', at = '', outcome = ''] = entry.split('=');
        figures.checks++;
        if (outcome === 'ok') reported.set(id, at);
        // A rejected token ends the sign-in, written before the pass answers.
        if (outcome === 'UNAUTHORIZED') signedIn.set(id, false);
      }
      continue;
    }
    const change = parseChange(line);
    inFlight = null;
    switch (change.op) {
      case 'remove':
        names.delete(change.id);
        removed.add(change.id);
        break;
      case 'add':
      case 'rename':
        names.set(change.id, change.name);
        break;
      case 'login':
        signedIn.set(change.id, true);
        figures.logIns++;
        break;
      case 'logout':
        signedIn.set(change.id, false);
        figures.logOuts++;
        break;
      case 'flushed':
        durable = flushing ?? durable;
        flushing = null;
        figures.flushes++;
        break;
      case 'flush':
        assert.fail(`"flush" is never reported without "try": ${line}`);
    }
  }
  figures.killedInFlight = inFlight !== null;
  // The lines themselves, so that a failure here can be replayed in the head.
  const context = `after a kill ${JSON.stringify(round.timing)} with ${round.lines.length} lines reported: ${JSON.stringify(round.lines.slice(-12))}`;
  const passInFlight =
    round.lines.filter((line) => line === 'pass-start').length > round.lines.filter((line) => line.startsWith('pass ')).length;
  const mayBeGone = (id: string) => inFlight?.op === 'remove' && inFlight.id === id;
  const signInInFlight = (id: string) => (inFlight?.op === 'login' || inFlight?.op === 'logout') && inFlight.id === id;

  for (const [id, name] of names) {
    const found = loaded.get(id);
    if (found === undefined && mayBeGone(id)) continue;
    assert.ok(found !== undefined, `panel ${id} ("${name}") was reported saved but is gone ${context}`);
    const inFlightName = inFlight?.op === 'rename' && inFlight.id === id ? inFlight.name : null;
    assert.ok(found.name === name || found.name === inFlightName, `panel ${id} is named "${found.name}", expected "${name}" ${context}`);

    const wanted = signedIn.get(id) ?? false;
    // A pass still under way may already have written a 401's end of a sign-in, before it answered.
    const endedByPass = passInFlight && wanted && !found.signedIn && found.signedOutCode === 'UNAUTHORIZED';
    // A removal under way ends the sign-in first (tokens.json), then drops the panel (panels.json):
    // killed between the two, the panel is still listed, signed out. Never signed in again.
    const endedByRemoval = mayBeGone(id) && wanted && !found.signedIn;
    if (!signInInFlight(id) && !endedByPass && !endedByRemoval) {
      assert.equal(
        found.signedIn,
        wanted,
        wanted ? `a log in of ${id} that answered was lost ${context}` : `a log out of ${id} that answered was undone ${context}`,
      );
    }
    const check = found.lastCheck;
    if (check && !check.ok)
      assert.ok(!NEVER_RECORDED.has(check.error.code), `panel ${id} has a ${check.error.code} check recorded ${context}`);
    const flushed = durable.get(id);
    if (flushed !== undefined) {
      // The flushed check is an ok one (the only kind tracked here). An ok check that only moved the
      // time on by less than STALE_AFTER_MS is not a material change (storage/check-change.ts): the
      // disk may keep the earlier ok check of the same standing, never an older or another one.
      const sameStanding = check?.ok === true && Date.parse(flushed) - Date.parse(check.at) < STALE_AFTER_MS;
      assert.ok(
        check !== null && (check.at >= flushed || sameStanding),
        `panel ${id} lost a check flushed before the kill (${flushed}; on disk: ${check?.at ?? 'none'}) ${context}`,
      );
    }
    const last = reported.get(id);
    if (last !== undefined && (check === null || check.at < last)) figures.lostChecks++;
    if (check !== null && check.at > (flushed ?? '') && inFlight?.op !== 'flush') figures.timerWritten = true;
  }
  for (const id of removed) assert.ok(!loaded.has(id), `panel ${id} was reported removed but is back ${context}`);
  // Only the add that was in flight may be there without having been reported.
  const unreported = [...loaded].filter(([id]) => !names.has(id) && !mayBeGone(id));
  assert.ok(unreported.length <= 1, `${unreported.length} panels nobody reported ${context}`);
  for (const [, panel] of unreported) {
    assert.ok(
      inFlight?.op === 'add' && inFlight.name === panel.name,
      `panel "${panel.name}" is there but was never being added ${context}`,
    );
    assert.equal(panel.signedIn, false, `a panel being added is signed in ${context}`);
  }
  return figures;
}

type Change =
  | { op: 'add' | 'rename'; id: string; name: string }
  | { op: 'remove' | 'login' | 'logout'; id: string }
  | { op: 'flush' | 'flushed' };

/** `add <id> <name>`, `rename <id> <name>`, `remove <id>`, `login <id>`, `logout <id>`, `flush`, `flushed` (the id of an add in flight is `-`). */
function parseChange(line: string): Change {
  const [op, id = '', ...name] = line.split(' ');
  if (op === 'add' || op === 'rename') return { op, id, name: name.join(' ') };
  if (op === 'remove' || op === 'login' || op === 'logout') return { op, id };
  if (op === 'flush' || op === 'flushed') return { op };
  assert.fail(`unexpected line from the writer: ${line}`);
}

describe('a crash while the panel list, the sign-ins and the check history are being saved', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let panel: ReferencePanel;
  before(async () => {
    dir = await tempDir('paneldeck-crash-');
    panel = await startReferencePanel();
    // A little latency, so that passes are under way while the writer logs out and edits.
    panel.setFault('getSession', { kind: 'latency', ms: 3 });
  });
  after(async () => {
    await panel?.close();
    await dir?.cleanup();
  });

  test(`the writer is killed at least ${KILLS} times with SIGKILL; each time a fresh service loads every reported panel, sign-in and flushed check`, async () => {
    // The writers and the fresh services share one keyring, as runs of the app on one machine do.
    const key = randomBytes(32);
    const writer = { url: panel.url, keyHex: key.toString('hex') };
    let expected: Expected = new Map();
    const totals = {
      temps: 0,
      roundsWithTemps: 0,
      inFlight: 0,
      logOuts: 0,
      logIns: 0,
      passes: 0,
      checks: 0,
      flushes: 0,
      lostChecks: 0,
      timerWrites: 0,
      damagedStarts: 0,
      movedAside: 0,
    };
    const enough = () =>
      totals.inFlight >= ENOUGH.inFlight &&
      totals.logOuts >= ENOUGH.logOuts &&
      totals.passes >= ENOUGH.passes &&
      totals.flushes >= ENOUGH.flushes &&
      expected.size >= ENOUGH.panels;
    let kills = 0;
    for (let index = 0; index < KILLS || (!enough() && index < MAX_KILLS); index++) {
      kills++;
      const historyDamaged = DAMAGED_ROUNDS.has(index);
      const history = join(dir.path, 'checks.json');
      if (historyDamaged) {
        const text = existsSync(history) ? await readFile(history, 'utf8') : '{"version":1,"panels":{}}';
        const damage = DAMAGES[totals.damagedStarts % DAMAGES.length]!;
        await writeFile(history, damage(text));
        totals.damagedStarts++;
      }
      const round = await runAndKill(dir.path, pickTiming(index), writer);
      if (historyDamaged)
        assert.ok(round.lines[0]?.startsWith('ready'), `the writer did not start on a damaged checks.json (round ${index + 1})`);
      const temps = (await readdir(dir.path)).filter((file) => ATOMIC_TEMP.test(file)).length;
      totals.temps += temps;
      if (temps > 0) totals.roundsWithTemps++;

      const fresh = createCore({ dataDir: dir.path, encryption: testEncryption({ key }) });
      assert.equal(await fresh.loadProblem(), null, `the panel list did not load cleanly after kill ${index + 1}`);
      assert.deepEqual(
        (await fresh.getAppStatus()).startupProblems,
        [],
        `a store other than the check history was damaged after kill ${index + 1}`,
      );
      const loaded = new Map(
        (await fresh.listPanels()).map((listed) => [
          listed.id,
          {
            name: listed.name,
            signedIn: listed.signedIn,
            lastCheck: listed.lastCheck,
            signedOutCode: listed.signedOutReason?.code ?? null,
          },
        ]),
      );
      const figures = checkRound(expected, round, loaded, historyDamaged);
      if (figures.killedInFlight) totals.inFlight++;
      totals.logOuts += figures.logOuts;
      totals.logIns += figures.logIns;
      totals.passes += figures.passes;
      totals.checks += figures.checks;
      totals.flushes += figures.flushes;
      totals.lostChecks += figures.lostChecks;
      if (figures.timerWritten) totals.timerWrites++;

      const files = await readdir(dir.path);
      const aside = files.filter((file) => HISTORY_ASIDE.test(file));
      // Only a history damaged on purpose is moved aside; the atomic writes never leave one.
      if (!historyDamaged) assert.deepEqual(aside, [], 'a check history was found damaged after a kill');
      totals.movedAside += aside.length;
      await Promise.all(aside.map((file) => rm(join(dir.path, file))));
      assert.deepEqual(
        files.filter((file) => file.includes('.corrupt-') && !HISTORY_ASIDE.test(file)),
        [],
        'a damaged file was moved aside',
      );
      // Opening the store removes what killed writes left; nothing else may be there.
      assert.deepEqual(
        files.filter((file) => !STORE_FILES.has(file) && !HISTORY_ASIDE.test(file)),
        [],
        'only the stores are left once a service opened them',
      );
      // The next writer starts from what is on disk now.
      expected = loaded;
    }
    const signedIn = [...expected.values()].filter((loaded) => loaded.signedIn).length;
    // Kills that only ever hit the start would prove nothing about writes.
    assert.ok(totals.inFlight >= ENOUGH.inFlight, `only ${totals.inFlight} kills came with a change in flight`);
    assert.ok(expected.size >= ENOUGH.panels, `the list should have grown over the run, it has ${expected.size} panels`);
    assert.ok(
      totals.logOuts >= ENOUGH.logOuts && totals.passes >= ENOUGH.passes && totals.flushes >= ENOUGH.flushes,
      `too few log outs (${totals.logOuts}), passes (${totals.passes}) or flushes (${totals.flushes}) to say anything after ${kills} kills`,
    );
    console.log(
      `crash test: ${kills} kills survived, ${expected.size} panels (${signedIn} signed in); ${totals.inFlight} kills with a change in flight; ` +
        `${totals.roundsWithTemps} kills landed inside a write and left ${totals.temps} temporary files, removed at the next start; ` +
        `${totals.logOuts} log outs and ${totals.logIns} log ins answered and all survived; ${totals.passes} passes (${totals.checks} checks), ${totals.flushes} flushes, none lost; ` +
        `${totals.lostChecks} unflushed checks lost; ${totals.timerWrites} rounds where the coalescing timer had written; ` +
        `${totals.damagedStarts} starts on a damaged checks.json (${totals.movedAside} moved aside)`,
    );
  });
});
