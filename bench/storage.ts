/**
 * The storage figures of issue 19 (item 8, "main never waits on storage"), each against a
 * baseline measured in the same run:
 *
 *   node --experimental-strip-types bench/storage.ts                     (npm run bench:storage)
 *
 *   1. The longest event-loop block in main (the time main could answer nothing else: no IPC
 *      call, no window event) during an add, a rename, and a 20,000-address import (previewImport
 *      + applyImport of pasted text) into a list of 10,000 panels. Goal: none over 20 ms. The probe
 *      keeps watching for SETTLE_MS after each call answered, so work a call leaves behind (a
 *      compaction, the events) counts too. 1a counts main's own CPU time, 1b the wall clock; the
 *      same watch with no call at all is the baseline of both (on a shared machine, other
 *      processes hold main up too, which only the wall clock sees).
 *   2. How long a save takes to answer (durable: fsync'd) at 10,000 panels, against one plain
 *      writeFile + fsync of the same panels.json measured in this run: one add, one rename, and
 *      100 renames sent at once (what a burst of window actions costs).
 *
 * BEFORE is what the start commit of the item measured on this machine, kept below; AFTER is
 * measured now. Everything is real: the core from electron/core, files in a temporary folder.
 * Medians of BENCH_RUNS runs (default 5), with the spread. It asserts nothing.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCore, type Core } from '../electron/core/index.ts';
import type { ImportPreview } from '../shared/transfer.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { median, ms, printTable, spread } from './figures.ts';
import { newToken, writeFleetFolder } from './fleet-data.ts';
import { timeGoal } from './goals.ts';

const BENCH = 'storage';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const FLEET = 10_000;
const IMPORTED = 20_000;
const BURST = 100;
const GOAL_MS = 20;
/** How long the probe keeps watching after a call answered. */
const SETTLE_MS = 300;

/**
 * Figures the start commit gave on this machine (2 cores shared with other people's work, load
 * average about 12 at the time; ext4), in ms, with the baseline write of that run: bench/storage.ts
 * run on a checkout of that commit, the same day as the AFTER figures this file was last committed with.
 */
const BEFORE = {
  commit: '7e4cf45',
  baselineWrite: 24.8,
  cpu: { idle: 0.3, add: 49.1, rename: 54.1, import: 421.6 },
  wall: { idle: 25.0, add: 191.6, rename: 315.6, import: 1882.9 },
  latency: { add: 191.4, rename: 315.3, burst: 23840.9 },
};
type Watched = keyof typeof BEFORE.cpu;
const WATCHED: readonly Watched[] = ['idle', 'add', 'rename', 'import'];

/** The longest hold-up of main's event loop: as a clock on the wall saw it, and as main's own CPU time. */
interface Block {
  wallMs: number;
  cpuMs: number;
}

/** CPU time of this thread (main) only, in ms: time the OS gave to other processes is not in it. */
function mainCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/**
 * The longest time main's event loop was held up while `work` ran, and for SETTLE_MS after: the
 * largest gap between ticks of a 1 ms interval, less the 1 ms, on the wall clock; and the most CPU
 * time main spent between two ticks. On a machine shared with other processes the wall clock also
 * counts the time main was not even running (see the noise floor); the CPU time counts only what
 * main itself did, which is what the code decides (a wait on a synchronous fsync is in neither:
 * it is below 1 ms here, see fsync in the report). The probe runs a few ticks before the work
 * starts, so that a block at the very start is seen too.
 */
async function longestBlock<T>(work: () => Promise<T>): Promise<Block & { elapsedMs: number; value: T }> {
  let last = { wall: performance.now(), cpu: mainCpuMs() };
  const longest: Block = { wallMs: 0, cpuMs: 0 };
  const probe = setInterval(() => {
    const now = { wall: performance.now(), cpu: mainCpuMs() };
    longest.wallMs = Math.max(longest.wallMs, now.wall - last.wall - 1);
    longest.cpuMs = Math.max(longest.cpuMs, now.cpu - last.cpu);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 10));
  Object.assign(longest, { wallMs: 0, cpuMs: 0 });
  const start = performance.now();
  const value = await work();
  const elapsedMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  clearInterval(probe);
  return { wallMs: Math.max(0, longest.wallMs), cpuMs: longest.cpuMs, elapsedMs, value };
}

async function fleetTemplate(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-bench-storage-'));
  const addresses = Array.from({ length: FLEET }, (_, index) => `fleet-${index}.client-${index % 40}.example.com`);
  await writeFleetFolder(
    dir,
    addresses.map((address) => ({ address, token: newToken() })),
    testEncryption(),
    { settings: true, checks: true },
  );
  return dir;
}

/** A core on a fresh copy of the 10,000-panel folder, opened. */
async function openCopy(template: string): Promise<{ core: Core; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-bench-storage-run-'));
  await cp(template, dir, { recursive: true });
  const core = createCore({ dataDir: dir, encryption: testEncryption() });
  await core.listPanels();
  return { core, dir };
}

async function close(run: { core: Core; dir: string }): Promise<void> {
  await run.core.flush();
  await rm(run.dir, { recursive: true, force: true });
}

/** One plain write of `text` to a new file, flushed to disk: the least a durable save of the whole list costs. */
function plainWrite(dir: string, text: Buffer): number {
  const start = performance.now();
  const file = openSync(join(dir, 'baseline.json'), 'w', 0o600);
  try {
    writeSync(file, text);
    fsyncSync(file);
  } finally {
    closeSync(file);
  }
  return performance.now() - start;
}

const ratio = (value: number, base: number) => (Number.isFinite(value) && Number.isFinite(base) ? `${(value / base).toFixed(2)}x` : '-');
const verdict = (block: number) => (block <= GOAL_MS ? 'met' : 'NOT met');

async function main() {
  console.log(`Storage (issue 19, item 8), medians of ${RUNS} runs on ${process.platform}/${process.arch}, Node ${process.versions.node}`);
  const template = await fleetTemplate();
  try {
    const panelsText = await readFile(join(template, 'panels.json'));
    const baseline: number[] = [];
    const blocks = Object.fromEntries(WATCHED.map((name) => [name, [] as Block[]])) as Record<Watched, Block[]>;
    const latency = { add: [] as number[], rename: [] as number[], burst: [] as number[] };
    const importParts = { preview: [] as number[], apply: [] as number[] };
    const pasted = Array.from({ length: IMPORTED }, (_, index) => `imported-${index}.client-${index % 40}.example.com`).join('\n');

    for (let run = 0; run < RUNS; run++) {
      const opened = await openCopy(template);
      const { core } = opened;
      try {
        baseline.push(plainWrite(opened.dir, panelsText));
        // The same watch with nothing to do: what the machine itself (other processes, the GC) holds main up.
        blocks.idle.push(await longestBlock(async () => undefined));
        const added = await longestBlock(() => core.addPanel({ address: `added-${run}.example.com` }));
        blocks.add.push(added);
        latency.add.push(added.elapsedMs);
        const renamed = await longestBlock(() => core.updatePanel(added.value.id, { name: `Renamed ${run}` }));
        blocks.rename.push(renamed);
        latency.rename.push(renamed.elapsedMs);
        const target = added.value.id;
        const burst = await longestBlock(() =>
          Promise.all(Array.from({ length: BURST }, (_, index) => core.updatePanel(target, { name: `Burst ${run}.${index}` }))),
        );
        latency.burst.push(burst.elapsedMs);
        blocks.import.push(
          await longestBlock(async () => {
            const start = performance.now();
            const preview = (await core.previewImport({ from: 'text', text: pasted })) as ImportPreview;
            const previewed = performance.now();
            await core.applyImport(preview.id, { duplicates: 'skip' });
            importParts.preview.push(previewed - start);
            importParts.apply.push(performance.now() - previewed);
          }),
        );
      } finally {
        await close(opened);
      }
    }

    const base = median(baseline);
    console.log(
      `\nBaseline: one writeFile + fsync of the 10,000-panel panels.json (${(panelsText.length / 1024 / 1024).toFixed(1)} MiB): ${ms(base)} (runs ${spread(baseline)} ms)`,
    );
    const labels: Record<Watched, string> = {
      idle: 'nothing (the noise floor)',
      add: 'add',
      rename: 'rename',
      import: `import of ${IMPORTED.toLocaleString('en')}`,
    };
    for (const [title, measure] of [
      ["main's own CPU time between two ticks", 'cpu'],
      ['wall clock between two ticks (other processes included)', 'wall'],
    ] as const) {
      console.log(
        `\n1${measure === 'cpu' ? 'a' : 'b'}. Longest event-loop block in main, ${FLEET.toLocaleString('en')} panels, ${title} (goal: none over ${GOAL_MS} ms)`,
      );
      const rows: string[][] = [['call', 'BEFORE', 'AFTER', 'AFTER runs', 'goal']];
      for (const name of WATCHED) {
        const values = blocks[name].map((block) => (measure === 'cpu' ? block.cpuMs : block.wallMs));
        const after = median(values);
        rows.push([labels[name], ms(BEFORE[measure][name]), ms(after), spread(values), name === 'idle' ? '' : verdict(after)]);
        const clock = measure === 'cpu' ? "main's own CPU time" : 'wall clock';
        const what = name === 'import' ? `${IMPORTED.toLocaleString('en')}-address import` : name;
        if (name !== 'idle')
          timeGoal(BENCH, `main's longest block, ${what} into ${FLEET.toLocaleString('en')} panels (${clock})`, after, GOAL_MS);
      }
      printTable(rows);
    }
    console.log(
      `  the import's calls: preview ${ms(median(importParts.preview))}, apply ${ms(median(importParts.apply))} (from call to answer)`,
    );

    console.log(
      `\n2. Time to a durable answer, against the baseline write (BEFORE's against its own run's baseline, ${ms(BEFORE.baselineWrite)})`,
    );
    const latencyRows: string[][] = [['save', 'BEFORE', 'BEFORE / base', 'AFTER', 'AFTER runs', 'AFTER / base']];
    const saves = { add: 'one add', rename: 'one rename', burst: `${BURST} renames at once` } as const;
    for (const name of ['add', 'rename', 'burst'] as const) {
      const after = median(latency[name]);
      latencyRows.push([
        saves[name],
        ms(BEFORE.latency[name]),
        ratio(BEFORE.latency[name], BEFORE.baselineWrite),
        ms(after),
        spread(latency[name]),
        ratio(after, base),
      ]);
    }
    printTable(latencyRows);
    console.log(`  (BEFORE measured on commit ${BEFORE.commit}; AFTER on this checkout)`);
  } finally {
    await rm(template, { recursive: true, force: true });
  }
}

await main();
