/**
 * The figure of issue 32, the upgrade run, against the waves' own waiting in the same run:
 *
 *   node --experimental-strip-types bench/upgrades.ts      (npm run bench:upgrades)
 *
 *   upgradePanels over 200 signed-in panels of the three generations, every one with an update
 *   out, canary 1, then waves of 10: each panel answers its update, then is away (502) for 300 ms
 *   and comes back on the new version; the run looks at each panel every 50 ms (returnPollMs).
 *
 *   The waves' own waiting, the ideal: waves x (away + one poll interval). A wave cannot end before
 *   its panels are back (the away time), and a run that looks every poll interval may see a panel
 *   only that much after it is back (each wait's last sleep: a panel back just after a look is seen
 *   at the next). So `ideal` is what the waiting alone would take with no work around it: no
 *   plan reads (200 version reads), no confirmation, no update requests, no reading each panel
 *   again once back (session, version, generation: a trpc or rpc panel moves to the next
 *   generation and its record is saved), no activity log, history or events. Those are the
 *   overhead, in `wall` and not in `ideal` (goal: wall at most 1.2x ideal). `away only` is the
 *   floor no poll interval reaches (waves x away), printed beside it for a sense of the poll's share.
 *   Also: the longest event-loop stall of main during the run (goal: under 100 ms), and the most
 *   panels away at once at the servers (from the restart its update began to its answering again),
 *   which must not pass the wave size; each panel receives exactly one update.
 *
 * Panels are reference panels (tests/support/reference-panel/) served from a worker thread
 * (bench/upgrade-panel-worker.ts): in-process they would answer every poll and every read on the
 * event loop being measured, so the stall figure would be the servers' as much as the run's. The
 * worker resets them between runs (back on their old version, the update out again). They are
 * signed in once through the core (add, log in) into a folder each run starts from a copy of.
 * Medians of BENCH_RUNS runs (default 2); BENCH_PANELS, BENCH_WAVE, BENCH_AWAY_MS and
 * BENCH_POLL_MS change the fleet and the run.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createCore } from '../electron/core/index.ts';
import { UPGRADE_WAVE_MAX, upgradeWaves } from '../shared/upgrades.ts';
import { confirmations } from '../tests/support/confirmations.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { DEMO_USER } from '../tests/support/reference-panel/server.ts';
import { median, ms, printTable, spread } from './figures.ts';
import { ratioGoal, timeGoal } from './goals.ts';
import { asking, eventSink, inTempDir, ratio, stallProbe, takeFigures, takeRuns, withLimit } from './fleet-helpers.ts';
import type { UpgradeWorkerData, UpgradeWorkerReply, UpgradeWorkerRequest } from './upgrade-panel-worker.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 2));
const PANELS = Number(process.env.BENCH_PANELS ?? 200);
const WAVE = Math.min(UPGRADE_WAVE_MAX, Number(process.env.BENCH_WAVE ?? 10));
const AWAY_MS = Number(process.env.BENCH_AWAY_MS ?? 300);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 50);
const OPTIONS = { canary: 1, waveSize: WAVE };
const WALL_GOAL = 1.2;
const STALL_GOAL_MS = 100;

async function figureRun(): Promise<void> {
  const waves = upgradeWaves(Array.from({ length: PANELS }), OPTIONS).length;
  const ideal = waves * (AWAY_MS + POLL_MS);
  console.log(
    `\n1. upgradePanels over ${PANELS} panels, canary 1, waves of ${WAVE}: ${waves} waves, each panel away ${AWAY_MS} ms, ` +
      `looked at every ${POLL_MS} ms: ideal ${waves} x (${AWAY_MS} + ${POLL_MS}) ms = ${ideal} ms`,
  );
  const worker = new Worker(new URL('./upgrade-panel-worker.ts', import.meta.url), {
    workerData: { panels: PANELS, awayMs: AWAY_MS } satisfies UpgradeWorkerData,
  });
  const servers = asking<UpgradeWorkerRequest, UpgradeWorkerReply>(worker);
  const { urls } = await servers.started;
  const pristine = await mkdtemp(join(tmpdir(), 'paneldeck-upgrades-'));
  let runs: { ms: number; stallMs: number; maxAway: number }[] = [];
  try {
    const encryption = testEncryption();
    const coreIn = (dataDir: string) =>
      createCore({
        dataDir,
        encryption,
        emit: eventSink().emit,
        confirmWrite: confirmations().confirmWrite,
        upgrades: { returnPollMs: POLL_MS, returnDeadlineMs: 60_000 },
      });
    // Signed in once, as an operator's folder is; each run starts from a copy.
    const signingIn = coreIn(pristine);
    for (const [index, url] of urls.entries()) {
      const { id } = await signingIn.addPanel({ address: url, name: `Fleet panel ${index + 1}` });
      await signingIn.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    }
    await signingIn.flush();
    runs = await takeRuns(RUNS, () =>
      inTempDir(async (dir) => {
        await cp(pristine, dir, { recursive: true });
        const core = coreIn(dir);
        const ids = (await core.listPanels()).map((panel) => panel.id);
        await servers.ask({ reset: true });
        const probe = stallProbe();
        const started = performance.now();
        const results = await withLimit(core.upgradePanels(ids, OPTIONS), 600_000, 'upgradePanels()');
        const elapsed = performance.now() - started;
        const stallMs = probe.stop();
        const stats = await servers.ask({ stats: true });
        const upgraded = results.filter((one) => one.outcome === 'upgraded').length;
        const notOnce = stats.updates.filter((updates) => updates !== 1).length;
        if (upgraded !== PANELS || notOnce > 0) {
          const other = results.find((one) => one.outcome !== 'upgraded');
          throw new Error(`${upgraded} of ${PANELS} upgraded, ${notOnce} not sent exactly one update: ${other?.message}`);
        }
        await core.flush();
        return { ms: elapsed, stallMs, maxAway: stats.maxAway };
      }),
    );
  } finally {
    await servers.ask({ close: true });
    await rm(pristine, { recursive: true, force: true });
  }
  const [wall, stall] = [median(runs.map((run) => run.ms)), median(runs.map((run) => run.stallMs))];
  const maxAway = Math.max(...runs.map((run) => run.maxAway));
  const floor = waves * AWAY_MS;
  printTable([
    [
      'run',
      'wall',
      `runs (${RUNS})`,
      'ideal',
      'ratio',
      `<= ${WALL_GOAL}x`,
      'away only',
      'ratio',
      'most away at once',
      'longest stall',
      `runs (${RUNS})`,
      `< ${STALL_GOAL_MS} ms`,
    ],
    [
      `upgradePanels (${PANELS})`,
      ms(wall, 0),
      spread(runs.map((run) => run.ms)),
      ms(ideal, 0),
      ratio(wall / ideal),
      wall / ideal <= WALL_GOAL ? 'yes' : 'NO',
      ms(floor, 0),
      ratio(wall / floor),
      `${maxAway} / ${WAVE}${maxAway <= WAVE ? '' : ' (OVER)'}`,
      ms(stall),
      spread(runs.map((run) => run.stallMs)),
      stall < STALL_GOAL_MS ? 'yes' : 'NO',
    ],
  ]);
  ratioGoal('upgrades', 'upgradePanels over the fleet: wall vs the ideal', wall / ideal, WALL_GOAL);
  timeGoal('upgrades', "upgradePanels over the fleet: main's longest stall", stall, STALL_GOAL_MS);
}

await takeFigures('Upgrade run (bench/upgrades.ts)', [['1. upgradePanels over the fleet', figureRun]]);
