import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * Browser end-to-end tests of the built renderer (`npm run build` first). They drive the
 * system's Chromium (Debian's /usr/bin/chromium, or PANELDECK_CHROMIUM): Playwright's own
 * browser download is not reachable where Paneldeck is built.
 */
const chromium = process.env.PANELDECK_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'tests/browser',
  outputDir: 'test-results/browser',
  timeout: 60_000,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./tests/browser/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    viewport: { width: 900, height: 600 },
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
