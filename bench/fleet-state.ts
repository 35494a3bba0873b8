/**
 * The figures of issue 24, item 1 (checks read the state), each against its ideal in the same run:
 *
 *   node --experimental-strip-types bench/fleet-state.ts [figure numbers]     (npm run bench:fleet-state)
 *
 *   1. checkPanels() over 1,000 signed-in panels with 50 ms of server latency, reading each
 *      panel's session and state in the pass's one bound: the first pass of a core (session,
 *      version, service list, task stats, system stats: five requests a panel) and the next
 *      (session, task stats, system stats: three). Wall time against the ideal for the requests
 *      the servers counted, ceil(requests / checkConcurrency) x latency; the most requests in flight
 *      at the servers against the bound; the longest event-loop stall (goal: none over 100 ms).
 *   2. What keeping the state costs at 10,000 panels: checks.json with and without every panel's
 *      state, a pass that changes every panel written (bytes, the longest write, the longest stall)
 *      and the time to open it at start.
 *
 * Panels are served on 127.0.0.1 from a worker thread (bench/fleet-panel-worker.ts), so serving
 * does not count against main's event loop. Medians of BENCH_RUNS runs (default 3).
 */
import { statSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createCore, openJsonFiles } from '../electron/core/index.ts';
import { CheckHistory } from '../electron/core/storage/check-history.ts';
import type { StoredHealth } from '../electron/core/storage/health-record.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { median, ms, printTable, spread } from './figures.ts';
import { newToken, writeFleetFolder } from './fleet-data.ts';
import {
  asking,
  countingStore,
  eventSink,
  inTempDir,
  kib,
  letClosesArrive,
  ratio,
  stallProbe,
  WriteCounter,
  withLimit,
  takeFigures,
} from './fleet-helpers.ts';
import type { FleetWorkerData, FleetWorkerReply, FleetWorkerRequest } from './fleet-panel-worker.ts';
import { ratioGoal, timeGoal } from './goals.ts';

const BENCH = 'fleet-state';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const FLEET = 1000;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const SERVICES_PER_PANEL = 20;
const BIG_FLEET = 10_000;
const PASS_LIMIT_MS = 120_000;
const STALL_GOAL_MS = 100;
const WALL_GOAL = 1.3;

interface PassFigure {
  ms: number;
  requests: number;
  ideal: number;
  maxInFlight: number;
  stallMs: number;
  bytes: number;
  ok: number;
}

/** The same three reads of each panel with nothing but fetch and JSON.parse, `concurrency` panels at a time: the floor. */
async function barePool(
  panels: readonly { baseUrl: string; token: string }[],
  concurrency: number,
): Promise<{ ms: number; stallMs: number }> {
  let next = 0;
  const probe = stallProbe();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < panels.length) {
        const { baseUrl, token } = panels[next++]!;
        for (const route of ['getSession', 'getDockerTaskStats', 'getLegacyMonitorSystemStats']) {
          const response = await fetch(`${baseUrl}/${route}`, {
            headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          });
          JSON.parse(await response.text());
        }
      }
    }),
  );
  return { ms: performance.now() - started, stallMs: probe.stop() };
}

async function figurePass(): Promise<void> {
  console.log(
    `\n1. checkPanels() over ${FLEET} panels reading session and state, ${LATENCY_MS} ms latency, ${SERVICES_PER_PANEL} services a panel`,
  );
  const tokens = Array.from({ length: FLEET }, () => newToken());
  const worker = new Worker(new URL('./fleet-panel-worker.ts', import.meta.url), {
    workerData: { tokens, latencyMs: LATENCY_MS, state: { services: SERVICES_PER_PANEL } } satisfies FleetWorkerData,
  });
  const servers = asking<FleetWorkerRequest, FleetWorkerReply>(worker);
  const { ports } = await servers.started;
  const pristine = await mkdtemp(join(tmpdir(), 'paneldeck-fleet-state-'));
  const first: PassFigure[] = [];
  const next: PassFigure[] = [];
  const bare: { ms: number; stallMs: number }[] = [];
  let concurrency = 0;
  let paths = '';
  try {
    const encryption = testEncryption();
    const entries = ports.map((port, index) => ({ address: `http://127.0.0.1:${port}`, token: tokens[index]! }));
    const folder = await writeFleetFolder(pristine, entries, encryption, { settings: false, checks: false });
    for (let run = 0; run < RUNS; run++) {
      await inTempDir(async (dir) => {
        for (const name of Object.keys(folder.sizes)) await copyFile(join(pristine, name), join(dir, name));
        const counter = new WriteCounter();
        const sink = eventSink();
        const core = createCore({ dataDir: dir, encryption, openStore: countingStore(dir, counter), emit: sink.emit });
        await core.listPanels();
        concurrency = (await core.currentSettings()).checkConcurrency;
        await servers.ask({ reset: true });
        await letClosesArrive();
        bare.push(await barePool(folder.panels, concurrency));
        const pass = async (): Promise<PassFigure> => {
          await servers.ask({ reset: true });
          await letClosesArrive();
          counter.reset();
          const probe = stallProbe();
          const started = performance.now();
          const checks = await withLimit(core.checkPanels(), PASS_LIMIT_MS, 'checkPanels()');
          const elapsed = performance.now() - started;
          const stallMs = probe.stop();
          await core.flush();
          const stats = await servers.ask({ stats: true });
          paths = Object.entries(stats.byPath)
            .map(([path, count]) => `${path.replace('/api/', '')} ${count}`)
            .join(', ');
          return {
            ms: elapsed,
            requests: stats.requests,
            ideal: Math.ceil(stats.requests / concurrency) * LATENCY_MS,
            maxInFlight: stats.maxInFlight,
            stallMs,
            bytes: counter.bytes,
            ok: checks.filter((check) => check.ok).length,
          };
        };
        first.push(await pass());
        next.push(await pass());
        const state = await core.getFleetState();
        if (state.length !== FLEET || state.some((health) => health.servicesDown !== 2 || health.problem !== null))
          throw new Error(`the state of ${state.length} panels was read, not as served`);
      });
      process.stderr.write('.');
    }
    process.stderr.write('\n');
  } finally {
    await servers.ask({ close: true });
    await rm(pristine, { recursive: true, force: true });
  }
  console.log(`checkConcurrency ${concurrency}; requests of the next pass: ${paths}`);
  const row = (name: string, runs: PassFigure[]) => {
    const wall = median(runs.map((run) => run.ms));
    const ideal = median(runs.map((run) => run.ideal));
    const stall = median(runs.map((run) => run.stallMs));
    ratioGoal(BENCH, `a pass over ${FLEET.toLocaleString('en')} panels (${name}): wall, x the ideal`, wall / ideal, WALL_GOAL);
    timeGoal(BENCH, `a pass over ${FLEET.toLocaleString('en')} panels (${name}): longest stall`, stall, STALL_GOAL_MS);
    return {
      cells: [
        name,
        String(median(runs.map((run) => run.requests))),
        ms(wall, 0),
        spread(runs.map((run) => run.ms)),
        ms(ideal, 0),
        ratio(wall / ideal),
        wall / ideal <= WALL_GOAL ? 'yes' : 'NO',
        `${Math.max(...runs.map((run) => run.maxInFlight))} / ${concurrency}`,
        ms(stall),
        spread(
          runs.map((run) => run.stallMs),
          0,
        ),
        stall <= STALL_GOAL_MS ? 'yes' : 'NO',
        kib(median(runs.map((run) => run.bytes))),
        `${median(runs.map((run) => run.ok))}/${FLEET}`,
      ],
    };
  };
  printTable([
    [
      'pass',
      'requests',
      'wall',
      `runs (${RUNS})`,
      'ideal',
      'ratio',
      `<= ${WALL_GOAL}x`,
      'most in flight / bound',
      'longest stall',
      'runs',
      `<= ${STALL_GOAL_MS} ms`,
      'written',
      'ok',
    ],
    row('first (lists services, reads versions)', first).cells,
    row('next', next).cells,
  ]);
  const bareMs = median(bare.map((run) => run.ms));
  const nextMs = median(next.map((run) => run.ms));
  console.log(
    `Floor: a bare fetch pool of ${concurrency} reading the next pass's ${FLEET * 3} requests took ${ms(bareMs, 0)} (${spread(bare.map((run) => run.ms))}), ` +
      `${ratio(bareMs / (Math.ceil((FLEET * 3) / concurrency) * LATENCY_MS))} ideal, longest stall ${ms(median(bare.map((run) => run.stallMs)))} ` +
      `(${spread(bare.map((run) => run.stallMs))}): the next pass is ${ratio(nextMs / bareMs)} of it.`,
  );
}

/** A state as a check writes it, a little different per pass so that every panel changes. */
function healthAt(at: string, pass: number): StoredHealth {
  return {
    readAt: at,
    servicesDown: pass % 3,
    downServices: ['shop/web', 'shop/api'].slice(0, pass % 3),
    services: { running: 17, down: pass % 3, stopped: 1 },
    cpuPercent: 10 + (pass % 50),
    memory: { usedMb: 3120.44 + pass, totalMb: 7976.26 },
    disk: { usedGb: 31.2, totalGb: 78.63 },
    problem: null,
  };
}

async function figureStore(): Promise<void> {
  console.log(`\n2. Keeping the state in checks.json at ${BIG_FLEET.toLocaleString('en-US')} panels (every panel changed by each pass)`);
  const ids = Array.from({ length: BIG_FLEET }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
  const rows: string[][] = [];
  for (const withHealth of [false, true]) {
    const passes: { bytes: number; longestWrite: number; stall: number }[] = [];
    let fileBytes = 0;
    let openMs: number[] = [];
    await inTempDir(async (dir) => {
      const counter = new WriteCounter();
      const history = new CheckHistory(countingStore(dir, counter)('checks', { secret: false }));
      for (let pass = 0; pass < 4; pass++) {
        const at = new Date(Date.UTC(2026, 10, 25, 10, pass)).toISOString();
        for (const id of ids)
          history.record(id, {
            lastCheck: { at, ok: true },
            sessionExpiresAt: '2026-12-25T10:00:00.000Z',
            panelVersion: '2.33.1',
            ...(withHealth ? { health: healthAt(at, pass) } : {}),
          });
        counter.reset();
        const probe = stallProbe();
        await history.flush();
        passes.push({ bytes: counter.bytes, longestWrite: counter.longestMs, stall: probe.stop() });
      }
      await history.compact();
      fileBytes = statSync(join(dir, 'checks.json')).size;
      openMs = Array.from({ length: RUNS }, () => {
        const started = performance.now();
        const opened = new CheckHistory(openJsonFiles(dir)('checks', { secret: false }));
        opened.get(ids[0]!);
        return performance.now() - started;
      });
    });
    // The first pass writes the file whole; the later ones go to the journal or, past its room, whole.
    const later = passes.slice(1);
    rows.push([
      withHealth ? 'with the state' : 'without (before)',
      kib(fileBytes),
      kib(passes[0]!.bytes),
      kib(median(later.map((pass) => pass.bytes))),
      ms(Math.max(...passes.map((pass) => pass.longestWrite)), 0),
      ms(Math.max(...passes.map((pass) => pass.stall)), 0),
      ms(median(openMs), 0),
    ]);
  }
  printTable([
    ['checks.json', 'size', 'first pass written', 'later pass written', 'longest write', 'longest stall', 'open at start'],
    ...rows,
  ]);
}

await takeFigures(`Fleet state figures, medians of ${RUNS} runs.`, [
  ['1', figurePass],
  ['2', figureStore],
]);
