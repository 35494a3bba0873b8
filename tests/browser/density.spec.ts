import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { checkScreen } from './screens.ts';

/**
 * Issue 35's density at 1280x800: the List layout shows at least 12 panels on one screen.
 * Measured in the DOM: the rows wholly inside the list's visible box.
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
