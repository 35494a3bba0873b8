import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { expect, test } from './fixtures.ts';

/**
 * Import as an operator's first week met it: a pasted list of addresses with one named line, a
 * fresh Easypanel at http://<ip>:3000 (plain http, chosen import-wide or line by line with Add
 * panel's warning, or by the CSV's allowPlainHttp column), and a preview that shows the labels.
 */

// The empty window's own button: the list is empty in these tests.
const openImport = (page: Page) => page.getByRole('button', { name: 'Import panels…' }).click();

async function previewPasted(page: Page, text: string) {
  await openImport(page);
  const dialog = page.getByRole('dialog', { name: 'Import panels' });
  await dialog.getByLabel('Or paste them here').fill(text);
  await dialog.getByRole('button', { name: 'Preview pasted text' }).click();
  return page.getByRole('dialog', { name: 'Import from pasted text' });
}

const lines = (preview: ReturnType<Page['getByRole']>) => preview.getByRole('list', { name: 'Lines of the import' }).getByRole('listitem');

test('a pasted list of addresses with one "name,https://host" line: read as CSV, the line named, no "Remove the path"', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  const preview = await previewPasted(page, 'panel-1.example.com\nAcme prod,https://acme.example.com\npanel-2.example.com');
  await expect(preview.getByRole('status')).toHaveText('Read as CSV: 3 new panels to add. Nothing is written until you confirm.');
  await expect(lines(preview).nth(1)).toContainText('Acme prod');
  await expect(lines(preview).nth(1)).toContainText('acme.example.com');
  await expect(preview).not.toContainText('Remove the path');
  await checkScreen(page, 'import-01-mixed-list');
  await preview.getByRole('button', { name: 'Add 3 panels' }).click();
  await expect(preview).toBeHidden();
  expect((await app.core.listPanels()).map((panel) => panel.name).sort()).toEqual([
    'Acme prod',
    'panel-1.example.com',
    'panel-2.example.com',
  ]);
});

test('the dialog names every CSV column, and the preview shows group, tags, colour and favourite', async ({ page, launch }) => {
  await launch(page);
  await openImport(page);
  const dialog = page.getByRole('dialog', { name: 'Import panels' });
  await expect(dialog).toContainText('name,address,group,tags,colour,favourite,allowPlainHttp');
  await dialog
    .getByLabel('Or paste them here')
    .fill('name,address,group,tags,colour,favourite\nSecure,secure.example.com,Acme,"eu,db",red,yes\nPlain,plain.example.com,,,,');
  await dialog.getByRole('button', { name: 'Preview pasted text' }).click();
  const preview = page.getByRole('dialog', { name: 'Import from pasted text' });
  const secure = lines(preview).nth(0);
  await expect(secure.locator('.import-labels')).toHaveText('★ Favourite · Group Acme · Tags eu, db · Red (production)');
  await expect(lines(preview).nth(1).locator('.import-labels')).toHaveCount(0);
  await checkScreen(page, 'import-02-labels');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, 'import-03-labels-full-hd');
});

test("http://<ip>:3000 lines: allowed import-wide or line by line with Add panel's warning, or by the allowPlainHttp column; the preview names them", async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  // Documentation addresses (TEST-NET-3): added, never contacted.
  const preview = await previewPasted(
    page,
    [
      'name,address,allowPlainHttp',
      'Fresh one,http://203.0.113.7:3000,',
      'Fresh two,http://203.0.113.8:3000,',
      'Said so,http://203.0.113.9:3000,yes',
      'Secure,https://secure.example.com,',
    ].join('\n'),
  );
  const status = preview.getByRole('status');
  await expect(status).toHaveText(
    'Read as CSV: 2 new panels to add · 2 invalid lines, not imported. Nothing is written until you confirm.',
  );
  await expect(preview.locator('.import-plain-http-names')).toHaveText('Not encrypted (plain HTTP): Said so.');
  const everyLine = preview.getByRole('checkbox', { name: 'Allow unencrypted HTTP for the 2 http:// lines' });
  await expect(everyLine).not.toBeChecked();
  // The same warning as Add panel's.
  await expect(preview.locator('.plain-http-choice .field-hint')).toContainText('the password and token cross the network readable');
  await expect(lines(preview).nth(0)).toContainText('Line 2');

  // One line at a time.
  await lines(preview).nth(0).getByRole('checkbox', { name: 'Allow unencrypted HTTP for Fresh one' }).check();
  await expect(status).toHaveText('Read as CSV: 3 new panels to add · 1 invalid line, not imported. Nothing is written until you confirm.');
  await expect(everyLine).toHaveJSProperty('indeterminate', true);
  await expect(preview.locator('.import-plain-http-names')).toHaveText('Not encrypted (plain HTTP): Fresh one, Said so.');
  await expect(lines(preview).nth(0).locator('.plain-http-badge')).toHaveText('Not encrypted');
  await checkScreen(page, 'import-04-plain-http-one-line');

  // Then import-wide.
  await everyLine.check();
  await expect(status).toHaveText('Read as CSV: 4 new panels to add. Nothing is written until you confirm.');
  await preview.getByLabel('Show').selectOption('all');
  await expect(lines(preview)).toHaveCount(4);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, 'import-05-plain-http-every-line-full-hd');
  await page.setViewportSize({ width: 900, height: 600 });
  await preview.getByRole('button', { name: 'Add 4 panels' }).click();
  await expect(preview).toBeHidden();
  const panels = await app.core.listPanels();
  expect(panels.map((panel) => [panel.name, panel.allowPlainHttp]).sort()).toEqual([
    ['Fresh one', true],
    ['Fresh two', true],
    ['Said so', true],
    ['Secure', false],
  ]);
  await expect(page.getByRole('navigation').locator('.plain-http-badge')).toHaveCount(3);
});
