import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/browser/chromium.ts';

/**
 * Browser end-to-end tests of the built renderer (`npm run build` first), in the system's
 * Chromium (see tests/browser/chromium.ts).
 */
export default defineConfig({
  testDir: 'tests/browser',
  outputDir: 'test-results/browser',
  // Ceilings, not speeds: npm test runs the browser tests beside the unit tests on two cores, where
  // a 30-panel list or a 1,000-level Expand all takes several times what it takes alone.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./tests/browser/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    viewport: { width: 900, height: 600 },
    launchOptions: chromiumLaunchOptions,
  },
});
