import type { Page } from '@playwright/test';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import { demo, expect, test } from './fixtures.ts';
import { checkScreen } from './screens.ts';

/**
 * Issue 35's density at 1280x800: the List layout shows at least 12 panels on one screen; the
 * Table's names and groups are whole, its reasons short phrases (the sentence in the title), and
 * the panel view beside it keeps its tabs on one row. Measured in the DOM.
 */

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

/** The rows wholly inside the list's visible box: what one screen shows. */
async function listRowsOnScreen(page: Page): Promise<number> {
  return panelList(page)
    .getByRole('tree')
    .evaluate((tree) => {
      const box = tree.getBoundingClientRect();
      return [...tree.querySelectorAll('[role="treeitem"]')].filter((row) => {
        const at = row.getBoundingClientRect();
        return at.top >= box.top - 0.5 && at.bottom <= box.bottom + 0.5;
      }).length;
    });
}

test('the List layout at 1280x800 shows at least 12 panels, each with its name, address and state', async ({ page, launch }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  for (let index = 1; index <= 30; index++) {
    await app.core.addPanel({ address: `https://panel-${String(index).padStart(2, '0')}.client.example.test`, name: `Client ${index}` });
  }
  await expect(panelList(page).getByRole('treeitem')).not.toHaveCount(0);
  const shown = await listRowsOnScreen(page);
  console.log(`list layout at 1280x800: ${shown} panels on one screen`);
  expect(shown).toBeGreaterThanOrEqual(12);
  // Each row still says the panel's name and address (cut with an ellipsis, whole in the title).
  const first = panelList(page).getByRole('treeitem').first();
  await expect(first).toContainText('Client 1');
  await expect(first).toContainText('panel-01.client.example.test');
  await checkScreen(page, '94-list-density-1280');
  await page.setViewportSize({ width: 900, height: 600 });
  await checkScreen(page, '94-list-density');
});

test('the Table at 1280x800: groups whole, reasons as short phrases with the sentence in the title, the tabs beside it on one row', async ({
  page,
  launch,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  const live = await startReferencePanel({ style: 'public' });
  const gone = await startReferencePanel({ style: 'public' });
  try {
    const shop = await app.core.addPanel({ address: live.url, name: 'Globex shop' });
    const api = await app.core.addPanel({ address: gone.url, name: 'Globex api' });
    await app.core.updatePanels([shop.id, api.id], { group: 'Globex Corporation Europe' });
    for (let index = 1; index <= 6; index++) {
      const { id } = await app.core.addPanel({ address: `https://acme-${index}.example.test`, name: `Acme ${index}` });
      await app.core.updatePanels([id], { group: 'Acme' });
    }
    await app.core.logIn(shop.id, demo);
    await app.core.logIn(api.id, demo);
    await gone.close();
    await app.core.checkPanels();
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    const table = panelList(page).getByRole('grid', { name: 'Panel table' });
    const row = (name: string) => table.getByRole('row', { name: new RegExp(name) });
    await expect(row('Globex api').locator('.col-state')).toHaveText('Unreachable');

    // Every group and name whole: no cell of theirs cut.
    const cut = await table.evaluate((grid) =>
      [...grid.querySelectorAll('.fleet-row .col-group, .fleet-row .col-name')]
        .filter((cell) => cell.scrollWidth > cell.clientWidth)
        .map((cell) => cell.textContent),
    );
    expect(cut).toEqual([]);
    // The reason: a short phrase in the cell, the panel's sentence in its title.
    const reason = row('Globex api').locator('.col-reason');
    await expect(reason).toHaveText(/^Unreachable(Mute)?$/);
    await expect(reason).toHaveAttribute('title', /^Unreachable: .+/);

    // The panel view beside the table: its eight tabs on one row.
    await row('Globex shop').click();
    const tabs = page.getByRole('group', { name: 'Panel view' }).getByRole('button');
    await expect(tabs).toHaveCount(8);
    const tops = await tabs.evaluateAll((buttons) => [...new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().top)))]);
    expect(tops).toHaveLength(1);
    // A tab out of the row's view is scrolled into it when shown.
    await page.getByRole('group', { name: 'Panel view' }).getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('group', { name: 'Panel view' }).getByRole('button', { name: 'Settings' })).toBeInViewport({ ratio: 1 });
    await page.getByRole('group', { name: 'Panel view' }).getByRole('button', { name: 'Overview' }).click();
    await expect(page.getByRole('group', { name: 'Panel view' }).getByRole('button', { name: 'Overview' })).toBeInViewport({ ratio: 1 });
    await checkScreen(page, '95-table-density-1280');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '95-table-density-full-hd');
    await page.setViewportSize({ width: 900, height: 600 });
    await checkScreen(page, '95-table-density');
  } finally {
    await live.close();
  }
});
