/**
 * The figure of issue 32 (2), the backups pass, against its ideal in the same run:
 *
 *   node --experimental-strip-types bench/backups.ts      (npm run bench:backups)
 *
 *   listBackups({ refresh: true }) over 1,000 signed-in panels each answering in 50 ms: each panel's
 *   catalogue, its services, each database's and each service's backup schedules (4 at once a
 *   panel), then its runs of both kinds; 8 panels at once. The ideal for those requests at the
 *   bound: ceil(panels / 8) x the panel's requests in sequence (catalogue, services, its schedule
 *   reads in waves of 4, the runs) x latency (goal: at most 1.3x); the most requests in flight at
 *   the servers; the longest event-loop stall (goal: under 100 ms). Then the kept read: no request.
 *
 * Panels are served on 127.0.0.1 from a worker thread (bench/fleet-panel-worker.ts). Medians of
 * BENCH_RUNS runs (default 2); BENCH_PANELS and BENCH_LATENCY_MS change the fleet.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { BACKUP_PANELS_AT_ONCE, SCHEDULE_READS_PER_PANEL } from '../electron/core/backups/backup-list.ts';
import { createCore } from '../electron/core/index.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { median, ms, printTable, spread } from './figures.ts';
import { ratioGoal, timeGoal } from './goals.ts';
import { newToken, writeFleetFolder } from './fleet-data.ts';
import { asking, eventSink, inTempDir, letClosesArrive, ratio, stallProbe, takeFigures, withLimit } from './fleet-helpers.ts';
import type { FleetWorkerData, FleetWorkerReply, FleetWorkerRequest } from './fleet-panel-worker.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 2));
const PANELS = Number(process.env.BENCH_PANELS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
/** The worker's services: every third a postgres, so 3 make one database and two apps. */
const SERVICES = 3;
const WALL_GOAL = 1.3;
const STALL_GOAL_MS = 100;

/** A 2.33 catalogue listing what the pass sends, with its version: no version read beside it. */
const CATALOGUE = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Easypanel', version: '2.33.1' },
  servers: [{ url: '/api' }],
  paths: Object.fromEntries(
    [
      ['listProjectsAndServices', 'get'],
      ['listActions', 'get'],
      ['listDatabaseBackups', 'get'],
      ['listVolumeBackups', 'get'],
      ['runDatabaseBackup', 'post'],
      ['runVolumeBackup', 'post'],
    ].map(([name, method]) => [`/${name}`, { [method!]: { operationId: name } }]),
  ),
});
const at = new Date().toISOString();
const SCHEDULE = JSON.stringify([{ id: 'nightly', schedule: '0 3 * * *', enabled: true }]);
const ACTIONS = JSON.stringify({
  json: [{ id: 'a1', type: 'backup', status: 'done', projectName: 'project-0', serviceName: 'service-0', createdAt: at }],
});

async function figurePass(): Promise<void> {
  const databases = Array.from({ length: SERVICES }, (_, index) => index).filter((index) => index % 3 === 0).length;
  const reads = databases + SERVICES;
  // In sequence a panel: its catalogue, its services, its schedule reads in waves, its runs (both kinds at once).
  const depth = 1 + 1 + Math.ceil(reads / SCHEDULE_READS_PER_PANEL) + 1;
  const ideal = Math.ceil(PANELS / BACKUP_PANELS_AT_ONCE) * depth * LATENCY_MS;
  console.log(
    `\n1. listBackups({ refresh: true }) over ${PANELS} panels, ${LATENCY_MS} ms latency, ${SERVICES} services a panel (${databases} database); ` +
      `${BACKUP_PANELS_AT_ONCE} panels at once, ${SCHEDULE_READS_PER_PANEL} reads a panel: ideal ceil(${PANELS} / ${BACKUP_PANELS_AT_ONCE}) x ${depth} x ${LATENCY_MS} ms = ${ideal} ms`,
  );
  const tokens = Array.from({ length: PANELS }, () => newToken());
  const worker = new Worker(new URL('./fleet-panel-worker.ts', import.meta.url), {
    workerData: {
      tokens,
      latencyMs: LATENCY_MS,
      state: { services: SERVICES },
      extraAnswers: { '/api/openapi.json': CATALOGUE, '/api/listDatabaseBackups': SCHEDULE, '/api/listVolumeBackups': '[]' },
      postAnswers: { '/api/rpc/actions/listActions': ACTIONS },
    } satisfies FleetWorkerData,
  });
  const servers = asking<FleetWorkerRequest, FleetWorkerReply>(worker);
  const { ports } = await servers.started;
  const pristine = await mkdtemp(join(tmpdir(), 'paneldeck-backups-'));
  const runs: { ms: number; requests: number; maxInFlight: number; stallMs: number; keptMs: number; keptRequests: number }[] = [];
  try {
    const encryption = testEncryption();
    const entries = ports.map((port, index) => ({ address: `http://127.0.0.1:${port}`, token: tokens[index]! }));
    const folder = await writeFleetFolder(pristine, entries, encryption, { settings: false, checks: false });
    for (let run = 0; run < RUNS; run++) {
      await inTempDir(async (dir) => {
        for (const name of Object.keys(folder.sizes)) await copyFile(join(pristine, name), join(dir, name));
        const core = createCore({ dataDir: dir, encryption, emit: eventSink().emit });
        await core.listPanels();
        await servers.ask({ reset: true });
        await letClosesArrive();
        const probe = stallProbe();
        const started = performance.now();
        const read = await withLimit(core.listBackups({ refresh: true }), 600_000, 'listBackups()');
        const elapsed = performance.now() - started;
        const stallMs = probe.stop();
        const stats = await servers.ask({ stats: true });
        const good = read.filter((panel) => panel.problem === null && panel.backups.length === databases).length;
        if (good !== PANELS || stats.refused > 0)
          throw new Error(`${good} of ${PANELS} read, ${stats.refused} refused: ${read.find((panel) => panel.problem)?.problem}`);
        const keptStarted = performance.now();
        await core.listBackups();
        const keptMs = performance.now() - keptStarted;
        const after = await servers.ask({ stats: true });
        runs.push({
          ms: elapsed,
          requests: stats.requests,
          maxInFlight: stats.maxInFlight,
          stallMs,
          keptMs,
          keptRequests: after.requests - stats.requests,
        });
      });
      process.stderr.write('.');
    }
    process.stderr.write('\n');
  } finally {
    await servers.ask({ close: true });
    await rm(pristine, { recursive: true, force: true });
  }
  const wall = median(runs.map((run) => run.ms));
  const stall = median(runs.map((run) => run.stallMs));
  printTable([
    [
      'pass',
      'requests',
      'wall',
      `runs (${RUNS})`,
      'ideal',
      'ratio',
      `<= ${WALL_GOAL}x`,
      'most in flight',
      'longest stall',
      `< ${STALL_GOAL_MS} ms`,
    ],
    [
      'listBackups (refresh)',
      String(median(runs.map((run) => run.requests))),
      ms(wall, 0),
      spread(runs.map((run) => run.ms)),
      ms(ideal, 0),
      ratio(wall / ideal),
      wall / ideal <= WALL_GOAL ? 'yes' : 'NO',
      `${Math.max(...runs.map((run) => run.maxInFlight))} / ${BACKUP_PANELS_AT_ONCE * SCHEDULE_READS_PER_PANEL}`,
      ms(stall),
      stall < STALL_GOAL_MS ? 'yes' : 'NO',
    ],
    [
      'listBackups (kept)',
      String(median(runs.map((run) => run.keptRequests))),
      ms(median(runs.map((run) => run.keptMs))),
      spread(runs.map((run) => run.keptMs)),
      '',
      '',
      '',
      '',
      '',
      '',
    ],
  ]);
  ratioGoal('backups', 'listBackups over the fleet: wall vs the ideal', wall / ideal, WALL_GOAL);
  timeGoal('backups', "listBackups over the fleet: main's longest stall", stall, STALL_GOAL_MS);
}

await takeFigures('Backups pass (bench/backups.ts)', [['1. listBackups over the fleet', figurePass]]);
