import { existsSync } from 'node:fs';
import type { LaunchOptions } from '@playwright/test';

/**
 * How the browser tests and the benches launch Chromium: the system's (Debian's /usr/bin/chromium,
 * or PANELDECK_CHROMIUM), since Playwright's own browser download is not reachable where
 * Paneldeck is built; no sandbox (containers), no GPU, and none of Chromium's own network traffic.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.PANELDECK_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
