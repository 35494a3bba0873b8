import { defineConfig } from '@playwright/test';

/** The real app under Playwright's Electron driver; needs the Electron binary (see electron-binary.ts). */
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../../test-results/electron',
  timeout: 90_000,
  workers: 1,
  reporter: [['list'], ['../browser/summary-reporter.ts']],
});
