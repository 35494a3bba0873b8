import { join } from 'node:path';
import { _electron as electron, test, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary } from '../../scripts/electron-binary.ts';

/**
 * Starting the real app for the Electron suites. It launches the development Electron from
 * node_modules/electron, which is unfused: Playwright's `_electron` drives the app through the
 * Node inspector (`--inspect`), which the packaged app refuses (its EnableNodeCliInspectArguments
 * fuse is off, see scripts/after-pack.ts; hosted CI checks the packaged app's fuses with
 * scripts/check-packaged-app.ts).
 */
const binary = findElectronBinary();

/** Call at the top of a suite file: where there is no binary, every test in it is skipped, loudly. */
export function skipWithoutElectron(): void {
  test.skip('missing' in binary, `SKIPPED: ${'missing' in binary ? binary.missing : ''}`);
}

const projectRoot = join(import.meta.dirname, '..', '..');

/** The built app (npm run build) on the data folder `userData`, and its first window. */
export async function launchApp(userData: string): Promise<{ app: ElectronApplication; window: Page }> {
  if ('missing' in binary) throw new Error(binary.missing);
  const app = await electron.launch({
    executablePath: binary.path,
    // Chromium refuses to start as root (CI) with its sandbox on; the page sandbox is still asked for.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), projectRoot],
    env: { ...process.env, PANELDECK_USER_DATA_DIR: userData },
  });
  const window = await app.firstWindow();
  return { app, window };
}
