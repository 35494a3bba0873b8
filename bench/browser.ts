/**
 * What the benches that drive Chromium share (session-render.ts, panel-list.ts): the system's
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

/** dist/preload/preload.cjs wrapped so that it runs in the page with the bench's fake main as 'electron'. */
export async function preloadInPage(dist: string): Promise<string> {
  const bundle = await readFile(join(dist, 'preload', 'preload.cjs'), 'utf8');
  return `(() => {\n${wrapPreload(bundle, 'window.__benchElectron')}\n})();`;
}
