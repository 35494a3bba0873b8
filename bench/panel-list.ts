/**
 * The panel list (panel-list-pane.tsx, list-layout.tsx, panel-list-rows.ts) at fleet scale, each
 * figure against a baseline measured in the same run:
 *
 *   npm run build && node --experimental-strip-types bench/panel-list.ts      (npm run bench:panel-list)
 *
 *   1. Time to the first row visible, 10,000 panels vs 10: from the moment listPanels' answer
 *      reaches the page (the renderer's share), and from the start of the page load.
 *   2. DOM nodes with 10,000 panels (document.querySelectorAll('*')), vs 10.
 *   3. The longest task (Long Tasks API: only tasks over 50 ms are reported) while loading,
 *      while scrolling the list from top to bottom and while filtering, 10,000 vs 10.
 *   4. One filter keystroke ("p") in the search box, from the keydown to the painted frame that
 *      shows the filtered list, 10,000 vs 10. The first search of a page builds each panel's
 *      search text, so clearing it with Esc and typing the same key again are timed too.
 *   5. Clicking a row until the heading (h1) shows that panel's name, 10,000 vs 10.
 *   6. The renderer's first bundle gzipped (what runs before the first screen; the views opened
 *      later are chunks of their own) vs React and ReactDOM alone, built by the same Vite and
 *      gzipped the same way; all of dist/renderer/assets/*.js is printed beside it.
 *
 * It opens the built renderer (it builds nothing) served as the browser tests serve it, in the
 * system's headless Chromium. The real preload bundle (dist/preload/preload.cjs) runs in the page
 * and builds window.panelApi with the real bridge, but its `ipcRenderer` is a fake main inside
 * the page: it answers listPanels with N panels built in the page (mixed states: signed in with a
 * good check and a session end, failing check, expired, signed out; "Client 00042 prod", one
 * address each; not in name order), one task later as IPC would, so no figure counts main, files
 * or the Playwright wire. The list is structured-cloned in a task of its own first, as a stand-in
 * for IPC's copy into the page; that copy is printed apart, counted only "from page load start"
 * and left out of the longest tasks.
 *
 * Each run is a fresh page: load, filter (key, Esc, key, Esc), select a row, scroll to the bottom.
 * Medians of BENCH_RUNS runs (default 5) after one warm-up run of each size, the order of the two
 * sizes alternating. Times vary with the machine: compare the ratios. It asserts nothing.
 *
 * BENCH_PANEL_LIST_LAYOUT=table (npm run bench:table-layout) measures the same figures in the fleet
 * table (table-layout.tsx) instead of the compact list: its rows, its grid, its name cells. Either
 * way the fake main answers getFleetState with a state for every signed-in panel (services down
 * on one in fifty, disks from 20 to 99 %), as the app has it after a check.
 */
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { build, type Rollup } from 'vite';
import { DEFAULT_SETTINGS } from '../shared/settings.ts';
import type { AppStatus, Panel } from '../shared/types.ts';
import { startRendererServer } from '../tests/browser/app-harness.ts';
import { FIRST_BUNDLE_LIMIT_BYTES, firstBundle, gzippedTotal } from '../tests/support/first-bundle.ts';
import { samplePanel } from '../tests/support/panel-fixture.ts';
import { type BenchAnswers, type BenchWindow, installBenchElectron } from './bench-page.ts';
import { launchChromium, preloadInPage } from './browser.ts';
import { median, printTable } from './figures.ts';
import { goal } from './goals.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const SMALL = 10;
const BIG = 10_000;
/**
 * What is typed in the search box: one character that keeps about a third of the big fleet (the
 * "prod" third: a word must start with it since issue 22, and "7" starts none of the names).
 */
const FILTER_KEY = 'p';
/** After the first row, loading goes on this long (the selected panel's view, its session read). */
const LOAD_SETTLE_MS = 300;
/** Scrolling top to bottom takes about this many frames, whatever the list's length. */
const SCROLL_FRAMES = 300;

/**
 * The list and its panel rows: a listbox of options, or a tree of items where panels are grouped
 * (sections are tree items too, so rows are told by their class).
 */
const LAYOUT = process.env.BENCH_PANEL_LIST_LAYOUT === 'table' ? 'table' : 'list';
const LIST =
  LAYOUT === 'table' ? '[role="grid"][aria-label="Panel table"]' : '[aria-label="Panel list"]:is([role="listbox"], [role="tree"])';
const ROW = LAYOUT === 'table' ? '.fleet-row[role="row"]' : '.panel-item:is([role="option"], [role="treeitem"])';
/** Where a row says its panel's name. */
const NAME = LAYOUT === 'table' ? '.col-name' : '.panel-item-name';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');

// ---------------------------------------------------------------------------------------------
// In the page. These functions are serialised into the page (Playwright sends their source), so
// they use nothing from this module but types.

interface FakeMainSetup {
  count: number;
  /** What a panel row is (ROW). */
  row: string;
  /** A panel as listPanels gives it (tests/support/panel-fixture.ts), so new fields come along. */
  template: Panel;
  status: AppStatus;
}

interface LongTask {
  start: number;
  duration: number;
}

/** What the page keeps for the bench, as `window.__panelList`. */
interface PanelListProbe {
  /** When listPanels' answer was handed to the page (performance.now()). */
  answeredAt: number | null;
  /** When the stand-in for IPC's copy of the list ran: its task is the harness's, not the renderer's. */
  copy: { start: number; end: number } | null;
  /** When the first row had been committed and a frame had gone by. */
  firstRowAt: number | null;
  longTasks: LongTask[];
  /** Reads the Long Tasks entries not delivered yet. */
  flush(): void;
  /** The measurement armed by `arm`, settled once the page showed its result. */
  pending?: Promise<Timed>;
}

interface Timed {
  /** The trigger event's timeStamp: when the input reached the page, however busy it was. */
  start: number;
  /** When the change was seen in the page (the commit). */
  committed: number;
  /** A frame after the commit: laid out and painted. */
  end: number;
  /** Panel rows in the page. */
  rows: number;
  matches: string;
}

type PanelListWindow = Window & { __panelList: PanelListProbe };

/** Runs first in the page: builds the fleet, the fake main and the probes. */
function installFakeMain(setup: FakeMainSetup): void {
  const page = window as unknown as PanelListWindow;
  const now = Date.now();
  const minute = 60_000;
  const iso = (time: number) => new Date(time).toISOString();
  const stages = ['prod', 'staging', 'dev'];
  const panels: Panel[] = [];
  for (let position = 0; position < setup.count; position++) {
    // Listed in the order they were added, which is not the order of their names: a stride prime
    // to the count visits every number once, out of order.
    const index = (position * 7919) % setup.count;
    const number = String(index).padStart(5, '0');
    const stage = stages[index % stages.length]!;
    const address = `client-${number}.${stage}.example.net`;
    const checkedAt = iso(now - (index % 90) * minute);
    const base: Panel = {
      ...setup.template,
      id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
      name: `Client ${number} ${stage}`,
      address,
      baseUrl: `https://${address}/api`,
      lastEmail: `ops@client-${number}.example.net`,
    };
    // Of every 20: 12 signed in and fine, 3 failing their last check, 3 expired, 2 signed out.
    const slot = index % 20;
    const signedIn = { signedIn: true, tokenStorage: 'keyring' as const, sessionExpiresAt: iso(now + (5 + (index % 600)) * minute) };
    if (slot < 12) panels.push({ ...base, ...signedIn, lastCheck: { at: checkedAt, ok: true } });
    else if (slot < 15)
      panels.push({
        ...base,
        ...signedIn,
        lastCheck: { at: checkedAt, ok: false, error: { code: 'TIMEOUT', message: 'The panel did not answer within 15 seconds.' } },
      });
    else if (slot < 18) {
      const ended = { code: 'UNAUTHORIZED' as const, message: 'The panel ended the session. Log in again.' };
      panels.push({
        ...base,
        signedIn: false,
        tokenStorage: null,
        signedOutReason: ended,
        lastCheck: { at: checkedAt, ok: false, error: ended },
      });
    } else panels.push({ ...base, signedIn: false, tokenStorage: null });
  }
  const health = panels
    .filter((panel) => panel.signedIn)
    .map((panel, index) => ({
      panelId: panel.id,
      readAt: iso(now - minute),
      servicesDown: index % 50 === 0 ? 2 : 0,
      downServices: index % 50 === 0 ? ['shop/web', 'shop/api'] : [],
      services: { running: 10 },
      cpuPercent: index % 100,
      memory: { usedMb: 1000 + (index % 3000), totalMb: 4096 },
      disk: { usedGb: 20 + (index % 80), totalGb: 100 },
      version: `2.3${index % 4}.1`,
      problem: null,
    }));

  let observer: PerformanceObserver | null = null;
  const probe: PanelListProbe = {
    answeredAt: null,
    copy: null,
    firstRowAt: null,
    longTasks: [],
    flush: () => {
      for (const entry of observer?.takeRecords() ?? []) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
    },
  };
  observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ type: 'longtask', buffered: true });
  Object.defineProperty(page, '__panelList', { value: probe });

  // The first row: committed (a mutation), then laid out and painted (a frame, then a task).
  const rows = new MutationObserver(() => {
    if (!document.querySelector(setup.row)) return;
    rows.disconnect();
    requestAnimationFrame(() => setTimeout(() => (probe.firstRowAt = performance.now()), 0));
  });
  rows.observe(document, { childList: true, subtree: true });

  const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  /** `value`, a task later, as main's answers arrive. */
  const after = async <T>(value: T): Promise<T> => {
    await nextTask();
    return value;
  };
  const answers: BenchAnswers = {
    'panelApi:listPanels': async () => {
      await nextTask();
      const started = performance.now();
      const copy = structuredClone(panels);
      probe.copy = { start: started, end: performance.now() };
      await nextTask();
      probe.answeredAt = performance.now();
      return copy;
    },
    'panelApi:getAppStatus': async () => after(setup.status),
    'panelApi:getFleetState': async () => after(health),
    'panelApi:updateSettings': async ([patch]) => after({ ...setup.status, settings: { ...setup.status.settings, ...(patch as object) } }),
    'panelApi:getCachedSession': async () => after(null),
    'panelApi:getSession': async ([id]) =>
      after({ panelId: id, checkedAt: new Date().toISOString(), session: { user: { email: 'ops@example.net' } } }),
  };
  // Over the common answers of bench-page.ts's stand-in, installed before this.
  Object.assign((page as unknown as BenchWindow).__benchAnswers, answers);
}

/**
 * Arms a measurement: it starts at the next `trigger` event the window gets (its timeStamp) and
 * ends one frame after the first change of text or elements under `watch` that leaves `title`
 * in the panel's heading (any change when `title` is null).
 */
function arm({ trigger, watch, title, row }: { trigger: 'keydown' | 'click'; watch: string; title: string | null; row: string }): void {
  const probe = (window as unknown as PanelListWindow).__panelList;
  const target = document.querySelector(watch);
  if (!target) throw new Error(`nothing matches ${watch}`);
  probe.pending = new Promise<Timed>((resolve) => {
    let start: number | null = null;
    window.addEventListener(trigger, (event) => (start = Math.min(event.timeStamp, performance.now())), { capture: true, once: true });
    const changes = new MutationObserver(() => {
      if (start === null) return;
      if (title !== null && document.querySelector('h1#panel-title')?.textContent !== title) return;
      changes.disconnect();
      const began = start;
      const committed = performance.now();
      requestAnimationFrame(() =>
        setTimeout(() => {
          const matches = document.querySelector('.fleet-matches')?.textContent ?? '';
          resolve({ start: began, committed, end: performance.now(), rows: document.querySelectorAll(row).length, matches });
        }, 0),
      );
    });
    // Attributes are left out: a controlled input's value attribute changes with each key.
    changes.observe(target, { childList: true, characterData: true, subtree: true });
  });
}

interface Scrolled {
  start: number;
  end: number;
  frames: number;
  longestFrame: number;
  /** The list was scrolled to its end. */
  atBottom: boolean;
  /** The name of the lowest row in the page at the end. */
  lastRow: string;
  nodes: number;
}

/** Scrolls the panel list from top to bottom in about `frames` frames, one step a frame. */
async function scrollList({
  frames,
  list: listSelector,
  row,
  name,
}: {
  frames: number;
  list: string;
  row: string;
  name: string;
}): Promise<Scrolled> {
  const list = document.querySelector<HTMLElement>(listSelector);
  if (!list) throw new Error('no panel list');
  const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
  list.scrollTop = 0;
  await frame();
  const step = Math.max(list.clientHeight, (list.scrollHeight - list.clientHeight) / frames);
  const start = performance.now();
  let last = start;
  let longestFrame = 0;
  let count = 0;
  while (list.scrollTop + list.clientHeight < list.scrollHeight - 1 && count < frames * 3) {
    list.scrollTop += step;
    const at = await frame();
    longestFrame = Math.max(longestFrame, at - last);
    last = at;
    count++;
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const end = performance.now();
  const lowest = [...list.querySelectorAll<HTMLElement>(row)].sort(
    (a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top,
  )[0];
  return {
    start,
    end,
    frames: count,
    longestFrame,
    atBottom: list.scrollTop + list.clientHeight >= list.scrollHeight - 1,
    lastRow: lowest?.querySelector(name)?.textContent ?? '',
    nodes: document.querySelectorAll('*').length,
  };
}

/**
 * The longest Long Tasks entry overlapping [from, to], 0 when none (none over 50 ms). The task of
 * the fake main's copy of the list is left out: it stands for IPC, not for the renderer's work.
 */
function longestTask({ from, to }: { from: number; to: number }): number {
  const probe = (window as unknown as PanelListWindow).__panelList;
  probe.flush();
  const copy = probe.copy;
  const overlaps = (task: LongTask, start: number, end: number) => task.start < end && task.start + task.duration > start;
  const tasks = probe.longTasks.filter((task) => overlaps(task, from, to) && !(copy && overlaps(task, copy.start, copy.end)));
  return Math.max(0, ...tasks.map((task) => task.duration));
}

// ---------------------------------------------------------------------------------------------
// In Node

interface Run {
  /** listPanels answered → first row visible. */
  firstRow: number;
  /** Page load start → first row visible. */
  fromLoadStart: number;
  copyMs: number;
  nodes: number;
  /** The whole load, the bundle's start included. */
  loadTask: number;
  /** From listPanels' answer on: the fleet's share of the load. */
  answerTask: number;
  filterMs: number;
  /** keydown → the filtered rows committed (the rest is layout, paint and the wait for a frame). */
  filterCommitMs: number;
  filterRows: string;
  clearMs: number;
  /** The same key again: the search texts are built by then. */
  againMs: number;
  filterTask: number;
  selectMs: number;
  selectCommitMs: number;
  selectTask: number;
  scroll: Scrolled;
  scrollTask: number;
  errors: string[];
}

/** Times `act` with `arm`, then reads the longest task of that stretch once it was reported. */
async function timed(page: Page, armed: Parameters<typeof arm>[0], act: () => Promise<void>): Promise<Timed & { task: number }> {
  await page.evaluate(arm, armed);
  await act();
  // A change that never shows would wait for ever: after 30 s, say which, with what the page shows.
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no change seen 30 s after a ${armed.trigger} (waiting for ${armed.title ?? 'any change'})`)),
      30_000,
    );
  });
  const result = await Promise.race([page.evaluate(() => (window as unknown as PanelListWindow).__panelList.pending!), stuck]).catch(
    async (error: unknown) => {
      const shown = await page.evaluate(() => ({
        focus: `${document.activeElement?.tagName}.${document.activeElement?.className} ${document.activeElement?.getAttribute('aria-label')}`,
        heading: document.querySelector('h1#panel-title')?.textContent,
        matches: document.querySelector('.fleet-matches')?.textContent,
      }));
      throw new Error(`${error instanceof Error ? error.message : String(error)}: ${JSON.stringify(shown)}`);
    },
  );
  clearTimeout(timer);
  await page.waitForTimeout(100);
  return { ...result, task: await page.evaluate(longestTask, { from: result.start, to: result.end }) };
}

async function oneRun(browser: Browser, rendererUrl: string, preload: string, count: number): Promise<Run> {
  const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    const status: AppStatus = {
      settings: { ...DEFAULT_SETTINGS, panelList: { ...DEFAULT_SETTINGS.panelList, layout: LAYOUT } },
      tokenProtection: { level: 'keyring', backend: 'gnome_libsecret' },
      startupProblems: [],
    };
    await page.addInitScript(installBenchElectron, { panel: samplePanel(0), status });
    await page.addInitScript(installFakeMain, { count, row: ROW, template: samplePanel(0), status } satisfies FakeMainSetup);
    await page.addInitScript({ content: preload });
    // BENCH_PROFILE=<prefix>: CPU profiles of each 10,000-panel page (the last one is kept), one file per stage
    // (<prefix>.load.cpuprofile up to the first row, then .filter, .select, .scroll), for finding what each costs.
    const profiler = process.env.BENCH_PROFILE && count === BIG ? await stageProfiler(page, process.env.BENCH_PROFILE) : null;
    await profiler?.start();
    await page.goto(rendererUrl);

    // 1-3. Loading.
    await page.waitForFunction(() => (window as unknown as PanelListWindow).__panelList.firstRowAt !== null, undefined, {
      timeout: 60_000,
    });
    await profiler?.stop('load');
    await page.waitForTimeout(LOAD_SETTLE_MS);
    const load = await page.evaluate(() => {
      const probe = (window as unknown as PanelListWindow).__panelList;
      const copyMs = probe.copy ? probe.copy.end - probe.copy.start : NaN;
      return {
        answeredAt: probe.answeredAt ?? NaN,
        firstRowAt: probe.firstRowAt ?? NaN,
        copyMs,
        nodes: document.querySelectorAll('*').length,
      };
    });
    const loadTask = await page.evaluate(longestTask, { from: 0, to: load.firstRowAt + LOAD_SETTLE_MS });
    const answerTask = await page.evaluate(longestTask, { from: load.answeredAt, to: load.firstRowAt + LOAD_SETTLE_MS });

    // 3-4. Filtering: a key, Esc, the same key again (search texts built by then), Esc.
    await profiler?.start();
    await page.getByRole('searchbox', { name: 'Find panels' }).focus();
    const filter = await timed(page, { trigger: 'keydown', watch: 'nav.panel-list-pane', title: null, row: ROW }, () =>
      page.keyboard.press(FILTER_KEY),
    );
    const clear = await timed(page, { trigger: 'keydown', watch: 'nav.panel-list-pane', title: null, row: ROW }, () =>
      page.keyboard.press('Escape'),
    );
    const again = await timed(page, { trigger: 'keydown', watch: 'nav.panel-list-pane', title: null, row: ROW }, () =>
      page.keyboard.press(FILTER_KEY),
    );
    const cleared = await timed(page, { trigger: 'keydown', watch: 'nav.panel-list-pane', title: null, row: ROW }, () =>
      page.keyboard.press('Escape'),
    );

    await profiler?.stop('filter');

    // 5. Selecting the third row.
    await profiler?.start();
    const row = page.locator(LIST).locator(ROW).nth(2);
    const name = await row.locator(NAME).textContent();
    // On its name: a table row's middle may be its Mute button, which the columns' widths move.
    const select = await timed(page, { trigger: 'click', watch: 'main.content', title: name, row: ROW }, () => row.locator(NAME).click());

    await profiler?.stop('select');

    // 3. Scrolling.
    await profiler?.start();
    const scroll = await page.evaluate(scrollList, { frames: SCROLL_FRAMES, list: LIST, row: ROW, name: NAME });
    await profiler?.stop('scroll');
    await page.waitForTimeout(100);
    const scrollTask = await page.evaluate(longestTask, { from: scroll.start, to: scroll.end });

    return {
      firstRow: load.firstRowAt - load.answeredAt,
      fromLoadStart: load.firstRowAt,
      copyMs: load.copyMs,
      nodes: load.nodes,
      loadTask,
      answerTask,
      filterMs: filter.end - filter.start,
      filterCommitMs: filter.committed - filter.start,
      filterRows: filter.matches,
      clearMs: clear.end - clear.start,
      againMs: again.end - again.start,
      filterTask: Math.max(filter.task, clear.task, again.task, cleared.task),
      selectMs: select.end - select.start,
      selectCommitMs: select.committed - select.start,
      selectTask: select.task,
      scroll,
      scrollTask,
      errors,
    };
  } finally {
    await page.close();
  }
}

/**
 * Starts and stops the page's CPU profiler; each stop writes `<prefix>.<stage>.cpuprofile`. With
 * BENCH_TRACE=1 it records a Chromium trace instead (`<prefix>.<stage>.json`, for the Performance
 * panel): it shows style, layout and paint, which a CPU profile leaves as "(program)".
 */
async function stageProfiler(page: Page, prefix: string): Promise<{ start(): Promise<void>; stop(stage: string): Promise<void> }> {
  const session = await page.context().newCDPSession(page);
  if (process.env.BENCH_TRACE) {
    const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'];
    return {
      start: async () => void (await session.send('Tracing.start', { categories: categories.join(','), transferMode: 'ReturnAsStream' })),
      stop: async (stage) => {
        const done = new Promise<string>((resolve) => session.once('Tracing.tracingComplete', (event) => resolve(event.stream!)));
        await session.send('Tracing.end');
        const stream = await done;
        let text = '';
        for (let chunk = await session.send('IO.read', { handle: stream }); ; chunk = await session.send('IO.read', { handle: stream })) {
          text += chunk.data;
          if (chunk.eof) break;
        }
        await session.send('IO.close', { handle: stream });
        await writeFile(`${prefix}.${stage}.json`, text);
      },
    };
  }
  await session.send('Profiler.enable');
  return {
    start: async () => void (await session.send('Profiler.start')),
    stop: async (stage) => writeFile(`${prefix}.${stage}.cpuprofile`, JSON.stringify((await session.send('Profiler.stop')).profile)),
  };
}

/**
 * Gzipped bytes of the built renderer's scripts, all of them and the first bundle alone (what the
 * window runs before its first screen; tests/support/first-bundle.ts, gzip level 9), and of React +
 * ReactDOM alone built the same way.
 */
async function scriptSizes(): Promise<{ app: number; first: number; react: number; files: number }> {
  const assets = join(dist, 'renderer', 'assets');
  const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  let app = 0;
  for (const name of scripts) app += gzipSync(await readFile(join(assets, name))).length;
  // The floor: an entry that renders one element with React, through Vite with the renderer's target.
  const entry =
    "import { createRoot } from 'react-dom/client'; import { jsx } from 'react/jsx-runtime'; createRoot(document.body).render(jsx('p', { children: 'React' }));";
  const output = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'react-floor',
        resolveId: (id) => (id === 'virtual:react-floor' ? '\0react-floor' : null),
        load: (id) => (id === '\0react-floor' ? entry : null),
      },
    ],
    build: { write: false, target: 'es2023', modulePreload: { polyfill: false }, rollupOptions: { input: 'virtual:react-floor' } },
  });
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((result) => ('output' in result ? result.output : []))
    .filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  const react = chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code).length, 0);
  return { app, first: gzippedTotal(firstBundle(join(dist, 'renderer'))), react, files: scripts.length };
}

/** Says so when a source the build reads is newer than the build: the figures would be of older code. */
function staleBuildWarning(): string | null {
  const built = statSync(join(dist, 'renderer', 'index.html')).mtimeMs;
  const newer: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSyncSafe(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (statSync(path).mtimeMs > built) newer.push(path.slice(root.length + 1));
    }
  };
  for (const dir of ['renderer', 'shared', join('electron', 'preload')]) visit(join(root, dir));
  return newer.length === 0
    ? null
    : `Note: ${newer.length} source file(s) changed since the build (${newer.slice(0, 3).join(', ')}${newer.length > 3 ? ', ...' : ''}): run npm run build for current figures.`;
}

function readdirSyncSafe(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '-');
/** A longest task of 0 means none over the Long Tasks API's 50 ms. */
const task = (value: number) => (value === 0 ? '< 50 ms' : ms(value));
const count = (value: number) => value.toLocaleString('en-US');
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : '-');

async function main(): Promise<void> {
  for (const file of [join(dist, 'renderer', 'index.html'), join(dist, 'preload', 'preload.cjs')]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  const stale = staleBuildWarning();
  if (stale) console.log(stale);
  // Times stretch when other work shares the cores: the load average says how busy the machine was.
  const loadBefore = loadavg()[0]!;
  const renderer = await startRendererServer();
  const browser = await launchChromium();
  const runs = new Map<number, Run[]>([
    [SMALL, []],
    [BIG, []],
  ]);
  try {
    const preload = await preloadInPage(dist);
    for (const size of [SMALL, BIG]) await oneRun(browser, renderer.url, preload, size); // warm-up
    for (let run = 0; run < RUNS; run++) {
      for (const size of run % 2 ? [BIG, SMALL] : [SMALL, BIG]) runs.get(size)!.push(await oneRun(browser, renderer.url, preload, size));
    }
  } finally {
    await browser.close();
    await renderer.close();
  }
  const sizes = await scriptSizes();
  const loadAfter = loadavg()[0]!;

  const small = runs.get(SMALL)!;
  const big = runs.get(BIG)!;
  const mid = (list: Run[], pick: (run: Run) => number) => median(list.map(pick));
  const worst = (list: Run[], pick: (run: Run) => number) => Math.max(...list.map(pick));

  console.log(`\nPanel list (${LAYOUT}), ${count(BIG)} panels vs ${count(SMALL)}, median of ${RUNS} runs (a fresh page each);`);
  console.log(`load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${availableParallelism()} cores\n`);
  const detail: [string, (run: Run) => number, (value: number) => string][] = [
    ['listPanels answered → first row visible', (run) => run.firstRow, ms],
    ['page load start → first row visible', (run) => run.fromLoadStart, ms],
    ['  of which the copy of the list (IPC stand-in)', (run) => run.copyMs, ms],
    ['DOM nodes after loading', (run) => run.nodes, count],
    ['longest task, loading (whole page)', (run) => run.loadTask, task],
    ['longest task, loading (from the answer)', (run) => run.answerTask, task],
    [`key "${FILTER_KEY}" in Find panels → list painted`, (run) => run.filterMs, ms],
    ['  of which key → rows committed', (run) => run.filterCommitMs, ms],
    ['Esc (clear) → list painted', (run) => run.clearMs, ms],
    [`key "${FILTER_KEY}" again (search texts built) → painted`, (run) => run.againMs, ms],
    ['longest task, filtering (keys and Escs)', (run) => run.filterTask, task],
    ['click a row → its name in the heading', (run) => run.selectMs, ms],
    ['  of which click → committed', (run) => run.selectCommitMs, ms],
    ['longest task, selecting', (run) => run.selectTask, task],
    ['scroll to the bottom, frames', (run) => run.scroll.frames, count],
    ['  longest frame while scrolling', (run) => run.scroll.longestFrame, ms],
    ['  DOM nodes at the bottom', (run) => run.scroll.nodes, count],
    ['longest task, scrolling', (run) => run.scrollTask, task],
  ];
  printTable([
    ['', `${count(SMALL)} panels`, `${count(BIG)} panels`, 'ratio', `worst of ${count(BIG)}`],
    ...detail.map(([name, pick, format]) => [
      name,
      format(mid(small, pick)),
      format(mid(big, pick)),
      times(mid(big, pick) / mid(small, pick)),
      format(worst(big, pick)),
    ]),
  ]);
  const lastBig = big.at(-1);
  if (lastBig) {
    const bottom = lastBig.scroll.atBottom
      ? `the end of the list showed "${lastBig.scroll.lastRow}"`
      : 'scrolling did NOT reach the end of the list';
    console.log(`\nWith ${count(BIG)} panels the filter showed "${lastBig.filterRows}"; ${bottom}.`);
  }
  console.log(
    `Renderer scripts: ${sizes.files} file(s), ${kb(sizes.app)} gzipped, ${kb(sizes.first)} of them in the first bundle; React + ReactDOM alone: ${kb(sizes.react)}.`,
  );

  // The summary: each figure, its baseline, and the goal.
  const rows: { figure: string; value: string; baseline: string; ratio: number; goal: string; met: boolean }[] = [];
  const against = (
    figure: string,
    pick: (run: Run) => number,
    format: (value: number) => string,
    goal: string,
    met: (value: number, ratio: number) => boolean,
    baseline = `${count(SMALL)} panels`,
  ) => {
    const value = mid(big, pick);
    const base = mid(small, pick);
    rows.push({
      figure,
      value: format(value),
      baseline: `${format(base)} (${baseline})`,
      ratio: value / base,
      goal,
      met: met(value, value / base),
    });
  };
  against(
    '1. answer → first row',
    (run) => run.firstRow,
    ms,
    '<= 1.5x',
    (_, ratio) => ratio <= 1.5,
  );
  against(
    '1. load start → first row',
    (run) => run.fromLoadStart,
    ms,
    '<= 1.5x',
    (_, ratio) => ratio <= 1.5,
  );
  against(
    '2. DOM nodes',
    (run) => run.nodes,
    count,
    '<= 3,000',
    (value) => value <= 3000,
  );
  against(
    '3. longest task, loading',
    (run) => run.loadTask,
    task,
    '<= 100 ms',
    (value) => value <= 100,
  );
  against(
    '3. ... from the answer',
    (run) => run.answerTask,
    task,
    '<= 100 ms',
    (value) => value <= 100,
  );
  against(
    '3. longest task, scrolling',
    (run) => run.scrollTask,
    task,
    '<= 100 ms',
    (value) => value <= 100,
  );
  against(
    '3. longest task, filtering',
    (run) => run.filterTask,
    task,
    '<= 100 ms',
    (value) => value <= 100,
  );
  against(
    `4. filter keystroke`,
    (run) => run.filterMs,
    ms,
    '<= 50 ms',
    (value) => value <= 50,
  );
  against(
    '5. select a row',
    (run) => run.selectMs,
    ms,
    '<= 50 ms',
    (value) => value <= 50,
  );
  rows.push({
    // The goal is the first bundle's (issue 34): the views opened later load when first opened.
    figure: '6. renderer first bundle gzipped',
    value: kb(sizes.first),
    baseline: `${kb(sizes.react)} (React alone)`,
    ratio: sizes.first / sizes.react,
    goal: '< 150 KiB (153.6 kB)',
    met: sizes.first < FIRST_BUNDLE_LIMIT_BYTES,
  });
  console.log(`\nSummary (value: ${count(BIG)} panels, median of ${RUNS}; a longest task of "< 50 ms" means none was reported)\n`);
  printTable([
    ['figure', 'value', 'baseline', 'ratio', 'goal', 'met'],
    ...rows.map((row) => [row.figure, row.value, row.baseline, times(row.ratio), row.goal, row.met ? 'yes' : 'NO']),
  ]);
  // Each figure as a goal of `npm run bench` (bench/run-all.ts): the list's and the table's apart.
  for (const row of rows) goal(`panel-list (${LAYOUT})`, row.figure, row.goal, `${row.value} (${times(row.ratio)})`, row.met);

  const errors = [...new Set([...small, ...big].flatMap((run) => run.errors))];
  if (errors.length > 0) console.log(`\nThe page reported errors:\n${errors.join('\n')}`);
}

await main();
