/**
 * The figures of issue 25 (the API console), each beside its baseline:
 *
 *   node --experimental-strip-types bench/operation-console.ts [figure numbers]   (npm run bench:console)
 *
 *   1. callOperationOnPanels: one read across 1,000 signed-in panels, 50 ms server latency, vs
 *      the ideal ceil(1000 / checkConcurrency) x 50 ms. Cold: each panel's catalogue is read first
 *      (two requests a panel: the ideal doubles); warm: the catalogues are cached (one request).
 *      Goal: warm <= 1.3x. With the longest event-loop stall of main during the run.
 *   2. Reading a real-size catalogue (~375 operations, as the issue counts Easypanel's) and one of
 *      4,000: time and the longest stall of main (the parse is one block; the rest is sliced).
 *   3. A 4 MiB answer through callOperation: the longest stall of main, and v8.serialize of the
 *      answer (what Electron's IPC does to carry it to the window) on its own.
 *
 * Panels are served from a worker thread (bench/fleet-panel-worker.ts) so that serving does not
 * count against main. Medians of BENCH_RUNS runs (default 3); it asserts nothing.
 */
import { copyFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { createCore } from '../electron/core/index.ts';
import { readCatalogue } from '../electron/core/easypanel/operation-catalogue.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { startReferencePanel } from '../tests/support/reference-panel/server.ts';
import { median, ms } from './figures.ts';
import { ratioGoal } from './goals.ts';
import { newToken, writeFleetFolder } from './fleet-data.ts';
import { asking, inTempDir, letClosesArrive, ratio, stallProbe, withLimit } from './fleet-helpers.ts';
import type { FleetWorkerData, FleetWorkerReply, FleetWorkerRequest } from './fleet-panel-worker.ts';
import { confirmations } from '../tests/support/confirmations.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const FLEET = 1000;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);

const CATALOGUE = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Easypanel', version: '2.33.1' },
  servers: [{ url: '/api' }],
  paths: {
    '/listUsers': { get: { operationId: 'listUsers', summary: 'The users' } },
    '/listProjectsAndServices': { get: { operationId: 'listProjectsAndServices', summary: 'Projects and services' } },
  },
});
const USERS = JSON.stringify([{ id: 'usr_1001', email: 'demo@paneldeck.test', apiToken: 'x', twoFactorSecret: null }]);

/** Starts panels on a worker: one per token, answering `answers` (GET paths) after `latencyMs`. */
async function fleetOf(count: number, latencyMs: number, answers: Record<string, string>) {
  const tokens = Array.from({ length: count }, () => newToken());
  const worker = new Worker(new URL('./fleet-panel-worker.ts', import.meta.url), {
    workerData: { tokens, latencyMs, extraAnswers: answers } satisfies FleetWorkerData,
  });
  const servers = asking<FleetWorkerRequest, FleetWorkerReply>(worker);
  const { ports } = await servers.started;
  return { tokens, ports, servers };
}

async function figureRun(): Promise<void> {
  console.log(`\n1. One read across ${FLEET} panels, ${LATENCY_MS} ms latency (servers on a worker thread)`);
  const { tokens, ports, servers } = await fleetOf(FLEET, LATENCY_MS, { '/api/openapi.json': CATALOGUE, '/api/listUsers': USERS });
  await inTempDir(async (pristine) => {
    const encryption = testEncryption();
    const entries = ports.map((port, index) => ({ address: `http://127.0.0.1:${port}`, token: tokens[index]! }));
    const folder = await writeFleetFolder(pristine, entries, encryption, { settings: false, checks: false });
    const cold: number[] = [];
    const warm: number[] = [];
    const stalls = { cold: [] as number[], warm: [] as number[] };
    let concurrency = 16;
    for (let run = 0; run < RUNS; run++) {
      await inTempDir(async (dir) => {
        for (const name of Object.keys(folder.sizes)) await copyFile(join(pristine, name), join(dir, name));
        const core = createCore({ dataDir: dir, encryption, confirmWrite: confirmations().confirmWrite });
        const ids = (await core.listPanels()).map((panel) => panel.id);
        concurrency = (await core.currentSettings()).checkConcurrency;
        await servers.ask({ reset: true });
        await letClosesArrive();
        for (const [times, label] of [
          [cold, 'cold'],
          [warm, 'warm'],
        ] as const) {
          const probe = stallProbe();
          const started = performance.now();
          const results = await withLimit(
            core.callOperationOnPanels(ids, { operation: 'listUsers', input: null }, { field: '[0].email' }),
            120_000,
            `the ${label} run`,
          );
          times.push(performance.now() - started);
          stalls[label].push(probe.stop());
          const done = results.filter((result) => result.outcome === 'done' && result.value === 'demo@paneldeck.test').length;
          if (done !== FLEET) console.log(`   run ${run + 1} ${label}: only ${done} of ${FLEET} panels answered as expected`);
        }
        await core.flush();
      });
    }
    const ideal = Math.ceil(FLEET / concurrency) * LATENCY_MS;
    console.log(`   concurrency ${concurrency}; ideal warm ${ms(ideal)}, cold ${ms(2 * ideal)}`);
    console.log(`   cold: ${cold.map(ms).join(', ')} -> median ${ms(median(cold))} = ${ratio(median(cold) / (2 * ideal))} of ideal`);
    console.log(
      `   warm: ${warm.map(ms).join(', ')} -> median ${ms(median(warm))} = ${ratio(median(warm) / ideal)} of ideal (goal <= 1.30x)`,
    );
    console.log(`   longest stall of main: cold runs ${stalls.cold.map(ms).join(', ')}; warm runs ${stalls.warm.map(ms).join(', ')}`);
    ratioGoal(
      'operation-console',
      `a console read on ${FLEET} panels at concurrency ${concurrency}: warm vs the ideal`,
      median(warm) / ideal,
      1.3,
    );
  });
  await servers.ask({ close: true });
}

async function figureCatalogue(): Promise<void> {
  console.log('\n2. Reading a catalogue (the parse is one block; operations are read in 6 ms slices)');
  for (const total of [375, 4000]) {
    const panel = await startReferencePanel({ style: 'public', catalogue: { extraOperations: total - 30 } });
    const text = await (await fetch(`${panel.url}/api/openapi.json`)).text();
    await panel.close();
    const times: number[] = [];
    const stalls: number[] = [];
    let count = 0;
    for (let run = 0; run < RUNS + 1; run++) {
      const probe = stallProbe();
      const started = performance.now();
      const read = await readCatalogue(text, (value, max) => value.slice(0, max));
      // The first run warms the code up: not counted.
      if (run > 0) {
        times.push(performance.now() - started);
        stalls.push(probe.stop());
      } else probe.stop();
      count = read.operations.length;
    }
    console.log(
      `   ${count} operations, ${(text.length / 1024).toFixed(0)} KiB: ${times.map(ms).join(', ')} -> median ${ms(median(times))}; longest stall ${ms(Math.max(...stalls))}`,
    );
  }
}

async function figureAnswer(): Promise<void> {
  console.log('\n3. A 4 MiB answer through callOperation (no latency)');
  const row = (index: number) => ({
    projectName: `project-${index % 50}`,
    name: `service-${index}`,
    type: 'app',
    enabled: true,
    note: 'n'.repeat(40),
  });
  const services: unknown[] = [];
  let size = 0;
  for (let index = 0; size < 4 * 1024 * 1024 - 2000; index++) {
    const item = row(index);
    size += JSON.stringify(item).length + 1;
    services.push(item);
  }
  const answer = JSON.stringify({ projects: [], services: services.slice(0, -1) });
  const { tokens, ports, servers } = await fleetOf(1, 0, { '/api/openapi.json': CATALOGUE, '/api/listProjectsAndServices': answer });
  await inTempDir(async (dir) => {
    const encryption = testEncryption();
    await writeFleetFolder(dir, [{ address: `http://127.0.0.1:${ports[0]}`, token: tokens[0]! }], encryption, {
      settings: false,
      checks: false,
    });
    const core = createCore({ dataDir: dir, encryption, confirmWrite: confirmations().confirmWrite });
    const [id] = (await core.listPanels()).map((panel) => panel.id);
    const stalls: number[] = [];
    const clones: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS + 1; run++) {
      const probe = stallProbe();
      const read = await core.callOperation(id!, { operation: 'listProjectsAndServices', input: {} });
      const stall = probe.stop();
      const started = performance.now();
      serialize(read);
      if (run > 0) {
        stalls.push(stall);
        clones.push(performance.now() - started);
      }
      bytes = read.bytes;
    }
    console.log(
      `   ${(bytes / 1024 / 1024).toFixed(2)} MiB, ${services.length} services: longest stall ${stalls.map(ms).join(', ')}; v8.serialize ${clones.map(ms).join(', ')}`,
    );
    await core.flush();
  });
  await servers.ask({ close: true });
}

const figures: [string, () => Promise<void>][] = [
  ['1', figureRun],
  ['2', figureCatalogue],
  ['3', figureAnswer],
];
const chosen = process.argv.slice(2);
console.log(
  `load average at start: ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}; ${RUNS} runs`,
);
for (const [number, figure] of figures) {
  if (chosen.length > 0 && !chosen.includes(number)) continue;
  try {
    await figure();
  } catch (error) {
    console.log(`   figure ${number} could not be taken: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(
  `\nload average at end: ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
