/**
 * listServices of a panel of 1,000 services through the core, against a bare fetch and
 * JSON.parse of the same three answers, in the same run:
 *
 *   node --experimental-strip-types bench/services.ts      (npm run bench:services)
 *
 * The reference panel (Easypanel 2.33's public API, 100 projects of 10 services of every type,
 * a few down, stopped or disabled) serves from a worker thread, so its own work is in neither
 * figure. "core" is `listServices` as the window calls it: arguments validated, the token from the
 * vault, `listProjectsAndServices`, `getDockerTaskStats` and `listActions` (its unfinished builds) sent
 * together through the request table (headers, deadline, the size and shape checks before
 * parsing, the envelope), then every service's state derived. "bare" is `fetch` of the same three routes with the same token and
 * `JSON.parse` of each, in parallel, nothing else. "+ IPC copy" adds V8's serializer on the
 * result, which Electron's IPC runs on main to send it to the window. Medians of BENCH_RUNS
 * (default 40) after 5 warm-up calls of each, the two alternating. The goal: core ≤ 1.5x bare.
 * Times vary with the machine: compare the ratios.
 */
import { availableParallelism, loadavg } from 'node:os';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { createCore } from '../electron/core/index.ts';
import { tempDir, testEncryption } from '../tests/support/helpers.ts';
import { median, ms, printTable, spread } from './figures.ts';
import type { ServicesWorkerData, ServicesWorkerReady } from './services-panel-worker.ts';
import { ratioGoal } from './goals.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 40));
const WARM_UP = 5;
const SIZE: ServicesWorkerData = { projects: 100, perProject: 10 };
const GOAL = 1.5;

const worker = new Worker(new URL('./services-panel-worker.ts', import.meta.url), { workerData: SIZE });
const ready = await new Promise<ServicesWorkerReady>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});
const dir = await tempDir('paneldeck-bench-services-');
try {
  const core = createCore({ dataDir: dir.path, encryption: testEncryption() });
  const { id } = await core.addPanel({ address: ready.url, name: 'Bench' });
  await core.logInWithApiToken(id, { token: ready.apiToken });

  const headers = { authorization: `Bearer ${ready.apiToken}`, accept: 'application/json' };
  const bare = async () => {
    const read = async (route: string) => JSON.parse(await (await fetch(`${ready.url}/api/${route}`, { headers })).text()) as unknown;
    // The actions read goes through 2.33's RPC route, as the request table sends it (`limit` is a number).
    const actions = async () =>
      JSON.parse(
        await (
          await fetch(`${ready.url}/api/rpc/actions/listActions`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ json: { limit: 50 } }),
          })
        ).text(),
      ) as unknown;
    const [list, stats, recent] = await Promise.all([read('listProjectsAndServices'), read('getDockerTaskStats'), actions()]);
    return { list, stats, recent };
  };
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };

  const first = await core.listServices(id);
  const answers = await bare();
  const listBytes = JSON.stringify(answers.list).length;
  const statsBytes = JSON.stringify(answers.stats).length;
  console.log(
    `listServices of ${first.services.length} services in ${first.projects.length} projects ` +
      `(answers: ${(listBytes / 1024).toFixed(0)} KiB list, ${(statsBytes / 1024).toFixed(0)} KiB task stats)`,
  );

  for (let round = 0; round < WARM_UP; round++) {
    await core.listServices(id);
    await bare();
  }
  const figures = { core: [] as number[], withCopy: [] as number[], bare: [] as number[] };
  for (let round = 0; round < RUNS; round++) {
    // Alternating which goes first, so that neither always finds the connection just used.
    const order = round % 2 === 0 ? (['core', 'bare'] as const) : (['bare', 'core'] as const);
    for (const which of order) {
      if (which === 'bare') figures.bare.push(await timed(bare));
      else {
        const started = performance.now();
        const list = await core.listServices(id);
        figures.core.push(performance.now() - started);
        serialize(list);
        figures.withCopy.push(performance.now() - started);
      }
    }
  }
  const baseline = median(figures.bare);
  const fastestBare = Math.min(...figures.bare);
  // Each round's pair measured back to back: a ratio that a busy machine moves less than the medians.
  const pairRatio = (values: number[]) => median(values.map((value, round) => value / figures.bare[round]!));
  const row = (name: string, values: number[]) => [
    name,
    ms(median(values)),
    spread(values, 1),
    `${(median(values) / baseline).toFixed(2)}x`,
    `${(Math.min(...values) / fastestBare).toFixed(2)}x`,
    `${pairRatio(values).toFixed(2)}x`,
  ];
  printTable([
    ['', 'median', 'runs (min–max)', 'vs bare (medians)', 'fastest vs fastest', 'pairs (median ratio)'],
    row('bare fetch + JSON.parse', figures.bare),
    row('listServices', figures.core),
    row('listServices + IPC copy', figures.withCopy),
  ]);
  const ratio = pairRatio(figures.core);
  ratioGoal('services', 'listServices, x the bare reads (median of pairs)', ratio, GOAL);
  console.log(
    `Goal: listServices ≤ ${GOAL}x the bare reads: ${ratio <= GOAL ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x, median of ${RUNS} pairs; ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores).`,
  );
} finally {
  worker.postMessage('close');
  await dir.cleanup();
}
