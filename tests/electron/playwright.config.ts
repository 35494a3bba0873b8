import { defineConfig } from '@playwright/test';

/**
 * The real app under Playwright's Electron driver; needs the Electron binary (see scripts/electron-binary.ts).
 * That is the unfused development Electron in node_modules/electron, never a packaged build: the
 * driver works through the Node inspector, which the packaged app's fuses turn off (the fuses are
 * tested by tests/repo/fuses.test.ts against a synthetic binary).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../../test-results/electron',
  timeout: 90_000,
  workers: 1,
  reporter: [['list'], ['../browser/summary-reporter.ts']],
});
