/**
 * A 4 MiB answer shown in a panel's Console tab (renderer/components/console/), against one of
 * 40 KiB, in one run:
 *
 *   npm run build && node --experimental-strip-types bench/console-answer.ts      (npm run bench:console-answer)
 *
 * The answer is a `users.listUsers`-like list whose every user has an API token, a two-factor
 * secret and a password hash (all masked until revealed), and some nesting. Measured in the window,
 * from the answer handed to the page to the tree drawn (its Reveal buttons in the DOM) and the
 * frame after: the longest task (goal: none over 100 ms; the structured clone standing in for
 * IPC's copy is left out, as in build-log.ts), that time, DOM nodes; then one secret revealed
 * (click → frame) and its longest task.
 *
 * The built renderer runs in the system's headless Chromium at 900x600 with the real preload
 * bundle and a fake main in the page (bench-page.ts). Medians of BENCH_RUNS (default 3) fresh
 * pages after a warm-up, the sizes alternating. Times vary with the machine: compare the ratios.
 */
import { availableParallelism, loadavg } from 'node:os';
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
const SMALL = 40 * 1024;
const BIG = 4 * 1024 * 1024;

/** A panel's user as `listUsers` answers it, secrets in clear (main removes only the panel's own token). */
function user(n: number) {
  return {
    id: `user-${n}`,
    email: `operator-${n}@example.com`,
    admin: n % 7 === 0,
    createdAt: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    apiToken: `tok_${n.toString(36).padStart(8, '0')}abcdefghijklmnop`,
    twoFactorSecret: n % 3 === 0 ? `JBSWY3DPEHPK3PX${n % 10}` : null,
    password: `$2b$10$${'a'.repeat(22)}${n.toString(36).padStart(31, 'x')}`,
    projects: [`shop-${n % 40}`, `blog-${n % 13}`],
    settings: { theme: n % 2 ? 'dark' : 'light', notifications: { email: true, deploys: n % 5 === 0 } },
  };
}

/** Users until the answer's JSON is about `bytes`. */
function answerBody(bytes: number): unknown[] {
  const users: unknown[] = [];
  for (let size = 2; size < bytes; ) {
    const next = user(users.length);
    users.push(next);
    size += JSON.stringify(next).length + 1;
  }
  return users;
}

// In the page: serialised by Playwright, so it uses nothing from this module but types.
interface Setup {
  body: unknown[];
  bytes: number;
}
interface Probe {
  handedAt: number | null;
}
type ProbeWindow = BenchWindow & { __probe: Probe };

function installFakeMain({ body, bytes }: Setup): void {
  const page = window as unknown as ProbeWindow;
  const probe: Probe = { handedAt: null };
  Object.defineProperty(page, '__probe', { value: probe });
  const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const answers: BenchAnswers = {
    'panelApi:getOperations': async ([id]) => {
      await nextTask();
      return {
        panelId: id,
        version: '2.30.0',
        generation: 'trpc',
        readAt: new Date().toISOString(),
        operations: [
          { name: 'users.listUsers', kind: 'read', summary: 'Every user of the panel', input: null },
          { name: 'projects.listProjects', kind: 'read', summary: null, input: null },
        ],
        skipped: [],
      };
    },
    'panelApi:callOperation': async ([id, call]) => {
      await nextTask();
      const started = performance.now();
      const copy = structuredClone({
        panelId: id,
        operation: (call as { operation: string }).operation,
        status: 200,
        ms: 180,
        bytes,
        body,
        text: null,
        truncated: false,
      });
      page.__benchProbe.skips.push({ start: started, end: performance.now() });
      await nextTask();
      probe.handedAt = performance.now();
      return copy;
    },
  };
  Object.assign(page.__benchAnswers, answers);
}

interface Run {
  /** Answer handed → tree drawn and the next frame. */
  shown: number;
  showTask: number;
  revealed: number;
  revealTask: number;
  nodes: number;
  /** Values shown masked once the first user is open and one of its secrets revealed. */
  masked: number;
}

/** In the page: the time to the frame after the next one drawn (the work of a click or an answer done). */
const afterFrame = () => new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));

async function oneRun(bench: BenchRenderer, bytes: number): Promise<Run> {
  const { page, errors } = await openBenchPage(bench, installFakeMain, { body: bodyBySize.get(bytes)!, bytes });
  try {
    await page.getByRole('group', { name: 'Panel view' }).getByRole('button', { name: 'Console', exact: true }).click();
    await page.getByRole('button', { name: /users\.listUsers/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // A list of more than 20 entries opens with its items closed: the tree's rows are drawn, no secret yet.
    await page.getByRole('list', { name: 'The answer' }).getByRole('button', { name: /^0 / }).waitFor({ timeout: 60_000 });
    const shownAt = await page.evaluate(afterFrame);
    const handedAt = await page.evaluate(() => (window as unknown as ProbeWindow).__probe.handedAt!);
    const showTask = await page.evaluate(longestTask, { from: handedAt, to: shownAt });
    const nodes = await page.evaluate(() => document.querySelectorAll('*').length);
    await page.getByRole('list', { name: 'The answer' }).getByRole('button', { name: /^0 / }).click();
    const reveal = page.getByRole('button', { name: /^Reveal / }).first();
    await reveal.waitFor({ timeout: 60_000 });
    const clickedAt = await page.evaluate(() => performance.now());
    await reveal.click();
    const revealedAt = await page.evaluate(afterFrame);
    const revealTask = await page.evaluate(longestTask, { from: clickedAt, to: revealedAt });
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join('; ')}`);
    const masked = await page.locator('.json-masked').count();
    return { shown: shownAt - handedAt, showTask, revealed: revealedAt - clickedAt, revealTask, nodes, masked };
  } finally {
    await page.close();
  }
}

const task = (value: number) => (value === 0 ? '< 50 ms' : ms(value));
const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`);

const loadBefore = loadavg()[0]!;
const bodyBySize = new Map([SMALL, BIG].map((bytes) => [bytes, answerBody(bytes)]));
const bench = await startBenchRenderer();
const { small, big, mid, worst } = await smallAgainstBig<Run>(
  bench,
  { small: SMALL, big: BIG, rounds: RUNS, warmUp: [SMALL, BIG] },
  oneRun,
);
console.log(
  `\nAn answer of ${bodyBySize.get(BIG)!.length.toLocaleString('en')} users (${size(BIG)}) vs ${size(SMALL)} in the Console tab, median of ${RUNS} runs;`,
);
console.log(`load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after, on ${availableParallelism()} cores\n`);
const bigTask = worst(big, (run) => run.showTask);
printTable([
  ['', size(SMALL), size(BIG), 'ratio / goal'],
  [
    'answer handed → tree drawn, next frame (median)',
    ms(mid(small, (run) => run.shown)),
    ms(mid(big, (run) => run.shown)),
    `${(mid(big, (run) => run.shown) / mid(small, (run) => run.shown)).toFixed(2)}x`,
  ],
  ['longest task showing the answer (worst run)', task(worst(small, (run) => run.showTask)), task(bigTask), '≤ 100 ms'],
  ['one secret revealed → next frame (median)', ms(mid(small, (run) => run.revealed)), ms(mid(big, (run) => run.revealed)), ''],
  [
    'longest task revealing it (worst run)',
    task(worst(small, (run) => run.revealTask)),
    task(worst(big, (run) => run.revealTask)),
    '≤ 100 ms',
  ],
  ['DOM nodes, all of the page', String(median(small.map((run) => run.nodes))), String(median(big.map((run) => run.nodes))), ''],
]);
console.log(`\nThe first user opened, one secret revealed: ${big[0]?.masked ?? 0} values still masked on screen (${size(BIG)}).`);
console.log(`Goal: no task over 100 ms showing a ${size(BIG)} answer: ${bigTask <= 100 ? 'met' : 'NOT met'} (${task(bigTask)}).`);

// The goals of `npm run bench` (bench/run-all.ts).
timeGoal('console-answer', `a ${size(BIG)} console answer: longest task showing it`, bigTask, 100);
timeGoal(
  'console-answer',
  `a ${size(BIG)} console answer: longest task revealing a secret`,
  worst(big, (run) => run.revealTask),
  100,
);
