import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { tempDir } from '../support/helpers.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * Issue 33's fleet file in the window: two panels of the selection written to a new fleet file
 * (main's save dialog), the panel's header saying where it is shared, Preferences listing the file;
 * a rename made in the file by someone else reaching the list; a rename made on both sides at once
 * shown in Preferences with both values until the operator chooses; a damaged file said so and not
 * written over.
 */

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

test('a new fleet file of the selection; a change there comes here; a damaged file is said and kept', async ({ page, launch }) => {
  const folder = await tempDir('paneldeck-team-');
  const path = join(folder.path, 'team.paneldeck-fleet.json');
  try {
    const app = await launch(page, {
      core: { chooseNewFleetFile: async () => path, chooseFleetFile: async () => path, fleetFilePollMs: 100 },
    });
    await app.core.addPanel({ address: 'shop.acme.example', name: 'Shop', group: 'Acme' });
    const blog = await app.core.addPanel({ address: 'blog.acme.example', name: 'Blog', group: 'Acme' });
    await expect(panelList(page).getByRole('treeitem', { name: /Blog/ })).toBeVisible();
    await panelList(page).getByRole('tree').focus();
    await page.keyboard.press('Control+a');
    const bulk = page.getByRole('region', { name: '2 panels selected' });
    await bulk.getByRole('button', { name: 'New fleet file of 2 panels…' }).click();
    await expect(bulk.getByRole('status')).toHaveText('2 panels shared in team.paneldeck-fleet.json.');
    await expect(bulk.getByRole('button', { name: 'Share 2 panels in team.paneldeck-fleet.json' })).toBeVisible();
    await checkScreenBothSizes(page, 'fleet-files-01-shared');
    expect(JSON.parse(readFileSync(path, 'utf8')).panels.map((one: { name: string }) => one.name)).toEqual(['Blog', 'Shop']);

    // Someone renames Shop in the file (a git pull): the list follows.
    writeFileSync(path, readFileSync(path, 'utf8').replace('"name": "Shop"', '"name": "Shop EU"'));
    await expect(panelList(page).getByRole('treeitem', { name: /Shop EU/ })).toBeVisible();
    await panelList(page)
      .getByRole('treeitem', { name: /Shop EU/ })
      .click();
    await expect(page.locator('.panel-header')).toContainText('Shared: team.paneldeck-fleet.json');

    // In the table: a Fleet file column (from the Columns menu), and rows grouped by file, this machine's own last.
    await app.core.addPanel({ address: 'local.example', name: 'Local' });
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    await panelList(page).locator('summary', { hasText: 'Columns' }).click();
    await panelList(page).getByRole('checkbox', { name: 'Fleet file', exact: true }).check();
    await panelList(page).getByRole('checkbox', { name: 'Group rows by fleet file' }).check();
    await panelList(page).locator('summary', { hasText: 'Columns' }).click();
    const grid = panelList(page).getByRole('grid');
    await expect(grid.getByRole('columnheader', { name: 'Fleet file', exact: true })).toBeVisible();
    await expect(grid.locator('.fleet-group')).toHaveText([/team/, /This machine only/]);
    await expect(grid.getByRole('row', { name: /Shop EU/ })).toContainText('team');
    await checkScreenBothSizes(page, 'fleet-files-02-table-by-file');
    // Its name is a search word too.
    await panelList(page).getByRole('searchbox', { name: 'Find panels' }).fill('team.paneldeck');
    await expect(grid.getByRole('row', { name: /Local/ })).toHaveCount(0);
    await expect(grid.getByRole('row', { name: /Shop EU/ })).toBeVisible();
    await panelList(page).getByRole('searchbox', { name: 'Find panels' }).fill('');
    await panelList(page).getByRole('button', { name: 'List', exact: true }).click();

    // Blog renamed here and in the file at once (the lock held meanwhile, as another Paneldeck writing would):
    // nothing of it is applied until the operator chooses in Preferences.
    writeFileSync(`${path}.lock`, '');
    await app.core.updatePanel(blog.id, { name: 'Blog (mine)' });
    writeFileSync(path, readFileSync(path, 'utf8').replace('"name": "Blog"', '"name": "Blog (theirs)"'));
    rmSync(`${path}.lock`);
    await page.getByRole('button', { name: 'Preferences' }).click();
    const files = page.getByRole('region', { name: 'Fleet files' });
    await expect(files).toContainText('Blog (mine): its name was changed both here and in the file.');
    await expect(files).toContainText('In the file: "Blog (theirs)"');
    await files.scrollIntoViewIfNeeded();
    await checkScreenBothSizes(page, 'fleet-files-03-conflict');
    await files.getByRole('button', { name: "Take the file's" }).click();
    await expect(files).not.toContainText('changed both here and in the file');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(panelList(page).getByRole('treeitem', { name: /Blog \(theirs\)/ })).toBeVisible();
    expect(readFileSync(path, 'utf8')).toContain('"name": "Blog (theirs)"');

    // Damaged (a merge gone wrong): said in Preferences, the file left as it is.
    const damaged = '<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> theirs\n';
    writeFileSync(path, damaged);
    await page.getByRole('button', { name: 'Preferences' }).click();
    const section = page.getByRole('region', { name: 'Fleet files' });
    await expect(section.getByRole('alert')).toContainText('unresolved merge conflicts');
    await section.scrollIntoViewIfNeeded();
    await checkScreenBothSizes(page, 'fleet-files-04-damaged');
    expect(readFileSync(path, 'utf8')).toBe(damaged);

    // From the palette too: a file already followed is said as followed, not opened twice.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('open fleet file');
    await page.keyboard.press('Enter');
    await expect(page.locator('.window-notice')).toContainText('Following team.paneldeck-fleet.json: 2 panels shared in it.');
    expect(readFileSync(path, 'utf8')).toBe(damaged);
  } finally {
    await folder.cleanup();
  }
});
