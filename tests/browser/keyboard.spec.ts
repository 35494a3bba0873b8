import { readFile } from 'node:fs/promises';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';

/**
 * Keyboard first: from an empty window to a panel's session and a check of all panels without
 * the mouse, and the command palette (Ctrl+K) jumping to a panel and running commands.
 */

test('keyboard only: add, log in, the session heading, refresh, check all, find, and the palette', async ({
  page,
  launch,
  panelServer,
}) => {
  const app = await launch(page);
  const called = (channel: string) => app.calls.filter((call) => call === `panelApi:${channel}`).length;

  // Ctrl+N: Add panel, with the cursor in Address (once the window has drawn itself).
  await expect(page.getByRole('heading', { name: 'Add your first panel' })).toBeVisible();
  await page.keyboard.press('Control+n');
  const dialog = page.getByRole('dialog', { name: 'Add panel' });
  await expect(dialog.getByLabel('Address')).toBeFocused();
  await page.keyboard.type(panelServer.url);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // The new panel's form has the cursor; Enter logs in; the cursor goes to the session's heading.
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(demo.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(demo.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Session', level: 2 })).toBeFocused();
  await expect(page.locator('dl.summary')).toContainText(demo.email);
  await checkScreen(page, '50-keyboard-logged-in');

  // Copy as curl from the palette: the session read for a terminal, with $PANEL_TOKEN, never the token.
  await page.context().grantPermissions(['clipboard-read'], { origin: new URL(page.url()).origin });
  await page.keyboard.press('Control+k');
  await page.keyboard.type('curl');
  await page.keyboard.press('Enter');
  // It says where a token for it comes from, since Paneldeck never shows the panel's own (issue 22, item 15).
  await expect(page.locator('.copy-status')).toContainText('set PANEL_TOKEN');
  await expect(page.locator('.copy-status')).toContainText('an API token made in Easypanel (Settings, Users, API token)');
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain(`'${panelServer.url}/api/getSession'`);
  expect(curl).toContain('Bearer $PANEL_TOKEN');
  for (const token of panelServer.issuedTokens()) expect(curl).not.toContain(token);

  // Open dashboard: a new window for the panel's origin, which the app hands to the system browser.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('dashboard');
  const [dashboard] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
  expect(dashboard.url()).toBe(`${panelServer.url}/`);
  await dashboard.close();

  // F5 and Ctrl+R read the session again; Ctrl+Shift+R checks every panel.
  const reads = called('getSession');
  await page.keyboard.press('F5');
  await expect.poll(() => called('getSession')).toBe(reads + 1);
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await page.keyboard.press('Control+r');
  await expect.poll(() => called('getSession')).toBe(reads + 2);
  await page.keyboard.press('Control+Shift+R');
  await expect.poll(() => called('checkPanels')).toBe(1);

  // Ctrl+F: the search box.
  await page.keyboard.press('Control+f');
  await expect(page.getByRole('searchbox', { name: 'Find panels' })).toBeFocused();
  await page.keyboard.press('Escape');

  // Ctrl+K: jump to another panel by name.
  await app.core.addPanel({ address: 'staging.example.com', name: 'Staging EU' });
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const input = palette.getByRole('combobox', { name: 'Jump to a panel or run a command' });
  await expect(input).toBeFocused();
  await checkScreen(page, '51-command-palette');
  await page.keyboard.type('staging');
  await expect(palette.getByRole('option', { name: /Staging EU/ })).toBeVisible();
  await checkScreen(page, '52-command-palette-panel');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Staging EU');

  // A command with its shortcut shown; Remove asks first, with Cancel focused.
  await page.keyboard.press('Control+k');
  await expect(palette.getByRole('option', { name: /Check all panels/ })).toContainText('Ctrl+Shift+R');
  await page.keyboard.type('remove');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Remove Staging EU?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  expect((await app.core.listPanels()).map((panel) => panel.name).sort()).toEqual(['Staging EU', panelServer.url]);
});

test('Preferences (Ctrl+,): theme, request timeout and a default email for new panels', async ({ page, launch }) => {
  const app = await launch(page);
  await expect(page.getByRole('heading', { name: 'Add your first panel' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.getByRole('button', { name: 'Preferences' })).toBeEnabled();
  await page.keyboard.press('Control+,');
  const preferences = page.getByRole('dialog', { name: 'Preferences' });
  await preferences.getByLabel('Request timeout').fill('30');
  await preferences.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(preferences.getByRole('status').first()).toHaveText('Saved.');
  await preferences.getByLabel('Theme').selectOption('dark');
  await preferences.getByLabel('Default email').fill('not-an-email');
  await preferences.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(preferences.getByText('Default email must look like name@example.com.')).toBeVisible();
  await preferences.getByLabel('Default email').fill('ops@example.com');
  await preferences.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await checkScreen(page, '53-preferences-dark');
  await preferences.getByRole('button', { name: 'Done' }).click();

  const settings = (await app.core.getAppStatus()).settings;
  expect([settings.requestTimeoutSeconds, settings.theme, settings.defaultEmail]).toEqual([30, 'dark', 'ops@example.com']);
  await app.core.addPanel({ address: 'new.example.com', name: 'New' });
  await page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem', { name: /New/ }).click();
  await expect(page.getByRole('form', { name: 'Log in to New' }).getByLabel('Email')).toHaveValue('ops@example.com');
  await checkScreen(page, '54-dark-by-choice');
});

test("Export panels from the palette: the save dialog is main's, and the window says where the file went", async ({
  page,
  launch,
}, testInfo) => {
  const target = testInfo.outputPath('exported-panels.json');
  const offered: string[] = [];
  const app = await launch(page, {
    core: {
      chooseExportFile: async (name: string) => {
        offered.push(name);
        return target;
      },
    },
  });
  await app.core.addPanel({ address: 'one.example.com', name: 'One', group: 'Acme' });
  await app.core.addPanel({ address: 'two.example.com', name: 'Two' });
  await expect(page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem', { name: /Two/ })).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.keyboard.type('export');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Exported 2 panels to' })).toContainText(target);
  await checkScreen(page, '55-exported');
  expect(offered).toHaveLength(1);
  const exported = JSON.parse(await readFile(target, 'utf8')) as { format: string; panels: { name: string; group: string | null }[] };
  expect(exported.format).toBe('paneldeck.panels');
  expect(exported.panels.map((panel) => [panel.name, panel.group])).toEqual([
    ['One', 'Acme'],
    ['Two', null],
  ]);
});
