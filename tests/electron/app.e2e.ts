import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { methodNames } from '../../shared/methods.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../reference-panel/server.ts';
import { findElectronBinary } from './electron-binary.ts';

/**
 * The happy path in the real app: built main, preload and renderer in Electron, against the
 * reference panel.
 *
 * It launches the development Electron from node_modules/electron, which is unfused: Playwright's
 * `_electron` drives the app through the Node inspector (`--inspect`), which the packaged app
 * refuses (its EnableNodeCliInspectArguments fuse is off, see scripts/after-pack.ts). The fuses
 * themselves are tested by tests/fuses.test.ts against a synthetic binary.
 */
const binary = findElectronBinary();
test.skip('missing' in binary, `SKIPPED: ${'missing' in binary ? binary.missing : ''}`);

const projectRoot = join(import.meta.dirname, '..', '..');
let panel: ReferencePanel;
let userData: string;

test.beforeAll(async () => {
  panel = await startReferencePanel();
  userData = await mkdtemp(join(tmpdir(), 'paneldeck-electron-'));
});
test.afterAll(async () => {
  await panel?.close();
  if (userData) await rm(userData, { recursive: true, force: true });
});

async function launch(): Promise<{ app: ElectronApplication; window: Page }> {
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

test('add a panel, log in, read the session, restart still signed in; the page has no Node and only the contract', async () => {
  const first = await launch();
  const { window } = first;
  expect(window.url()).toBe('app://paneldeck/index.html');
  await expect(window.getByRole('heading', { name: 'Add your first panel' })).toBeVisible();

  const exposed = await window.evaluate(() => ({
    api: Object.keys((window as unknown as { panelApi?: object }).panelApi ?? {}).sort(),
    require: typeof (globalThis as Record<string, unknown>).require,
    process: typeof (globalThis as Record<string, unknown>).process,
    // Refused by the URL check (credentials in it), so no system browser opens during the test.
    opened: window.open('https://user:pass@example.com') === null,
  }));
  expect(exposed).toEqual({ api: [...methodNames].sort(), require: 'undefined', process: 'undefined', opened: true });

  await window.getByRole('button', { name: 'Add panel' }).last().click();
  await window.getByLabel('Address').fill(panel.url);
  await window.getByLabel('Address').press('Enter');
  await window.getByLabel('Email').fill(DEMO_USER.email);
  await window.getByLabel('Password').fill(DEMO_USER.password);
  await window.getByRole('button', { name: 'Log in' }).last().click();
  await expect(window.locator('dl.summary')).toContainText(DEMO_USER.email);
  const keptInMemory = await window.getByText('no secure storage on this system').isVisible();
  await first.app.close();

  const second = await launch();
  const list = second.window.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem');
  await expect(list).toHaveCount(1);
  // Without a keyring (basic_text) the token is memory-only by design, so the restart signs out.
  await expect(list.first()).toContainText(keptInMemory ? 'Signed out' : 'Signed in');
  await second.app.close();
});
