/**
 * What the benches that drive Chromium share (session-render.ts, fleet-board.ts): the system's
 * Chromium launched as the browser tests launch it. Medians and tables: figures.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { wrapPreload } from '../tests/browser/app-harness.ts';
import { chromiumLaunchOptions } from '../tests/browser/chromium.ts';

/** Headless Chromium with the browser tests' executable and flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}

/** What a bench's fake main answers, by IPC channel, in the page. */
export type BenchAnswers = Partial<Record<string, (args: unknown[]) => Promise<unknown>>>;

/**
 * Runs in the page before the preload (page.addInitScript): the 'electron' the preload requires,
 * whose `invoke` asks the answers a bench's own init script puts in `window.__benchAnswers`. Main
 * sends no events in the benches.
 */
export function installBenchElectron(): void {
  const page = window as unknown as { __benchAnswers?: BenchAnswers };
  Object.defineProperty(window, '__benchElectron', {
    value: {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => Object.defineProperty(window, key, { value: api }) },
      ipcRenderer: {
        invoke: async (channel: string, ...args: unknown[]) => {
          const answer = page.__benchAnswers?.[channel];
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

/** dist/preload/preload.cjs wrapped so that it runs in the page with the bench's fake main as 'electron'. */
export async function preloadInPage(dist: string): Promise<string> {
  const bundle = await readFile(join(dist, 'preload', 'preload.cjs'), 'utf8');
  return `(() => {\n${wrapPreload(bundle, 'window.__benchElectron')}\n})();`;
}
