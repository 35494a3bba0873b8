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
 *      compaction, the events) counts too. The same watch with no call at all is the baseline: on
 *      a shared machine, other processes hold main up too.
 *   2. How long a save takes to answer (durable: fsync'd) at 10,000 panels, against one plain
 *      writeFile + fsync of the same panels.json measured in this run: one add, one rename, and
 *      100 renames sent at once (what a burst of window actions costs).
 *
 * BEFORE is what the start commit of the item measured on this machine, kept below; AFTER is
 * measured now. Everything is real: the service from electron/core, files in a temporary folder.
 * Medians of BENCH_RUNS runs (default 5), with the spread. It asserts nothing.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPanelService, type PanelService } from '../electron/core/index.ts';
import type { ImportPreview } from '../shared/transfer.ts';
import { testEncryption } from '../tests/support/helpers.ts';
import { median, ms, printTable, spread } from './figures.ts';
import { newToken, writeFleetFolder } from './fleet-data.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const FLEET = 10_000;
const IMPORTED = 20_000;
const BURST = 100;
const GOAL_MS = 20;
/** How long the probe keeps watching after a call answered. */
const SETTLE_MS = 300;

/** Figures the start commit gave on this machine (2 shared cores, ext4), in ms, with the baseline write of that run. */
const BEFORE = {
  commit: '7e4cf45',
  baselineWrite: NaN,
  block: { idle: NaN, add: NaN, rename: NaN, import: NaN },
  latency: { add: NaN, rename: NaN, burst: NaN },
};

/**
 * The longest time main's event loop was held up while `work` ran, and for SETTLE_MS after: the
 * largest gap between ticks of a 1 ms interval, less the 1 ms. The probe runs a few ticks before
 * the work starts, so that a block at the very start is seen too.
 */
async function longestBlock<T>(work: () => Promise<T>): Promise<{ blockMs: number; elapsedMs: number; value: T }> {
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 10));
  longest = 0;
  const start = performance.now();
  const value = await work();
  const elapsedMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  clearInterval(probe);
  return { blockMs: Math.max(0, longest), elapsedMs, value };
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

/** A service on a fresh copy of the 10,000-panel folder, opened. */
async function openCopy(template: string): Promise<{ service: PanelService; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-bench-storage-run-'));
  await cp(template, dir, { recursive: true });
  const service = createPanelService({ dataDir: dir, encryption: testEncryption() });
  await service.listPanels();
  return { service, dir };
}

async function close(run: { service: PanelService; dir: string }): Promise<void> {
  await run.service.flush();
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
    const blocks = { idle: [] as number[], add: [] as number[], rename: [] as number[], import: [] as number[] };
    const latency = { add: [] as number[], rename: [] as number[], burst: [] as number[] };
    const importParts = { preview: [] as number[], apply: [] as number[] };
    const pasted = Array.from({ length: IMPORTED }, (_, index) => `imported-${index}.client-${index % 40}.example.com`).join('\n');

    for (let run = 0; run < RUNS; run++) {
      const opened = await openCopy(template);
      const { service } = opened;
      try {
        baseline.push(plainWrite(opened.dir, panelsText));
        // The same watch with nothing to do: what the machine itself (other processes, the GC) holds main up.
        blocks.idle.push((await longestBlock(async () => undefined)).blockMs);
        const added = await longestBlock(() => service.addPanel({ address: `added-${run}.example.com` }));
        blocks.add.push(added.blockMs);
        latency.add.push(added.elapsedMs);
        const renamed = await longestBlock(() => service.updatePanel(added.value.id, { name: `Renamed ${run}` }));
        blocks.rename.push(renamed.blockMs);
        latency.rename.push(renamed.elapsedMs);
        const target = added.value.id;
        const burst = await longestBlock(() =>
          Promise.all(Array.from({ length: BURST }, (_, index) => service.updatePanel(target, { name: `Burst ${run}.${index}` }))),
        );
        latency.burst.push(burst.elapsedMs);
        const imported = await longestBlock(async () => {
          const start = performance.now();
          const preview = (await service.previewImport({ from: 'text', text: pasted })) as ImportPreview;
          const previewed = performance.now();
          await service.applyImport(preview.id, { duplicates: 'skip' });
          importParts.preview.push(previewed - start);
          importParts.apply.push(performance.now() - previewed);
        });
        blocks.import.push(imported.blockMs);
      } finally {
        await close(opened);
      }
    }

    const base = median(baseline);
    console.log(
      `\nBaseline: one writeFile + fsync of the 10,000-panel panels.json (${(panelsText.length / 1024 / 1024).toFixed(1)} MiB): ${ms(base)} (runs ${spread(baseline)} ms)`,
    );
    console.log(`\n1. Longest event-loop block in main, ${FLEET.toLocaleString('en')} panels (goal: none over ${GOAL_MS} ms)`);
    const rows: string[][] = [['call', 'BEFORE', 'AFTER', 'AFTER runs', 'goal']];
    rows.push(['nothing (the noise floor)', ms(BEFORE.block.idle), ms(median(blocks.idle)), spread(blocks.idle), '']);
    for (const name of ['add', 'rename', 'import'] as const) {
      const after = median(blocks[name]);
      rows.push([
        name === 'import' ? `import of ${IMPORTED.toLocaleString('en')}` : name,
        ms(BEFORE.block[name]),
        ms(after),
        spread(blocks[name]),
        verdict(after),
      ]);
    }
    printTable(rows);
    console.log(
      `  the import's calls: preview ${ms(median(importParts.preview))}, apply ${ms(median(importParts.apply))} (from call to answer)`,
    );

    console.log(
      `\n2. Time to a durable answer, against the baseline write (BEFORE's against its own run's baseline, ${ms(BEFORE.baselineWrite)})`,
    );
    const latencyRows: string[][] = [['save', 'BEFORE', 'BEFORE / base', 'AFTER', 'AFTER runs', 'AFTER / base']];
    const labels = { add: 'one add', rename: 'one rename', burst: `${BURST} renames at once` } as const;
    for (const name of ['add', 'rename', 'burst'] as const) {
      const after = median(latency[name]);
      latencyRows.push([
        labels[name],
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
