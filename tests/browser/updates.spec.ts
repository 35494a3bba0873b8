import type { Page } from '@playwright/test';
import { type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { demo, expect, test } from './fixtures.ts';
import { checkScreenThreeSizes } from './screens.ts';

/**
 * Issue 32's version drift: whether each panel has a newer Easypanel out, said by the panel on the
 * version read the checks make anyway, in the table's Update column, the counts above it
 * ("2 updates available", a click away from `update:available`) and the search.
 */

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

test('the Update column, "N updates available" and update:available, from the panels of three generations', async ({ page, launch }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  const servers: ReferencePanel[] = [];
  try {
    for (const [name, style, updateAvailable] of [
      ['Acme old', 'trpc', true],
      ['Acme mid', 'rpc', false],
      ['Acme new', 'public', true],
    ] as const) {
      const server = await startReferencePanel({ style, updateAvailable });
      servers.push(server);
      const { id } = await app.core.addPanel({ address: server.url, name });
      await app.core.logIn(id, demo);
    }
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    await panelList(page).getByRole('button', { name: 'Check all', exact: true }).click();
    const table = panelList(page).getByRole('grid', { name: 'Panel table' });
    const update = (name: string) => table.getByRole('row', { name: new RegExp(name) }).locator('.col-update');
    await expect(update('Acme old')).toHaveText('Available');
    await expect(update('Acme mid')).toHaveText('Up to date');
    await expect(update('Acme new')).toHaveText('Available');

    // Sorted by it: those with an update first.
    await table.getByRole('button', { name: 'Update' }).click();
    await expect(table.locator('.fleet-row .col-update').first()).toHaveText('Available');

    const counts = panelList(page).getByRole('button', { name: '2 updates available' });
    await counts.click();
    await expect(panelList(page).getByRole('searchbox').first()).toHaveValue('update:available');
    await expect(table.locator('.fleet-row')).toHaveCount(2);
    await expect(table.locator('.fleet-row .col-name')).toHaveText(['Acme new', 'Acme old']);
    await checkScreenThreeSizes(page, '96-updates-available');
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
