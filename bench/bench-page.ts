import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { DEFAULT_SETTINGS } from '../shared/settings.ts';
import type { AppStatus, Panel } from '../shared/types.ts';
import { startRendererServer } from '../tests/browser/app-harness.ts';
import { samplePanel } from '../tests/support/panel-fixture.ts';
import { launchChromium, preloadInPage } from './browser.ts';
import { median } from './figures.ts';

/**
 * What the benches that drive the built renderer put in the page (services-tab.ts, build-log.ts):
 * a stand-in for Electron that the real preload bundle is wrapped with (`window.__benchElectron`),
 * answering each IPC channel from the bench's own `window.__benchAnswers`, and the page's long
 * tasks; and, in Node, the built renderer and Chromium they open it in. The page functions are
 * serialised by Playwright, so they use nothing from this module but types.
 */

export interface BenchProbe {
  /** Long tasks (the Long Tasks API reports those over 50 ms). */
  tasks: { start: number; duration: number }[];
  /** Stretches left out of the longest tasks: the copies standing in for IPC's, which are main's and the bridge's work. */
  skips: { start: number; end: number }[];
}

export type BenchAnswers = Record<string, (args: unknown[]) => Promise<unknown>>;
export type BenchWindow = Window & { __benchAnswers: BenchAnswers; __benchProbe: BenchProbe; __benchElectron: unknown };

/**
 * In the page, before its scripts: records long tasks, and answers `ipcRenderer.invoke` from
 * `window.__benchAnswers`, which holds what every bench answers (the panel list of one `panel`,
 * the app status, the session), each a task later as IPC would; a bench adds its own to it.
 */
export function installBenchElectron({ panel, status }: { panel: Panel; status: AppStatus }): void {
  const page = window as unknown as BenchWindow;
  const probe: BenchProbe = { tasks: [], skips: [] };
  Object.defineProperty(page, '__benchProbe', { value: probe });
  const after = async <T>(value: T) => {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    return value;
  };
  const answers: BenchAnswers = {
    'panelApi:listPanels': async () => after([panel]),
    'panelApi:getAppStatus': async () => after(status),
    'panelApi:updateSettings': async () => after(status),
    'panelApi:getCachedSession': async () => after(null),
    'panelApi:getSession': async ([id]) => after({ panelId: id, checkedAt: new Date().toISOString(), session: { userId: 'u1' } }),
  };
  Object.defineProperty(page, '__benchAnswers', { value: answers });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  Object.defineProperty(page, '__benchElectron', {
    value: {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => Object.defineProperty(page, key, { value: api }) },
      ipcRenderer: {
        invoke: async (channel: string, ...args: unknown[]) => {
          const answer = page.__benchAnswers[channel];
          if (!answer) return { ok: false, error: { code: 'INTERNAL', message: `The bench does not answer ${channel}.` } };
          return { ok: true, value: await answer(args) };
        },
        on() {
          return this;
        },
        removeListener() {
          return this;
        },
      },
    },
  });
}

/** In the page: the longest task overlapping [from, to] but those overlapping a skipped stretch; 0 for none over 50 ms. */
export function longestTask({ from, to }: { from: number; to: number }): number {
  const { tasks, skips } = (window as unknown as BenchWindow).__benchProbe;
  const overlaps = (start: number, end: number, a: number, b: number) => start < b && end > a;
  return Math.max(
    0,
    ...tasks
      .filter((task) => overlaps(task.start, task.start + task.duration, from, to))
      .filter((task) => !skips.some((skip) => overlaps(task.start, task.start + task.duration, skip.start, skip.end)))
      .map((task) => task.duration),
  );
}

/** The one signed-in panel the page lists, and the app status it answers with. */
function benchPanelAndStatus(): { panel: Panel; status: AppStatus } {
  return {
    panel: samplePanel(1, {
      name: 'Bench panel',
      signedIn: true,
      tokenStorage: 'keyring',
      lastCheck: { at: new Date().toISOString(), ok: true },
    }),
    status: {
      settings: { ...DEFAULT_SETTINGS },
      tokenProtection: { level: 'keyring', backend: 'gnome_libsecret' },
      startupProblems: [],
    },
  };
}

export interface BenchRenderer {
  url: string;
  browser: Browser;
  /** The real preload bundle, wrapped to take `window.__benchElectron` for `electron`. */
  preload: string;
  close(): Promise<void>;
}

/** The built renderer served and the system's Chromium started; fails when `npm run build` has not been run. */
export async function startBenchRenderer(): Promise<BenchRenderer> {
  const dist = join(import.meta.dirname, '..', 'dist');
  for (const file of [join(dist, 'renderer', 'index.html'), join(dist, 'preload', 'preload.cjs')]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  const renderer = await startRendererServer();
  const browser = await launchChromium();
  const preload = await preloadInPage(dist);
  return {
    url: renderer.url,
    browser,
    preload,
    close: async () => {
      await browser.close();
      await renderer.close();
    },
  };
}

/**
 * A fresh 900x600 page of the renderer: the Electron stand-in, the bench's fake main (`install`
 * run in the page with `setup`), the preload, then the app, its one panel chosen. `errors` collects
 * the page's uncaught errors.
 */
export async function openBenchPage<S>(
  bench: BenchRenderer,
  install: (setup: S) => void,
  setup: S,
): Promise<{ page: Page; errors: string[] }> {
  const page = await bench.browser.newPage({ viewport: { width: 900, height: 600 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(installBenchElectron, benchPanelAndStatus());
  // Playwright types the argument as it arrives after serialising (its `Unboxed`): for the plain data given here, the same.
  await page.addInitScript(install as (arg: unknown) => void, setup as unknown);
  await page.addInitScript({ content: bench.preload });
  await page.goto(bench.url);
  await page
    .getByRole('treeitem', { name: /Bench panel/ })
    .or(page.getByRole('option', { name: /Bench panel/ }))
    .click();
  return { page, errors };
}

/**
 * `oneRun` of a small and a big size in one renderer: a warm-up of each size in `warmUp`, then
 * `rounds` rounds of both, the order alternating so that neither always comes first; the renderer
 * is closed at the end. The runs by size, and the median and worst of a figure over them.
 */
export async function smallAgainstBig<R>(
  bench: BenchRenderer,
  sizes: { small: number; big: number; rounds: number; warmUp: readonly number[] },
  oneRun: (bench: BenchRenderer, size: number) => Promise<R>,
): Promise<{ small: R[]; big: R[]; mid(list: R[], pick: (run: R) => number): number; worst(list: R[], pick: (run: R) => number): number }> {
  const small: R[] = [];
  const big: R[] = [];
  try {
    for (const size of sizes.warmUp) await oneRun(bench, size);
    for (let round = 0; round < sizes.rounds; round++) {
      for (const which of round % 2 ? [big, small] : [small, big])
        which.push(await oneRun(bench, which === small ? sizes.small : sizes.big));
    }
  } finally {
    await bench.close();
  }
  return {
    small,
    big,
    mid: (list, pick) => median(list.map(pick)),
    worst: (list, pick) => Math.max(...list.map(pick)),
  };
}

/** In the page: the next keydown starts a measure that ends a frame after what is in `region` changes. */
function armKey(region: string): void {
  const page = window as unknown as { __keyDone?: Promise<{ start: number; end: number }> };
  const view = document.querySelector(region);
  if (!view) throw new Error(`no ${region}`);
  page.__keyDone = new Promise((resolve) => {
    let start: number | null = null;
    window.addEventListener('keydown', (event) => (start = Math.min(event.timeStamp, performance.now())), { capture: true, once: true });
    const changes = new MutationObserver(() => {
      if (start === null) return;
      changes.disconnect();
      const began = start;
      requestAnimationFrame(() => setTimeout(() => resolve({ start: began, end: performance.now() }), 0));
    });
    // Attributes are left out: the search box's value changes with each key.
    changes.observe(view, { childList: true, characterData: true, subtree: true });
  });
}

/**
 * One key pressed, timed from its keydown to the frame after `region` changed, and the longest task
 * meanwhile. A key that changed nothing would be waited for for ever: after 10 s it is not measured (NaN).
 */
export async function timedKey(page: Page, region: string, key: string): Promise<{ ms: number; task: number }> {
  await page.evaluate(armKey, region);
  await page.keyboard.press(key);
  const { start, end } = await page.evaluate(() =>
    Promise.race([
      (window as unknown as { __keyDone: Promise<{ start: number; end: number }> }).__keyDone,
      new Promise<{ start: number; end: number }>((resolve) => setTimeout(() => resolve({ start: 0, end: Number.NaN }), 10_000)),
    ]),
  );
  await page.waitForTimeout(150);
  return { ms: end - start, task: await page.evaluate(longestTask, { from: start, to: end + 100 }) };
}
