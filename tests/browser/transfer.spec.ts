import { readFile, truncate, writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';

/**
 * Panels in and out of the window: import with its preview, the row menu (right click and the
 * context-menu key), Duplicate, and several panels selected at once with their bulk actions.
 */

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const row = (page: Page, name: RegExp) => panelList(page).getByRole('treeitem', { name });
const palette = async (page: Page, command: string) => {
  await page.keyboard.press('Control+k');
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
};

test('Import pasted CSV: a preview with invalid lines, duplicates and what would change; nothing written until confirmed', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  await app.core.addPanel({ address: 'known.example.com', name: 'Known', group: 'Old' });
  await expect(row(page, /Known/)).toBeVisible();
  await palette(page, 'import');
  const dialog = page.getByRole('dialog', { name: 'Import panels' });
  const csv = [
    'name,address,group,tags',
    'Alpha,alpha.example.com,Acme,"eu, db"',
    'Beta,beta.example.com,Acme,',
    'Known again,known.example.com,New,',
    'Broken,http://plain.example.com,,',
    'Gamma,gamma.example.com,,',
    'Alpha twice,alpha.example.com,,',
  ].join('\n');
  await dialog.getByLabel('Or paste them here').fill(csv);
  await dialog.getByRole('button', { name: 'Preview pasted text' }).click();

  const preview = page.getByRole('dialog', { name: 'Import from pasted text' });
  await expect(preview.getByRole('status')).toHaveText(
    'Read as CSV: 3 new panels to add · 1 panel already in your list with other settings · 2 invalid lines, not imported. Nothing is written until you confirm.',
  );
  await expect(preview.getByRole('status'), 'the keyboard starts at the summary').toBeFocused();
  // Invalid lines are shown first, with their line numbers and Add panel's own message.
  const lines = preview.getByRole('list', { name: 'Lines of the import' }).getByRole('listitem');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText('Line 5');
  await expect(lines.nth(0)).toContainText('http://plain.example.com');
  await expect(lines.nth(1)).toContainText('The same address as line 2; only line 2 is imported.');
  await checkScreen(page, '56-import-preview-invalid');
  expect((await app.core.listPanels()).length, 'a preview writes nothing').toBe(1);

  await preview.getByLabel('Show').selectOption('all');
  await expect(lines).toHaveCount(6);
  await expect(lines.nth(2)).toContainText('An update changes: name, group.');
  await preview.getByLabel(/Update their settings/).check();
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, '57-import-preview-all-full-hd');
  await page.setViewportSize({ width: 900, height: 600 });
  await preview.getByRole('button', { name: 'Add 3 panels and update 1' }).click();
  await expect(preview).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Import done' })).toHaveText(
    /Import done: added 3 panels, signed out, updated 1, skipped 2 invalid lines\./,
  );
  await expect(row(page, /Alpha/)).toBeVisible();
  const known = (await app.core.listPanels()).find((panel) => panel.address === 'known.example.com')!;
  expect([known.name, known.group]).toEqual(['Known again', 'New']);
  await checkScreen(page, '58-imported');
  // The next step is offered in place: the log in of the three panels added (not the one updated).
  await page.getByRole('button', { name: 'Log in to 3 imported panels…' }).click();
  const logIn = page.getByRole('dialog', { name: 'Log in to 3 panels' });
  await expect(logIn).toContainText('Alpha');
  await expect(logIn).not.toContainText('Known again');
  await expect(page.getByRole('status').filter({ hasText: 'Import done' })).toBeHidden();
});

test('Import from a file: main opens it; a huge file and a foreign JSON are refused with a reason in the dialog', async ({
  page,
  launch,
}, testInfo) => {
  const file = testInfo.outputPath('panels.txt');
  const app = await launch(page, { core: { chooseImportFile: async () => file } });
  await writeFile(file, '');
  await truncate(file, 40 * 1024 * 1024);
  await page.getByRole('button', { name: 'Import panels…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import panels' });
  await dialog.getByRole('button', { name: 'Choose a file…' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'panels.txt is 40.0 MiB; Paneldeck imports files up to 16.0 MiB. Export fewer panels at a time, or split the file.',
  );
  await checkScreen(page, '59-import-refused');

  await writeFile(file, JSON.stringify({ servers: [{ host: 'a.example.com' }] }));
  await dialog.getByRole('button', { name: 'Choose a file…' }).click();
  await expect(dialog.getByRole('alert')).toContainText('panels.txt is JSON but not a Paneldeck export');

  await writeFile(file, '# our panels\none.example.com\ntwo.example.com\n');
  await dialog.getByRole('button', { name: 'Choose a file…' }).click();
  const preview = page.getByRole('dialog', { name: 'Import from panels.txt' });
  await expect(preview.getByRole('status')).toContainText('Read as one address per line: 2 new panels to add.');
  await preview.getByRole('button', { name: 'Add 2 panels' }).click();
  await expect(row(page, /two\.example\.com/)).toBeVisible();
  expect((await app.core.listPanels()).map((panel) => panel.name)).toEqual(['one.example.com', 'two.example.com']);
});

test('Row menu by right click and by the context-menu key; Duplicate makes a signed-out copy at another address', async ({
  page,
  launch,
  panelServer,
}) => {
  const app = await launch(page);
  const source = await app.core.addPanel({ address: panelServer.url, name: 'Production', group: 'Acme', tags: ['eu'], colour: 'red' });
  await app.core.logIn(source.id, demo);
  await app.core.addPanel({ address: 'staging.example.com', name: 'Staging' });
  await row(page, /Staging/).click({ button: 'right' });
  const menu = page.getByRole('menu', { name: 'Staging' });
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Log in',
    'Panel settings',
    'Open dashboard in the browser',
    'Copy address',
    'Copy as curl (session read)',
    'Duplicate panel…',
    'Remove panel…',
  ]);
  await expect(row(page, /Staging/)).toHaveAttribute('aria-selected', 'true');
  await checkScreen(page, '60-row-menu');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(panelList(page).getByRole('tree')).toBeFocused();

  // The keyboard: Up over the "No group" heading to Production, then Shift+F10.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(row(page, /Production/)).toHaveAttribute('aria-selected', 'true');
  // Away from where the menu opens: an item under the pointer would take the highlight.
  await page.mouse.move(890, 590);
  await page.keyboard.press('Shift+F10');
  const productionMenu = page.getByRole('menu', { name: 'Production' });
  await expect(productionMenu.getByRole('menuitem').first()).toHaveText('Refresh the session');
  await expect(productionMenu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  await expect(productionMenu.getByRole('menuitem', { name: 'Duplicate panel…' })).toBeFocused();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Duplicate Production' });
  await expect(dialog.getByLabel('Name (optional)')).toHaveValue('Production (copy)');
  await dialog.getByLabel('Address').fill(panelServer.url);
  await dialog.getByRole('button', { name: 'Duplicate panel' }).click();
  await expect(dialog.getByText(/already in your list as "Production"/)).toBeVisible();
  await dialog.getByLabel('Address').fill('production-2.example.com');
  await dialog.getByRole('button', { name: 'Duplicate panel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Production (copy)' })).toBeVisible();
  const copy = (await app.core.listPanels()).find((panel) => panel.name === 'Production (copy)')!;
  expect([copy.address, copy.group, copy.tags, copy.colour, copy.signedIn]).toEqual([
    'production-2.example.com',
    'Acme',
    ['eu'],
    'red',
    false,
  ]);
});

test('Several panels: Shift and Ctrl click, Shift+arrows; move to a group, tag, colour, log out, export and remove with one confirmation', async ({
  page,
  launch,
  panelServer,
}, testInfo) => {
  const exported = testInfo.outputPath('selection.json');
  const app = await launch(page, { core: { chooseExportFile: async () => exported } });
  const ids: string[] = [];
  // Listed by name, in this order.
  for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'])
    ids.push((await app.core.addPanel({ address: `${name.toLowerCase()}.example.com`, name })).id);
  const signedIn = await app.core.addPanel({ address: panelServer.url, name: 'Foxtrot' });
  await app.core.logIn(signedIn.id, demo);
  await expect(row(page, /Foxtrot/)).toBeVisible();

  await row(page, /^Alpha/).click();
  await row(page, /^Charlie/).click({ modifiers: ['Shift'] });
  await expect(page.getByRole('heading', { level: 1, name: '3 panels selected' })).toBeVisible();
  await row(page, /^Bravo/).click({ modifiers: ['Control'] });
  await expect(page.getByRole('heading', { level: 1, name: '2 panels selected' })).toBeVisible();
  await expect(panelList(page).getByRole('treeitem', { selected: true })).toHaveText([/Alpha/, /Charlie/]);
  // The keyboard stays on Bravo (Ctrl click took it out); Shift+Down twice runs from Bravo to Delta.
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByRole('heading', { level: 1, name: '3 panels selected' })).toBeVisible();
  await expect(panelList(page).getByRole('treeitem', { selected: true })).toHaveText([/Bravo/, /Charlie/, /Delta/]);

  const bulk = page.getByRole('region', { name: '3 panels selected' });
  await bulk.getByLabel('Move to group').fill('Acme');
  await bulk.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(bulk.getByRole('status')).toHaveText('Moved 3 panels to Acme.');
  await bulk.getByLabel('Add tags').fill('eu, db');
  await bulk.getByLabel('Add tags').press('Enter');
  await expect(bulk.getByRole('status')).toHaveText('Tagged 3 panels.');
  await bulk.getByLabel('Colour').selectOption('red');
  await bulk.getByRole('button', { name: 'Set colour' }).click();
  await expect(bulk.getByRole('status')).toHaveText('Coloured 3 panels red (production).');
  await checkScreen(page, '61-bulk-view');
  const after = await app.core.listPanels();
  expect(after.filter((panel) => panel.group === 'Acme').map((panel) => [panel.name, panel.tags, panel.colour])).toEqual([
    ['Bravo', ['eu', 'db'], 'red'],
    ['Charlie', ['eu', 'db'], 'red'],
    ['Delta', ['eu', 'db'], 'red'],
  ]);

  // Ctrl+A selects every panel; the row menu then speaks of all of them.
  await panelList(page).getByRole('tree').focus();
  await page.keyboard.press('Control+a');
  await expect(page.getByRole('heading', { level: 1, name: '6 panels selected' })).toBeVisible();
  await row(page, /Foxtrot/).click({ button: 'right' });
  const menu = page.getByRole('menu', { name: '6 panels' });
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Log in to 5 panels…',
    'Check the 1 signed in',
    'Log out of the 1 signed in…',
    'Group, tag or colour 6 panels…',
    'Export 6 panels…',
    'Remove 6 panels…',
  ]);
  await menu.getByRole('menuitem', { name: 'Log out of the 1 signed in…' }).click();
  // It asks first, naming the one it logs out of.
  const logOutConfirm = page.getByRole('dialog', { name: 'Log out of 1 panel?' });
  await expect(logOutConfirm).toContainText('Foxtrot');
  await logOutConfirm.getByRole('button', { name: 'Log out of 1 panel' }).click();
  await expect(page.getByRole('region', { name: '6 panels selected' }).getByRole('status')).toHaveText('Logged out of 1 panel.');
  expect((await app.core.listPanels()).some((panel) => panel.signedIn)).toBe(false);

  // Export the selection: two panels, through main's save dialog.
  await row(page, /^Alpha/).click();
  await row(page, /^Echo/).click({ modifiers: ['Control'] });
  await page.getByRole('region', { name: '2 panels selected' }).getByRole('button', { name: 'Export 2 panels…' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Exported 2 panels' })).toBeVisible();
  const file = JSON.parse(await readFile(exported, 'utf8')) as { panels: { name: string }[] };
  expect(file.panels.map((panel) => panel.name)).toEqual(['Alpha', 'Echo']);

  // Remove: one confirmation that names how many.
  await palette(page, 'remove the selected');
  const confirm = page.getByRole('dialog', { name: 'Remove 2 panels?' });
  await expect(confirm).toContainText('Alpha, Echo');
  await checkScreen(page, '62-bulk-remove-confirm');
  await confirm.getByRole('button', { name: 'Remove 2 panels' }).click();
  await expect(row(page, /^Alpha/)).toBeHidden();
  expect((await app.core.listPanels()).map((panel) => panel.name)).toEqual(['Bravo', 'Charlie', 'Delta', 'Foxtrot']);
  await expect(page.getByRole('heading', { level: 1, name: /selected/ })).toBeHidden();
});
