import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { DEMO_USER, startReferencePanel, TWO_FACTOR_USER, type ReferencePanel } from '../support/reference-panel/server.ts';
import { addPanel, logIn } from '../browser/ui-steps.ts';
import { launchApp, skipWithoutElectron } from './launch.ts';

/**
 * The fleet features in the real app, where the browser suite cannot go: the menu's shortcuts
 * reaching the window, main's own check pass and its events, two-factor over Electron's network
 * stack, and import and export through the system dialogs (stubbed in main with `evaluate`, the
 * only way to answer a native dialog from a test).
 */
skipWithoutElectron();

let servers: ReferencePanel[] = [];
let guarded: ReferencePanel;
let folder: string;
let opened: ElectronApplication | null = null;

test.beforeAll(async () => {
  servers = await Promise.all([startReferencePanel(), startReferencePanel()]);
  guarded = await startReferencePanel({ users: [TWO_FACTOR_USER] });
  folder = await mkdtemp(join(tmpdir(), 'paneldeck-electron-fleet-'));
});
test.afterAll(async () => {
  await Promise.all([...servers, guarded].map((server) => server?.close()));
  if (folder) await rm(folder, { recursive: true, force: true });
});
test.afterEach(async () => {
  await opened?.close();
  opened = null;
});

/** A fresh data folder per test. */
async function start(name: string): Promise<Page> {
  const { app, window } = await launchApp(join(folder, name));
  opened = app;
  return window;
}

const list = (window: Page) => window.getByRole('navigation', { name: 'Panels' });

test('check all from the keyboard, search, and the palette jump to a panel', async () => {
  const window = await start('fleet');
  await addPanel(window, servers[0]!.url, 'Client A prod');
  await logIn(window);
  await expect(window.locator('dl.summary')).toContainText(DEMO_USER.email);
  await addPanel(window, servers[1]!.url, 'Client B prod');
  await logIn(window);
  await expect(window.locator('dl.summary')).toContainText(DEMO_USER.email);
  await addPanel(window, 'staging.example.com', 'Client C staging');

  // Ctrl+Shift+R is the menu's Check all: the accelerator goes through main's menu to the window.
  servers[1]!.expireAllTokens();
  await window.locator('body').press('Control+Shift+R');
  await expect(list(window).getByLabel('Panels by state')).toContainText('1 signed in');
  await expect(list(window).getByRole('treeitem', { name: /Client B prod/ })).toContainText(/expired|Signed out/i);

  await window.keyboard.press('Control+f');
  await window.keyboard.type('staging');
  await expect(list(window).getByRole('treeitem')).toHaveCount(1);
  await window.keyboard.press('Escape');
  await expect(list(window).getByRole('treeitem')).toHaveCount(3);

  await window.keyboard.press('Control+k');
  await window.keyboard.type('client a');
  await window.keyboard.press('Enter');
  await expect(window.getByRole('heading', { level: 1, name: 'Client A prod' })).toBeVisible();
});

test("two-factor log in over Electron's network stack", async () => {
  const window = await start('two-factor');
  await addPanel(window, guarded.url, 'Guarded');
  await logIn(window, TWO_FACTOR_USER.password, TWO_FACTOR_USER.email);
  const code = window.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  await code.fill(TWO_FACTOR_USER.twoFactorCode ?? '');
  await code.press('Enter');
  await expect(window.locator('dl.summary')).toContainText(TWO_FACTOR_USER.email);
});

test('export through the save dialog, then import through the open dialog with its preview', async () => {
  const window = await start('transfer');
  const exported = join(folder, 'exported.json');
  await addPanel(window, 'one.example.com', 'One');
  await addPanel(window, 'two.example.com', 'Two');
  // The system dialogs answer as an operator would; everything else is the real app.
  await opened!.evaluate(({ dialog }, path) => {
    dialog.showSaveDialog = (async () => ({ canceled: false, filePath: path })) as typeof dialog.showSaveDialog;
    dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [path] })) as typeof dialog.showOpenDialog;
  }, exported);

  await window.keyboard.press('Control+k');
  await window.keyboard.type('export panels');
  await window.keyboard.press('Enter');
  await expect(window.getByRole('status').filter({ hasText: 'Exported 2 panels' })).toBeVisible();
  const file = JSON.parse(await readFile(exported, 'utf8')) as { format: string; panels: { name: string }[] };
  expect([file.format, file.panels.map((panel) => panel.name)]).toEqual(['paneldeck.panels', ['One', 'Two']]);

  // A third panel in the file, and One renamed: the preview says so before anything is written.
  file.panels.push({ ...file.panels[1]!, name: 'Three', address: 'three.example.com' } as { name: string });
  file.panels[0]!.name = 'One renamed';
  await writeFile(exported, JSON.stringify(file));
  await window.keyboard.press('Control+k');
  await window.keyboard.type('import panels');
  await window.keyboard.press('Enter');
  await window.getByRole('dialog', { name: 'Import panels' }).getByRole('button', { name: 'Choose a file…' }).click();
  const preview = window.getByRole('dialog', { name: 'Import from exported.json' });
  await expect(preview.getByRole('status')).toContainText(
    '1 new panel to add · 1 panel already in your list with other settings · 1 already in your list as it is',
  );
  await preview.getByLabel(/Update their settings/).check();
  await preview.getByRole('button', { name: 'Add 1 panel and update 1' }).click();
  await expect(list(window).getByRole('treeitem', { name: /Three/ })).toBeVisible();
  await expect(list(window).getByRole('treeitem', { name: /One renamed/ })).toBeVisible();
});
