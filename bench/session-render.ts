/**
 * How long the session view takes to show big answers, against a small one, in one run:
 *
 *   npm run build && node --experimental-strip-types bench/session-render.ts
 *
 * It uses the built renderer (it builds nothing), opened as the browser tests open it, in front
 * of the reference panel, in the system's Chromium. For each shape it clicks Refresh and times,
 * inside the page, until the view has committed and a frame has gone by; "render" is the part
 * after main's answer reached the page. Medians of RUNS runs. Figures vary with the machine:
 * compare the ratios, not the milliseconds.
 */
import type { Page } from '@playwright/test';
import { openApp, startRendererServer } from '../tests/browser/app-harness.ts';
import { tempDir } from '../tests/support/helpers.ts';
import { DEMO_USER, startReferencePanel } from '../tests/support/reference-panel/server.ts';
import { launchChromium } from './browser.ts';
import { median, printTable } from './figures.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function deep(levels: number): unknown {
  let node: unknown = { bottom: 'the deepest value' };
  for (let level = levels; level >= 1; level--) node = { level, next: node };
  return node;
}

/** `undefined` makes the reference panel answer with its usual small session. */
const shapes: { name: string; body: unknown }[] = [
  { name: 'small session (baseline)', body: undefined },
  { name: 'depth 1,000', body: deep(1000) },
  {
    name: '10,000 keys',
    body: Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`item-${index}`, index % 2 ? `value ${index}` : index])),
  },
  {
    name: '1 MiB string',
    body: { user: { email: 'big@example.com' }, blob: 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(30_000).slice(0, 1024 * 1024) },
  },
  {
    name: '1,000 objects in an array',
    body: Array.from({ length: 1000 }, (_, index) => ({
      id: index,
      email: `user${index}@example.com`,
      roles: ['admin'],
      active: index % 2 === 0,
    })),
  },
  { name: 'numbers at the edges', body: { largest: Number.MAX_VALUE, smallest: 5e-324, negativeZero: -0, beyondSafe: 2 ** 53 + 2 } },
];

interface Timing {
  total: number;
  render: number;
  /** Longest main-thread task over 50 ms (the Long Tasks API), 0 when there was none. */
  longestTask: number;
  nodes: number;
}

/** Clicks `button` (by its text, inside the session view) and times until the next painted frame. */
async function timeClick(page: Page, button: string, waitForBusy: boolean): Promise<Timing> {
  return page.evaluate(
    async ({ button, waitForBusy }) => {
      const view = document.querySelector('.session-view');
      const target = Array.from(view?.querySelectorAll('button') ?? []).find((candidate) => candidate.textContent?.trim() === button);
      if (!view || !target) throw new Error(`no "${button}" button in the session view`);
      const clock = window as unknown as { __answerAt?: number };
      clock.__answerAt = undefined;
      // The longest stretch the main thread was busy: how long the window could not answer.
      let longest = 0;
      const tasks = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
      });
      tasks.observe({ type: 'longtask' });
      const start = performance.now();
      await new Promise<void>((resolve) => {
        if (!waitForBusy) {
          // Big openings render as a transition: done when React commits the rows to the list.
          const rows = view.querySelector('.json-rows');
          if (!rows) throw new Error('no tree in the session view');
          const observer = new MutationObserver(() => {
            observer.disconnect();
            resolve();
          });
          observer.observe(rows, { childList: true });
          target.click();
          return;
        }
        // aria-busy goes "true" on the click and "false" in the commit that shows the answer.
        const observer = new MutationObserver(() => {
          if (view.getAttribute('aria-busy') === 'false') {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(view, { attributes: true, attributeFilter: ['aria-busy'] });
        target.click();
      });
      // React commits synchronously for a click; one frame later it has been laid out and painted.
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const end = performance.now();
      for (const entry of tasks.takeRecords()) longest = Math.max(longest, entry.duration);
      tasks.disconnect();
      return {
        total: end - start,
        render: end - (clock.__answerAt ?? start),
        longestTask: longest,
        nodes: document.getElementsByTagName('*').length,
      };
    },
    { button, waitForBusy },
  );
}

async function main(): Promise<void> {
  const panel = await startReferencePanel();
  const renderer = await startRendererServer();
  const data = await tempDir('paneldeck-bench-');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
    const app = await openApp(page, { dataDir: data.path, rendererUrl: renderer.url, rendererOrigin: renderer.origin });
    const added = await app.core.addPanel({ address: panel.url, name: 'Bench' });
    await app.core.logIn(added.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    // Notes when main's answer reaches the page, so the render part can be told from the rest.
    await page.addInitScript(() => {
      const holder = window as unknown as { __paneldeckIpc: (...args: unknown[]) => Promise<unknown>; __answerAt?: number };
      const call = holder.__paneldeckIpc;
      holder.__paneldeckIpc = (...args) =>
        call(...args).then((answer) => {
          holder.__answerAt = performance.now();
          return answer;
        });
    });
    await page.reload();
    await page.locator('.session-view[aria-busy="false"] .json-rows').waitFor();

    const results: { name: string; timing: Timing }[] = [];
    for (const shape of shapes) {
      panel.setSessionBody(shape.body);
      await timeClick(page, 'Refresh', true); // warm-up, and the first answer of this shape
      const runs: Timing[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await timeClick(page, 'Refresh', true));
      const timing = {
        total: median(runs.map((t) => t.total)),
        render: median(runs.map((t) => t.render)),
        longestTask: Math.max(...runs.map((t) => t.longestTask)),
        nodes: runs.at(-1)?.nodes ?? 0,
      };
      results.push({ name: `Refresh: ${shape.name}`, timing });
      // The operator's next steps on the biggest shapes, each from the fresh view.
      const follow = shape.name === 'depth 1,000' ? 'Expand all' : shape.name === '10,000 keys' ? 'Show 1,000 more' : null;
      if (follow) {
        const timing = await timeClick(page, follow, false);
        results.push({ name: `  then ${follow}`, timing: { ...timing, render: timing.total } });
        await timeClick(page, 'Refresh', true);
        if (follow === 'Expand all') await timeClick(page, 'Collapse all', false);
      }
    }

    const baseline = results[0]?.timing.total ?? NaN;
    const table = [
      ['shape', 'total ms', 'render ms', 'x baseline', 'longest task ms', 'DOM nodes'],
      ...results.map(({ name, timing }) => [
        name,
        timing.total.toFixed(1),
        timing.render.toFixed(1),
        (timing.total / baseline).toFixed(2),
        timing.longestTask.toFixed(0),
        String(timing.nodes),
      ]),
    ];
    console.log(`Session view, median of ${RUNS} runs (total: click to painted frame; render: after main's answer arrived;`);
    console.log(`longest task: the longest time the window could not answer, worst run)\n`);
    printTable(table);
    if (app.pageErrors.length > 0) console.log(`\nThe page reported errors:\n${app.pageErrors.join('\n')}`);
  } finally {
    await browser.close();
    await renderer.close();
    await panel.close();
    await data.cleanup();
  }
}

await main();
