/**
 * The fleet's views of issues 29–33 at fleet scale (issue 34, item 4), each against the same view
 * with 10 panels measured in the same run:
 *
 *   npm run build && node --experimental-strip-types bench/fleet-views.ts [view ...]   (npm run bench:fleet-views)
 *
 * For Backups, Certificates, Activity (the actions timeline) and Alerts, with a row per panel
 * (10,000 panels vs 10): from the click on the view's button in the panel list until its first
 * row is painted (goal ≤ 1.5x the small fleet's), the DOM nodes once it shows (goal ≤ 3,000), the
 * longest task from the click until the view has settled (goal ≤ 100 ms), and one keystroke in the
 * view's search box until the filtered rows are painted (goal ≤ 50 ms).
 *
 * The built renderer with the real preload in the system's headless Chromium; a fake main in the
 * page (bench/fleet-views-page.ts) answers each list after a copy standing in for IPC's, left out
 * of the longest tasks. Medians of BENCH_RUNS runs (default 3) after a warm-up of each size. It
 * asserts nothing: it measures.
 */
import { availableParallelism, loadavg } from 'node:os';
import { samplePanel } from '../tests/support/panel-fixture.ts';
import { type BenchRenderer, longestTask, openBenchPage, smallAgainstBig, startBenchRenderer, timedKey } from './bench-page.ts';
import { ms, printTable } from './figures.ts';
import { type FleetView, installViewsMain, type ViewSetup, type ViewWindow } from './fleet-views-page.ts';
import { countGoal, ratioGoal, timeGoal } from './goals.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const SMALL = 10;
const BIG = 10_000;
/**
 * What is typed first (not timed), then the key timed: "client 0000" then "1" keeps the panels
 * whose number starts 00001 (1 of 10, 11 of 10,000). A key that changes nothing shown (one "p"
 * matches every row's service) would leave nothing to time.
 */
const TYPED_FIRST = 'client 0000';
const FILTER_KEY = '1';

/**
 * Each view: its button, its rows, its search box, the element its rows change in, and its code's
 * chunk, waited for before the click (the window warms it while idle: the first row is then the
 * view's own work, not a race between the click and the warm-up).
 */
const VIEWS: Readonly<Record<FleetView, { button: string; row: string; search: string; region: string; chunk: string }>> = {
  backups: { button: 'Backups', row: '.backup-row', search: 'Search the backups', region: '.backups-view', chunk: 'backups-view' },
  certificates: {
    button: 'Certificates',
    row: '.certificate-row',
    search: 'Search the certificates',
    region: '.certificates-view',
    chunk: 'certificates-view',
  },
  activity: { button: 'Activity', row: '.activity-row', search: 'Search the activity', region: '.activity-view', chunk: 'activity-view' },
  alerts: { button: 'Alerts', row: '.alert-row', search: 'Search the alerts', region: '.alerts-view', chunk: 'alerts-view' },
};

interface Run {
  firstRow: number;
  nodes: number;
  rows: number;
  loadTask: number;
  key: { ms: number; task: number };
}

async function oneRun(bench: BenchRenderer, view: FleetView, panels: number): Promise<Run> {
  const { button, row, search, region, chunk } = VIEWS[view];
  const setup: ViewSetup = { view, panels, row, button, template: samplePanel(1) };
  const trace = (step: string) => process.env.BENCH_TRACE && console.error(`${view} ${panels}: ${step}`);
  trace('opening');
  const { page, errors } = await openBenchPage(bench, installViewsMain, setup);
  trace('opened');
  await page.waitForFunction((name) => performance.getEntriesByType('resource').some((entry) => entry.name.includes(`/${name}-`)), chunk, {
    timeout: 30_000,
  });
  try {
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: button, exact: true }).click();
    await page.waitForFunction(() => (window as unknown as ViewWindow).__viewProbe.firstRowAt !== null, undefined, { timeout: 60_000 });
    trace('first row');
    await page.waitForTimeout(300);
    const load = await page.evaluate((selector) => {
      const probe = (window as unknown as ViewWindow).__viewProbe;
      return {
        clickedAt: probe.clickedAt ?? 0,
        firstRowAt: probe.firstRowAt!,
        nodes: document.querySelectorAll('*').length,
        rows: document.querySelectorAll(selector).length,
      };
    }, row);
    const loadTask = await page.evaluate(longestTask, { from: load.clickedAt, to: load.firstRowAt + 300 });
    await page.getByRole('searchbox', { name: search }).focus();
    await page.keyboard.type(TYPED_FIRST);
    await page.waitForTimeout(500);
    trace('typed');
    const key = await timedKey(page, region, FILTER_KEY);
    trace('timed');
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join('; ')}`);
    return { firstRow: load.firstRowAt - load.clickedAt, nodes: load.nodes, rows: load.rows, loadTask, key };
  } finally {
    await page.close();
  }
}

const task = (value: number) => (value === 0 ? '< 50 ms' : ms(value));
const asked = process.argv.slice(2) as FleetView[];
const views = (Object.keys(VIEWS) as FleetView[]).filter((view) => asked.length === 0 || asked.includes(view));

for (const view of views) {
  const loadBefore = loadavg()[0]!;
  const { small, big, mid, worst } = await smallAgainstBig<Run>(
    await startBenchRenderer(),
    { small: SMALL, big: BIG, rounds: RUNS, warmUp: [SMALL, BIG] },
    (bench, size) => oneRun(bench, view, size),
  );
  const name = VIEWS[view].button;
  console.log(`\n${name}, a row per panel: ${BIG.toLocaleString('en-US')} panels vs ${SMALL}, median of ${RUNS} runs (a fresh page each);`);
  console.log(`load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after, on ${availableParallelism()} cores\n`);
  const firstRatio = mid(big, (run) => run.firstRow) / mid(small, (run) => run.firstRow);
  printTable([
    ['', `${SMALL} panels`, `${BIG.toLocaleString('en-US')} panels`, 'ratio / goal'],
    [
      'click → first row painted',
      ms(mid(small, (run) => run.firstRow)),
      ms(mid(big, (run) => run.firstRow)),
      `${firstRatio.toFixed(2)}x (≤ 1.5x)`,
    ],
    ['DOM nodes, all of the page', String(mid(small, (run) => run.nodes)), String(mid(big, (run) => run.nodes)), '≤ 3,000'],
    ['rows in the page', String(mid(small, (run) => run.rows)), String(mid(big, (run) => run.rows)), ''],
    [
      'longest task, click → settled (worst run)',
      task(worst(small, (run) => run.loadTask)),
      task(worst(big, (run) => run.loadTask)),
      '≤ 100 ms',
    ],
    [
      `search keystroke "${FILTER_KEY}" after "${TYPED_FIRST}" → painted`,
      ms(mid(small, (run) => run.key.ms)),
      ms(mid(big, (run) => run.key.ms)),
      '≤ 50 ms',
    ],
    ['longest task, searching (worst run)', task(worst(small, (run) => run.key.task)), task(worst(big, (run) => run.key.task)), '≤ 100 ms'],
  ]);
  const at = `${name}, ${BIG.toLocaleString('en-US')} panels`;
  ratioGoal('fleet-views', `${at}: first row vs ${SMALL}`, firstRatio, 1.5);
  countGoal(
    'fleet-views',
    `${at}: DOM nodes`,
    mid(big, (run) => run.nodes),
    3000,
  );
  timeGoal(
    'fleet-views',
    `${at}: longest task from the click`,
    worst(big, (run) => run.loadTask),
    100,
  );
  timeGoal(
    'fleet-views',
    `${at}: search keystroke`,
    mid(big, (run) => run.key.ms),
    50,
  );
}
