/**
 * What the benches that drive Chromium share (session-render.ts, fleet-board.ts): the system's
 * Chromium launched as the browser tests launch it. Medians and tables: figures.ts.
 */
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../tests/browser/chromium.ts';

/** Headless Chromium with the browser tests' executable and flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}
