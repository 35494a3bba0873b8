import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { methodNames } from '../../shared/contract/methods.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { launchApp, skipWithoutElectron } from './launch.ts';

/** The happy path in the real app: built main, preload and renderer in Electron, against the reference panel. */
skipWithoutElectron();

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

const launch = (): Promise<{ app: ElectronApplication; window: Page }> => launchApp(userData);

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
    opened: (globalThis as unknown as Window).open('https://user:pass@example.com') === null,
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
