/**
 * A build log of 10 MB followed live in the Deployments tab (renderer/deployments/deployments-view.tsx),
 * against one of 100 KB, in one run:
 *
 *   npm run build && node --experimental-strip-types bench/build-log.ts      (npm run bench:build-log)
 *
 *   1. Main's share of each log read: `readBuildLog` (cut to the last 2 MiB, lines cleaned, the
 *      token looked for) against `JSON.parse` of the same answer, the bare minimum, on a 10 MB log.
 *   2. In the window, while the log grows to its size in STEPS reads (one every 2 s, as the tab
 *      polls a running build) and the build ends: the longest task (goal: none over 100 ms; the
 *      copies standing in for IPC's are left out; with
 *      BENCH_TASKS=1 every long task is printed, ms from the first read), the answer → next frame time of each read,
 *      DOM nodes at the end (only the rows in view are drawn), and whether the view kept to the end.
 *
 * The built renderer runs in the system's headless Chromium at 900x600 with the real preload
 * bundle; its `ipcRenderer` is a fake main in the page (bench-page.ts): one signed-in panel, one
 * running build whose log grows by size / STEPS a read, each read answered with what main's own
 * `readBuildLog` made of the log so far (worked out before the page opens: its last 2 MiB, from a
 * line start, `truncated` once longer), after a structured clone standing in for IPC's copy. Medians of BENCH_RUNS (default 3) fresh pages after a warm-up, the sizes alternating.
 * Times vary with the machine: compare the ratios.
 */
import { availableParallelism, loadavg } from 'node:os';
import { readBuildLog } from '../electron/core/easypanel/deployment-answers.ts';
import { secretMatcher } from '../electron/core/secrets/secret-match.ts';
import {
  type BenchAnswers,
  type BenchRenderer,
  type BenchWindow,
  longestTask,
  openBenchPage,
  smallAgainstBig,
  startBenchRenderer,
} from './bench-page.ts';
import { median, ms, printTable } from './figures.ts';
import { timeGoal } from './goals.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const SMALL = 100 * 1024;
const BIG = 10 * 1024 * 1024;
const STEPS = 8;

/** A build log's line, about 60 bytes, as a Docker build writes them. */
const logLine = (n: number) => `#${n} [build 4/7] RUN npm run build: compiling src/module-${n % 97}.ts (${(n * 7) % 1000} ms)`;

/**
 * What main sends for each read of a log that grows to `totalBytes` in `steps` reads: worked out
 * here, by main's own `readBuildLog`, so that the page does no work of main's while it is measured.
 */
function mainAnswers(totalBytes: number, steps: number): { log: string; truncated: boolean }[] {
  const holdsToken = secretMatcher(['cm4xq2b7k0000abcdtokenxyz']);
  const chunks: string[] = [];
  const answers: { log: string; truncated: boolean }[] = [];
  let written = 0;
  let lines = 0;
  for (let step = 1; step <= steps; step++) {
    const chunk: string[] = [];
    for (const target = Math.ceil((totalBytes / steps) * step); written < target; ) {
      chunk.push(logLine(++lines));
      written += chunk.at(-1)!.length + 1;
    }
    chunks.push(`${chunk.join('\n')}\n`);
    answers.push(readBuildLog(chunks.join(''), holdsToken));
  }
  return answers;
}

// In the page: serialised by Playwright, so it uses nothing from this module but types.
interface Setup {
  /** Main's answer to each read; one more read after the last says the build is done. */
  answers: { log: string; truncated: boolean }[];
}
interface Probe {
  /** Each log answer handed to the page → the frame after it. */
  frames: number[];
  /** The same stretches, where they lie: the window's handling of each read. */
  spans: { start: number; end: number }[];
  startedAt: number | null;
  doneAt: number | null;
}
type ProbeWindow = BenchWindow & { __probe: Probe };

function installFakeMain({ answers: reads }: Setup): void {
  const page = window as unknown as ProbeWindow;
  const probe: Probe = { frames: [], spans: [], startedAt: null, doneAt: null };
  Object.defineProperty(page, '__probe', { value: probe });
  let read = 0;
  const startedAt = new Date(Date.now() - 60_000).toISOString();
  const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const after = async <T>(value: T) => {
    await nextTask();
    return value;
  };
  const answers: BenchAnswers = {
    'panelApi:listDeployments': async ([id]) =>
      after({
        panelId: id,
        projectName: 'shop',
        serviceName: 'web',
        readAt: new Date().toISOString(),
        deployments: [{ id: 'build1', type: 'build', status: read > reads.length ? 'done' : 'running', startedAt, finishedAt: null }],
        truncated: false,
      }),
    'panelApi:getDeploymentLog': async ([id, deploymentId]) => {
      await nextTask();
      probe.startedAt ??= performance.now();
      const done = read >= reads.length;
      const sent = reads[Math.min(read++, reads.length - 1)]!;
      const started = performance.now();
      const copy = structuredClone({
        panelId: id,
        deploymentId,
        readAt: new Date().toISOString(),
        status: done ? 'done' : 'running',
        log: sent.log,
        truncated: sent.truncated,
      });
      page.__benchProbe.skips.push({ start: started, end: performance.now() });
      await nextTask();
      const handed = performance.now();
      requestAnimationFrame(() =>
        setTimeout(() => {
          probe.frames.push(performance.now() - handed);
          probe.spans.push({ start: handed, end: performance.now() });
        }, 0),
      );
      if (done) requestAnimationFrame(() => setTimeout(() => (probe.doneAt = performance.now()), 0));
      return copy;
    },
  };
  Object.assign(page.__benchAnswers, answers);
}

interface Run {
  longestTask: number;
  /** The longest task during the window's handling of a read (answer → next frame). */
  readTask: number;
  frame: number;
  worstFrame: number;
  nodes: number;
  rows: number;
  atEnd: boolean;
  lastLine: string;
}

async function oneRun(bench: BenchRenderer, totalBytes: number): Promise<Run> {
  const setup: Setup = { answers: answersBySize.get(totalBytes)! };
  const { page, errors } = await openBenchPage(bench, installFakeMain, setup);
  try {
    await page.getByRole('button', { name: 'Deployments', exact: true }).click();
    const view = page.getByRole('region', { name: 'Deployments' });
    await view.getByLabel('Project').fill('shop');
    await view.getByLabel('Service').fill('web');
    await view.getByRole('button', { name: 'Show deployments' }).click();
    await view.getByRole('button', { name: 'build' }).click();
    await page.waitForFunction(() => (window as unknown as ProbeWindow).__probe.doneAt !== null, undefined, {
      timeout: (STEPS + 4) * 2000 + 30_000,
    });
    await page.waitForTimeout(200);
    const end = await page.evaluate(() => {
      const probe = (window as unknown as ProbeWindow).__probe;
      const box = document.querySelector<HTMLElement>('.build-log .log-lines');
      const rows = [...document.querySelectorAll('.build-log .log-line')];
      return {
        startedAt: probe.startedAt!,
        doneAt: probe.doneAt!,
        frames: probe.frames,
        spans: probe.spans,
        nodes: document.querySelectorAll('*').length,
        rows: rows.length,
        atEnd: box !== null && box.scrollTop + box.clientHeight >= box.scrollHeight - 18,
        lastLine: rows.at(-1)?.textContent ?? '',
      };
    });
    const task = await page.evaluate(longestTask, { from: end.startedAt, to: end.doneAt });
    // The tasks a read's handling was part of; others in the follow are the machine's, or the page's own.
    const readTasks = await Promise.all(end.spans.map((span) => page.evaluate(longestTask, { from: span.start, to: span.end })));
    if (process.env.BENCH_TASKS === '1') {
      const tasks = await page.evaluate(() => (window as unknown as BenchWindow).__benchProbe);
      const at = (start: number) => Math.round(start - end.startedAt);
      console.log(
        `${size(totalBytes)}: long tasks ${tasks.tasks.map((one) => `${at(one.start)}+${Math.round(one.duration)}`).join(' ')}; ` +
          `left out ${tasks.skips.map((one) => `${at(one.start)}+${Math.round(one.end - one.start)}`).join(' ')}`,
      );
    }
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join('; ')}`);
    return {
      longestTask: task,
      readTask: Math.max(0, ...readTasks),
      frame: median(end.frames),
      worstFrame: Math.max(...end.frames),
      nodes: end.nodes,
      rows: end.rows,
      atEnd: end.atEnd,
      lastLine: end.lastLine,
    };
  } finally {
    await page.close();
  }
}

/** Main's share of one read of a log of `bytes`, against JSON.parse of the answer alone: medians of 7. */
function mainShare(bytes: number): { read: number; parse: number } {
  const lines: string[] = [];
  for (let n = 1, size = 0; size < bytes; n++) {
    lines.push(logLine(n));
    size += lines.at(-1)!.length + 1;
  }
  const answer = JSON.stringify({ id: 'build1', status: 'running', log: `${lines.join('\n')}\n` });
  const token = 'cm4xq2b7k0000abcdtokenxyz';
  const holdsToken = secretMatcher([token]);
  const parse: number[] = [];
  const read: number[] = [];
  for (let round = 0; round < 7; round++) {
    let started = performance.now();
    const parsed = JSON.parse(answer) as { log: string };
    parse.push(performance.now() - started);
    started = performance.now();
    readBuildLog(parsed.log, holdsToken);
    read.push(performance.now() - started);
  }
  return { read: median(read), parse: median(parse) };
}

const task = (value: number) => (value === 0 ? '< 50 ms' : ms(value));
const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`);

const loadBefore = loadavg()[0]!;
const main = { small: mainShare(SMALL), big: mainShare(BIG) };
const answersBySize = new Map([SMALL, BIG].map((bytes) => [bytes, mainAnswers(bytes, STEPS)]));
const bench = await startBenchRenderer();
const { small, big, mid, worst } = await smallAgainstBig<Run>(bench, { small: SMALL, big: BIG, rounds: RUNS, warmUp: [SMALL] }, oneRun);
console.log(
  `\nA build log followed live in the Deployments tab, ${size(BIG)} vs ${size(SMALL)} in ${STEPS} reads, median of ${RUNS} runs;`,
);
console.log(`load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after, on ${availableParallelism()} cores\n`);
const bigTask = worst(big, (run) => run.longestTask);
const bigReadTask = worst(big, (run) => run.readTask);
printTable([
  ['', size(SMALL), size(BIG), 'ratio / goal'],
  [
    'main: readBuildLog (cut, clean, token)',
    ms(main.small.read),
    ms(main.big.read),
    `${(main.big.read / main.big.parse).toFixed(2)}x JSON.parse of the answer (${ms(main.big.parse)})`,
  ],
  ['window: longest task, whole follow (worst run)', task(worst(small, (run) => run.longestTask)), task(bigTask), '≤ 100 ms'],
  ['window: longest task handling a read (worst run)', task(worst(small, (run) => run.readTask)), task(bigReadTask), '≤ 100 ms'],
  [
    'window: log answer → next frame (median)',
    ms(mid(small, (run) => run.frame)),
    ms(mid(big, (run) => run.frame)),
    `${(mid(big, (run) => run.frame) / mid(small, (run) => run.frame)).toFixed(2)}x`,
  ],
  ['window: log answer → next frame (worst)', ms(worst(small, (run) => run.worstFrame)), ms(worst(big, (run) => run.worstFrame)), ''],
  ['DOM nodes, all of the page', String(mid(small, (run) => run.nodes)), String(mid(big, (run) => run.nodes)), ''],
  ['log rows in the page', String(mid(small, (run) => run.rows)), String(mid(big, (run) => run.rows)), ''],
  ['view at the end when the build ended', String(small.every((run) => run.atEnd)), String(big.every((run) => run.atEnd)), 'true'],
]);
console.log(`\nLast line shown (10 MB): ${big[0]?.lastLine ?? ''}`);
console.log(
  `Goal: no task over 100 ms following ${size(BIG)}: ${bigTask <= 100 ? 'met' : 'NOT met'} (${task(bigTask)}; ` +
    `handling a read: ${task(bigReadTask)}; the ${size(SMALL)} log's follow beside it: ${task(worst(small, (run) => run.longestTask))}).`,
);

// The goals of `npm run bench` (bench/run-all.ts).
timeGoal('build-log', `following a ${size(BIG)} build log: longest task`, bigTask, 100);
timeGoal('build-log', `following a ${size(BIG)} build log: longest task handling a read`, bigReadTask, 100);
