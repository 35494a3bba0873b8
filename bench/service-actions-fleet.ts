/**
 * The figure of issue 24, item 5, for actions across panels, against its ideal in the same run:
 *
 *   node --experimental-strip-types bench/service-actions-fleet.ts      (npm run bench:fleet-actions)
 *
 *   runServiceActions() restarting 200 services on 20 panels (10 apps each) with 50 ms of server
 *   latency: each panel's service list read once, then each restart recorded in the activity log,
 *   sent, and recorded again. Wall time against the ideal for the requests the servers counted at
 *   the run's bound, ceil(requests / SERVICE_ACTIONS_AT_ONCE) x latency (goal: at most 1.3x); the
 *   most requests in flight at the servers against the bound; the longest event-loop stall. The
 *   floor beside it: a bare fetch pool of the same bound sending the same requests.
 *
 *   2. getFleetServices() once a check read 10,000 services (20 panels of 500): the time of the
 *      answer and of its serialisation for IPC (V8's serializer, as Electron's), and its size.
 *
 * Panels are served on 127.0.0.1 from a worker thread (bench/fleet-panel-worker.ts). Medians of
 * BENCH_RUNS runs (default 3); BENCH_PANELS, BENCH_SERVICES (a panel) and BENCH_LATENCY_MS change the fleet.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { createCore } from '../electron/core/index.ts';
import { SERVICE_ACTIONS_AT_ONCE, SERVICE_ACTIONS_PER_PANEL } from '../electron/core/services/all-services.ts';
import type { ServiceActionItem } from '../shared/fleet-services.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { median, ms, printTable, spread } from './figures.ts';
import { ratioGoal, timeGoal } from './goals.ts';
import { type FleetPanel, newToken, writeFleetFolder } from './fleet-data.ts';
import { asking, eventSink, inTempDir, letClosesArrive, ratio, stallProbe, takeFigures, withLimit } from './fleet-helpers.ts';
import type { FleetWorkerData, FleetWorkerReply, FleetWorkerRequest } from './fleet-panel-worker.ts';
import { confirmations } from '../tests/support/confirmations.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const PANELS = Number(process.env.BENCH_PANELS ?? 20);
const SERVICES_PER_PANEL = Number(process.env.BENCH_SERVICES ?? 10);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const RUN_LIMIT_MS = 120_000;
const WALL_GOAL = 1.3;

interface RunFigure {
  ms: number;
  requests: number;
  ideal: number;
  maxInFlight: number;
  stallMs: number;
  done: number;
  byPath: Record<string, number>;
}

/**
 * The worker serves services named `service-<n>` in `project-<n % 5>`, every third a postgres:
 * the apps among the first `SERVICES_PER_PANEL * 3 / 2` make ten apps a panel to restart.
 */
function appsOf(panel: FleetPanel): ServiceActionItem[] {
  const items: ServiceActionItem[] = [];
  for (let index = 0; items.length < SERVICES_PER_PANEL; index++) {
    if (index % 3 !== 0) items.push({ panelId: panel.id, projectName: `project-${index % 5}`, serviceName: `service-${index}` });
  }
  return items;
}

/** The same requests (a list read a panel, then its restarts) with nothing but fetch, the same bound: the floor. */
async function barePool(panels: readonly FleetPanel[], items: readonly ServiceActionItem[]): Promise<number> {
  const byId = new Map(panels.map((panel) => [panel.id, panel]));
  const work = [
    ...panels.map((panel) => ({ panel, path: 'listProjectsAndServices', body: undefined as string | undefined })),
    ...items.map((item) => ({
      panel: byId.get(item.panelId)!,
      path: 'restartAppService',
      body: JSON.stringify({ projectName: item.projectName, serviceName: item.serviceName }),
    })),
  ];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SERVICE_ACTIONS_AT_ONCE }, async () => {
      while (next < work.length) {
        const { panel, path, body } = work[next++]!;
        const response = await fetch(`${panel.baseUrl}/${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${panel.token}`, accept: 'application/json', 'content-type': 'application/json' },
          body,
        });
        await response.text();
      }
    }),
  );
  return performance.now() - started;
}

async function figureRun(): Promise<void> {
  const total = PANELS * SERVICES_PER_PANEL;
  console.log(
    `\n1. runServiceActions(restart) over ${total} services on ${PANELS} panels, ${LATENCY_MS} ms latency; ` +
      `bound ${SERVICE_ACTIONS_AT_ONCE} over the run, ${SERVICE_ACTIONS_PER_PANEL} a panel`,
  );
  const tokens = Array.from({ length: PANELS }, () => newToken());
  // Enough services that ten of each panel's are apps (every third is a postgres).
  const served = Math.ceil((SERVICES_PER_PANEL * 3) / 2) + 1;
  const worker = new Worker(new URL('./fleet-panel-worker.ts', import.meta.url), {
    workerData: { tokens, latencyMs: LATENCY_MS, state: { services: served, writes: true } } satisfies FleetWorkerData,
  });
  const servers = asking<FleetWorkerRequest, FleetWorkerReply>(worker);
  const { ports } = await servers.started;
  const pristine = await mkdtemp(join(tmpdir(), 'paneldeck-fleet-actions-'));
  const runs: RunFigure[] = [];
  const bare: number[] = [];
  try {
    const encryption = testEncryption();
    const entries = ports.map((port, index) => ({ address: `http://127.0.0.1:${port}`, token: tokens[index]! }));
    const folder = await writeFleetFolder(pristine, entries, encryption, { settings: false, checks: false });
    const items = folder.panels.flatMap(appsOf);
    for (let run = 0; run < RUNS; run++) {
      await inTempDir(async (dir) => {
        for (const name of Object.keys(folder.sizes)) await copyFile(join(pristine, name), join(dir, name));
        const sink = eventSink();
        const core = createCore({ dataDir: dir, encryption, confirmWrite: confirmations().confirmWrite, emit: sink.emit });
        await core.listPanels();
        await servers.ask({ reset: true });
        await letClosesArrive();
        bare.push(await barePool(folder.panels, items));
        await servers.ask({ reset: true });
        await letClosesArrive();
        const probe = stallProbe();
        const started = performance.now();
        const results = await withLimit(core.runServiceActions(items, 'restart'), RUN_LIMIT_MS, 'runServiceActions()');
        const elapsed = performance.now() - started;
        const stallMs = probe.stop();
        const stats = await servers.ask({ stats: true });
        const logged = (await core.listActivity()).entries.filter((entry) => entry.outcome === 'ok').length;
        const done = results.filter((result) => result.outcome === 'done').length;
        if (done !== total || logged !== total || stats.refused > 0)
          throw new Error(`${done} of ${total} done, ${logged} logged, ${stats.refused} refused: not as served`);
        runs.push({
          ms: elapsed,
          requests: stats.requests,
          ideal: Math.ceil(stats.requests / SERVICE_ACTIONS_AT_ONCE) * LATENCY_MS,
          maxInFlight: stats.maxInFlight,
          stallMs,
          done,
          byPath: stats.byPath,
        });
      });
      process.stderr.write('.');
    }
    process.stderr.write('\n');
  } finally {
    await servers.ask({ close: true });
    await rm(pristine, { recursive: true, force: true });
  }
  const paths = Object.entries(runs[0]?.byPath ?? {})
    .map(([path, count]) => `${path.replace('/api/', '')} ${count}`)
    .join(', ');
  console.log(`Requests of a run: ${paths}`);
  const wall = median(runs.map((run) => run.ms));
  const ideal = median(runs.map((run) => run.ideal));
  const bareMs = median(bare);
  ratioGoal('service-actions-fleet', 'runServiceActions across the fleet: wall vs the ideal', wall / ideal, WALL_GOAL);
  timeGoal(
    'service-actions-fleet',
    "runServiceActions across the fleet: main's longest stall",
    median(runs.map((run) => run.stallMs)),
    100,
  );
  printTable([
    ['run', 'requests', 'wall', `runs (${RUNS})`, 'ideal', 'ratio', `<= ${WALL_GOAL}x`, 'most in flight / bound', 'longest stall', 'done'],
    [
      'runServiceActions',
      String(median(runs.map((run) => run.requests))),
      ms(wall, 0),
      spread(runs.map((run) => run.ms)),
      ms(ideal, 0),
      ratio(wall / ideal),
      wall / ideal <= WALL_GOAL ? 'yes' : 'NO',
      `${Math.max(...runs.map((run) => run.maxInFlight))} / ${SERVICE_ACTIONS_AT_ONCE}`,
      ms(median(runs.map((run) => run.stallMs))),
      `${median(runs.map((run) => run.done))}/${total}`,
    ],
    [
      'bare fetch pool (floor)',
      String(median(runs.map((run) => run.requests))),
      ms(bareMs, 0),
      spread(bare),
      ms(ideal, 0),
      ratio(bareMs / ideal),
      '',
      '',
      '',
      '',
    ],
  ]);
  console.log(
    `The run is ${ratio(wall / bareMs)} of the bare pool: the rest is main's work and the activity log (each item on disk before it is sent and again after, flushes shared by the items in flight).`,
  );
}

async function figureAnswer(): Promise<void> {
  const panels = 20;
  const services = 500;
  console.log(
    `\n2. getFleetServices() after a check read ${(panels * services).toLocaleString('en-US')} services (${panels} panels of ${services})`,
  );
  const tokens = Array.from({ length: panels }, () => newToken());
  const worker = new Worker(new URL('./fleet-panel-worker.ts', import.meta.url), {
    workerData: { tokens, latencyMs: 0, state: { services } } satisfies FleetWorkerData,
  });
  const servers = asking<FleetWorkerRequest, FleetWorkerReply>(worker);
  const { ports } = await servers.started;
  const answers: { ms: number; serializeMs: number; bytes: number; count: number }[] = [];
  try {
    await inTempDir(async (dir) => {
      const encryption = testEncryption();
      const entries = ports.map((port, index) => ({ address: `http://127.0.0.1:${port}`, token: tokens[index]! }));
      await writeFleetFolder(dir, entries, encryption, { settings: false, checks: false });
      const core = createCore({ dataDir: dir, encryption, confirmWrite: confirmations().confirmWrite, emit: eventSink().emit });
      await withLimit(core.checkPanels(), RUN_LIMIT_MS, 'checkPanels()');
      for (let run = 0; run < RUNS * 5; run++) {
        const started = performance.now();
        const answer = await core.getFleetServices();
        const ms = performance.now() - started;
        const serializing = performance.now();
        const bytes = serialize(answer).length;
        answers.push({
          ms,
          serializeMs: performance.now() - serializing,
          bytes,
          count: answer.reduce((sum, one) => sum + one.services.length, 0),
        });
      }
    });
  } finally {
    await servers.ask({ close: true });
  }
  printTable([
    ['answer', 'services', 'getFleetServices', 'runs', 'serialise for IPC', 'runs', 'size'],
    [
      'getFleetServices()',
      String(median(answers.map((one) => one.count))),
      ms(median(answers.map((one) => one.ms))),
      spread(
        answers.map((one) => one.ms),
        1,
      ),
      ms(median(answers.map((one) => one.serializeMs))),
      spread(
        answers.map((one) => one.serializeMs),
        1,
      ),
      `${(median(answers.map((one) => one.bytes)) / 1024).toFixed(0)} KiB`,
    ],
  ]);
}

await takeFigures(`Fleet action figures, medians of ${RUNS} runs.`, [
  ['1', figureRun],
  ['2', figureAnswer],
]);
