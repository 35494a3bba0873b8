/**
 * The Services tab (renderer/services/services-tab.tsx) with 2,000 services against 10, in one run:
 *
 *   npm run build && node --experimental-strip-types bench/services-tab.ts      (npm run bench:services-tab)
 *
 *   1. From listServices' answer reaching the page until the first service row is painted, the
 *      renderer's share (the goal: ≤ 1.5x with 10); and from the click on the tab, the stand-in
 *      for IPC's copy of the answer included.
 *   2. DOM nodes once the tab shows (goal ≤ 3,000).
 *   3. The longest task (Long Tasks API: only tasks over 50 ms are reported) while the tab loads,
 *      while its table is scrolled top to bottom, and while one search key filters it (goal: none
 *      over 100 ms).
 *   4. The selection: Ctrl+A selects every service, one checkbox takes one out again, and the
 *      bar's Deploy hands all of them to main, whose confirmation asks, and the run's bar shows
 *      (time to shown, longest task).
 *
 * The built renderer runs in the system's headless Chromium at 900x600 with the real preload
 * bundle; its `ipcRenderer` is a fake main in the page (one signed-in panel; listServices answers
 * the services built in the page, a task later, after a structured clone standing in for IPC's
 * copy, which is left out of the longest tasks). Medians of BENCH_RUNS (default 5) fresh pages
 * after a warm-up of each size, the sizes alternating. Times vary with the machine: compare ratios.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { ServiceSummary } from '../shared/services.ts';
import {
  type BenchAnswers,
  type BenchRenderer,
  type BenchWindow,
  longestTask,
  openBenchPage,
  smallAgainstBig,
  startBenchRenderer,
} from './bench-page.ts';
import { ms, printTable } from './figures.ts';
import { countGoal, ratioGoal, timeGoal } from './goals.ts';
import { measureSelection, scrollTable, type Timed } from './services-tab-probes.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const SMALL = 10;
const BIG = 2000;
const ROW = '.service-table tbody tr';

// In the page: serialised by Playwright, so it uses nothing from this module but types.
interface Setup {
  count: number;
  row: string;
}
interface Probe {
  /** When listServices' answer was handed to the page. */
  answeredAt: number | null;
  clickedAt: number | null;
  firstRowAt: number | null;
}
type ProbeWindow = BenchWindow & { __probe: Probe };

function installFakeMain({ count, row }: Setup): void {
  const page = window as unknown as ProbeWindow;
  const types = ['app', 'compose', 'postgres', 'mysql', 'mariadb', 'mongo', 'redis', 'box', 'wordpress'];
  const services: ServiceSummary[] = Array.from({ length: count }, (_, index) => {
    const state = index % 7 === 3 ? 'down' : index % 11 === 5 ? 'stopped' : 'running';
    const desired = state === 'stopped' ? 0 : 1;
    return {
      projectName: `project-${String(Math.floor(index / 10)).padStart(4, '0')}`,
      name: `service-${index % 10}`,
      type: types[index % types.length]!,
      state,
      replicas: { actual: state === 'running' ? 1 : 0, desired },
    };
  });
  const projects = [...new Set(services.map((service) => service.projectName))].map((name) => ({ name }));
  const probe: Probe = { answeredAt: null, clickedAt: null, firstRowAt: null };
  Object.defineProperty(page, '__probe', { value: probe });
  window.addEventListener(
    'click',
    (event) => {
      if ((event.target as Element | null)?.closest('button')?.textContent !== 'Services') return;
      probe.clickedAt = Math.min(event.timeStamp, performance.now());
      const rows = new MutationObserver(() => {
        if (!document.querySelector(row)) return;
        rows.disconnect();
        requestAnimationFrame(() => setTimeout(() => (probe.firstRowAt = performance.now()), 0));
      });
      rows.observe(document, { childList: true, subtree: true });
    },
    { capture: true },
  );
  const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const answers: BenchAnswers = {
    // Main's confirmation is still asking: the run never answers in the bench.
    'panelApi:runServiceActions': () => new Promise(() => undefined),
    'panelApi:listServices': async ([id]) => {
      await nextTask();
      const started = performance.now();
      const copy = structuredClone({
        panelId: id,
        readAt: new Date().toISOString(),
        projects,
        services,
        truncated: false,
        taskStatsProblem: null,
      });
      page.__benchProbe.skips.push({ start: started, end: performance.now() });
      await nextTask();
      probe.answeredAt = performance.now();
      return copy;
    },
  };
  Object.assign(page.__benchAnswers, answers);
}

interface Run {
  /** listServices answered → first row painted: the renderer's share. */
  firstRow: number;
  /** The click → first row painted, the copy standing in for IPC included. */
  fromClick: number;
  nodes: number;
  rows: number;
  loadTask: number;
  scrollTask: number;
  longestFrame: number;
  searchMs: number;
  searchTask: number;
  /** Ctrl+A (every service), one checkbox out again, a deploy of all of them handed to main. */
  selection: { all: Timed; one: Timed; confirm: Timed };
}

async function oneRun(bench: BenchRenderer, count: number): Promise<Run> {
  const { page, errors } = await openBenchPage(bench, installFakeMain, { count, row: ROW } satisfies Setup);
  try {
    await page.getByRole('button', { name: 'Services', exact: true }).click();
    await page.waitForFunction(() => (window as unknown as ProbeWindow).__probe.firstRowAt !== null, undefined, { timeout: 60_000 });
    await page.waitForTimeout(300);
    const load = await page.evaluate((row) => {
      const probe = (window as unknown as ProbeWindow).__probe;
      return {
        clickedAt: probe.clickedAt!,
        answeredAt: probe.answeredAt!,
        firstRowAt: probe.firstRowAt!,
        nodes: document.querySelectorAll('*').length,
        rows: document.querySelectorAll(row).length,
      };
    }, ROW);
    const loadTask = await page.evaluate(longestTask, { from: load.clickedAt, to: load.firstRowAt + 300 });
    const scroll = await page.evaluate(scrollTable);
    await page.waitForTimeout(100);
    const scrollTask = await page.evaluate(longestTask, { from: scroll.start, to: scroll.end });
    const search = page.getByRole('searchbox', { name: /Search services/ });
    const before = await page.evaluate(() => performance.now());
    await search.fill('down');
    await page.waitForFunction((row) => [...document.querySelectorAll(row)].every((tr) => tr.textContent?.includes('Down')), ROW);
    const searchMs = (await page.evaluate(() => performance.now())) - before;
    await page.waitForTimeout(100);
    const searchTask = await page.evaluate(longestTask, { from: before, to: before + searchMs });
    const selection = await measureSelection(page, count);
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join('; ')}`);
    if (!scroll.atBottom) throw new Error('the table did not scroll to its end');
    return {
      firstRow: load.firstRowAt - load.answeredAt,
      fromClick: load.firstRowAt - load.clickedAt,
      nodes: load.nodes,
      rows: load.rows,
      loadTask,
      scrollTask,
      longestFrame: scroll.longestFrame,
      searchMs,
      searchTask,
      selection,
    };
  } finally {
    await page.close();
  }
}

const task = (value: number) => (value === 0 ? '< 50 ms' : ms(value));

const loadBefore = loadavg()[0]!;
const bench = await startBenchRenderer();
const { small, big, mid, worst } = await smallAgainstBig<Run>(
  bench,
  { small: SMALL, big: BIG, rounds: RUNS, warmUp: [SMALL, BIG] },
  oneRun,
);
console.log(`\nServices tab, ${BIG.toLocaleString('en-US')} services vs ${SMALL}, median of ${RUNS} runs (a fresh page each);`);
console.log(`load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after, on ${availableParallelism()} cores\n`);
const firstRatio = mid(big, (run) => run.firstRow) / mid(small, (run) => run.firstRow);
printTable([
  ['', `${SMALL} services`, `${BIG.toLocaleString('en-US')} services`, 'ratio / goal'],
  [
    'listServices answered → first row painted',
    ms(mid(small, (run) => run.firstRow)),
    ms(mid(big, (run) => run.firstRow)),
    `${firstRatio.toFixed(2)}x (≤ 1.5x)`,
  ],
  ['click Services → first row (IPC copy included)', ms(mid(small, (run) => run.fromClick)), ms(mid(big, (run) => run.fromClick)), ''],
  ['DOM nodes, all of the page', String(mid(small, (run) => run.nodes)), String(mid(big, (run) => run.nodes)), '≤ 3,000'],
  ['service rows in the page', String(mid(small, (run) => run.rows)), String(mid(big, (run) => run.rows)), ''],
  ['longest task, loading (worst run)', task(worst(small, (run) => run.loadTask)), task(worst(big, (run) => run.loadTask)), '≤ 100 ms'],
  [
    'longest task, scrolling (worst run)',
    task(worst(small, (run) => run.scrollTask)),
    task(worst(big, (run) => run.scrollTask)),
    '≤ 100 ms',
  ],
  ['longest frame, scrolling', ms(mid(small, (run) => run.longestFrame)), ms(mid(big, (run) => run.longestFrame)), ''],
  ['search "down" → rows shown', ms(mid(small, (run) => run.searchMs)), ms(mid(big, (run) => run.searchMs)), ''],
  [
    'longest task, searching (worst run)',
    task(worst(small, (run) => run.searchTask)),
    task(worst(big, (run) => run.searchTask)),
    '≤ 100 ms',
  ],
  ...(['all', 'one', 'confirm'] as const).flatMap((step) => {
    const what = { all: 'select all (Ctrl+A)', one: 'one checkbox out of all', confirm: 'Deploy of all: handed to main, run shown' }[step];
    return [
      [`${what} → shown`, ms(mid(small, (run) => run.selection[step].ms)), ms(mid(big, (run) => run.selection[step].ms)), ''],
      [
        `longest task, ${what} (worst run)`,
        task(worst(small, (run) => run.selection[step].task)),
        task(worst(big, (run) => run.selection[step].task)),
        '≤ 100 ms',
      ],
    ];
  }),
]);

// The goals of `npm run bench` (bench/run-all.ts).
const NAME = 'services-tab';
const BIG_NAME = `Services tab, ${BIG.toLocaleString('en-US')} services`;
ratioGoal(NAME, `${BIG_NAME}: first row vs ${SMALL}`, firstRatio, 1.5);
countGoal(
  NAME,
  `${BIG_NAME}: DOM nodes`,
  mid(big, (run) => run.nodes),
  3000,
);
timeGoal(
  NAME,
  `${BIG_NAME}: longest task loading`,
  worst(big, (run) => run.loadTask),
  100,
);
timeGoal(
  NAME,
  `${BIG_NAME}: longest task scrolling`,
  worst(big, (run) => run.scrollTask),
  100,
);
timeGoal(
  NAME,
  `${BIG_NAME}: longest task searching`,
  worst(big, (run) => run.searchTask),
  100,
);
for (const step of ['all', 'one', 'confirm'] as const)
  timeGoal(
    NAME,
    `${BIG_NAME}: longest task, selection (${step})`,
    worst(big, (run) => run.selection[step].task),
    100,
  );
