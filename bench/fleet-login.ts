/**
 * Issue 34, item 3: logging in to a fleet.
 *
 *   node --experimental-strip-types bench/fleet-login.ts                 (npm run bench:fleet-login)
 *
 * logInPanels of 1,000 reference panels (tests/support/reference-panel, on loopback, served from
 * a worker thread), each answering its log in after BENCH_LATENCY_MS (default 50), against the
 * ideal measured the same way as bench/fleet.ts's pass: ceil(1000 / checkConcurrency) x latency,
 * and against a bare pool of the same log in requests (fetch, same concurrency) timed in this run.
 * Durable writes are counted per store through the core's `openStore` (each save is one fsync'd
 * journal line or file): before the grouped writes each log in cost one of tokens.json and one
 * of panels.json. The data folder is on the real disk (tmpdir), where the fsyncs cost. Medians
 * of BENCH_RUNS runs (default 3). It asserts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createCore } from '../electron/core/index.ts';
import { DEFAULT_SETTINGS } from '../shared/settings.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { DEMO_USER } from '../tests/support/reference-panel/server.ts';
import { countedStores } from '../tests/support/storage/counted-stores.ts';
import { median, ms, printTable, spread } from './figures.ts';
import { asking } from './fleet-helpers.ts';
import type { LoginWorkerData, LoginWorkerReply, LoginWorkerRequest } from './fleet-login-worker.ts';
import { countGoal, ratioGoal } from './goals.ts';

const BENCH = 'fleet-login';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const FLEET = Number(process.env.BENCH_FLEET ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const CONCURRENCY = DEFAULT_SETTINGS.checkConcurrency;
const credentials = { email: DEMO_USER.email, password: DEMO_USER.password, rememberMe: true };

interface Run {
  logInMs: number;
  bareMs: number;
  signedIn: number;
  tokenWrites: number;
  listWrites: number;
}

async function oneRun(urls: readonly string[]): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-bench-login-'));
  const saves = new Map<string, number>();
  try {
    const core = createCore({ dataDir: dir, encryption: testEncryption(), openStore: countedStores(dir, saves) });
    const { added } = await core
      .applyImport((await core.previewImport({ from: 'text', text: urls.join('\n') }))!.id, { duplicates: 'skip' })
      .then((result) => ({ added: result.addedIds }));
    await core.flush();
    saves.clear();
    const started = performance.now();
    const results = await core.logInPanels(added, credentials);
    const logInMs = performance.now() - started;
    const run = {
      logInMs,
      signedIn: results.filter((result) => result.outcome === 'signedIn').length,
      tokenWrites: saves.get('tokens') ?? 0,
      listWrites: saves.get('panels') ?? 0,
    };
    await core.flush();
    // The floor: the same log in requests from a bare pool of the same size, no core, no disk.
    const bareStarted = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        const answer = await fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(credentials),
        });
        await answer.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return { ...run, bareMs: performance.now() - bareStarted };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const loadBefore = loadavg()[0] ?? Number.NaN;
console.log(
  `Fleet log in (issue 34, item 3), medians of ${RUNS} runs. Node ${process.version}; load average ${loadBefore.toFixed(2)} at start.`,
);
const worker = new Worker(new URL('./fleet-login-worker.ts', import.meta.url), {
  workerData: { count: FLEET, latencyMs: LATENCY_MS } satisfies LoginWorkerData,
});
const servers = asking<LoginWorkerRequest, LoginWorkerReply>(worker);
const started = await servers.started;
const urls = 'urls' in started ? started.urls : [];
try {
  const runs: Run[] = [];
  for (let index = 0; index < RUNS; index++) runs.push(await oneRun(urls));
  const ideal = Math.ceil(FLEET / CONCURRENCY) * LATENCY_MS;
  const logInMs = median(runs.map((run) => run.logInMs));
  const bareMs = median(runs.map((run) => run.bareMs));
  const writesPerLogIn = median(runs.map((run) => (run.tokenWrites + run.listWrites) / Math.max(1, run.signedIn)));
  console.log(
    `\nlogInPanels of ${FLEET.toLocaleString('en')} panels, ${LATENCY_MS} ms per log in, checkConcurrency ${CONCURRENCY}; ideal ${ideal} ms`,
  );
  printTable([
    ['', 'median', `runs (${RUNS})`, 'ratio'],
    ['logInPanels', ms(logInMs), spread(runs.map((run) => run.logInMs)), `${(logInMs / ideal).toFixed(2)}x ideal`],
    ['bare pool of log in requests', ms(bareMs), spread(runs.map((run) => run.bareMs)), `${(bareMs / ideal).toFixed(2)}x ideal`],
    ['logInPanels vs bare pool', '', '', `${(logInMs / bareMs).toFixed(2)}x`],
    [
      'durable writes per log in',
      writesPerLogIn.toFixed(3),
      spread(
        runs.map((run) => (run.tokenWrites + run.listWrites) / Math.max(1, run.signedIn)),
        3,
      ),
      'tokens.json + panels.json',
    ],
  ]);
  for (const [index, run] of runs.entries()) {
    console.log(
      `  run ${index + 1}: ${run.signedIn}/${FLEET} signed in; tokens.json ${run.tokenWrites} writes, panels.json ${run.listWrites} writes`,
    );
  }
  ratioGoal(BENCH, `logInPanels of ${FLEET.toLocaleString('en')} panels, x the ideal`, logInMs / ideal, 1.5);
  // Grouped: fewer writes of each store than log ins (one each before); how many fewer depends on how long an fsync takes here.
  countGoal(
    BENCH,
    `tokens.json writes, logInPanels of ${FLEET.toLocaleString('en')} panels`,
    median(runs.map((run) => run.tokenWrites)),
    FLEET - 1,
  );
  countGoal(
    BENCH,
    `panels.json writes, logInPanels of ${FLEET.toLocaleString('en')} panels`,
    median(runs.map((run) => run.listWrites)),
    FLEET - 1,
  );
} finally {
  await servers.ask({ close: true });
  await worker.terminate();
}
console.log(`load average ${(loadavg()[0] ?? Number.NaN).toFixed(2)} at the end.`);
