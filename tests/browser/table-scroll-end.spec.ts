import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The panel table scrolled to its end in one go shows its last row whole: the scroll height is the
 * rows' and the header's, no more, so drawing the last rows does not grow it (issue 34: it grew by
 * the header's height once the end was reached, and the last row took a second scroll).
 */

const COUNT = 80;

/** The grid's scroll height, and whether its last row sits whole inside it. */
async function endOf(grid: Locator, lastName: string) {
  return grid.evaluate((element, name) => {
    const rows = [...element.querySelectorAll('[role="row"]')].filter((row) => row.textContent?.includes(name));
    const box = element.getBoundingClientRect();
    const last = rows.at(-1)?.getBoundingClientRect();
    return {
      scrollHeight: element.scrollHeight,
      atEnd: Math.abs(element.scrollTop + element.clientHeight - element.scrollHeight) <= 1,
      lastWhole: last !== undefined && last.bottom <= box.bottom + 1 && last.top >= box.top,
    };
  }, lastName);
}

test('scrolled to its end once, the table shows its last row whole and its scroll height holds', async ({ page, launch }) => {
  const app = await launch(page);
  for (let index = 1; index <= COUNT; index++) {
    await app.core.addPanel({ address: `p${index}.example.com`, name: `Panel ${String(index).padStart(3, '0')}` });
  }
  const list = page.getByRole('navigation', { name: 'Panels' });
  await list.getByRole('button', { name: 'Table', exact: true }).click();
  const grid = list.getByRole('grid', { name: 'Panel table' });
  // Sorted by name, the last panel is the last row.
  await grid.getByRole('columnheader', { name: /Name/ }).click();
  const lastName = `Panel ${String(COUNT).padStart(3, '0')}`;
  await expect(grid.getByRole('row', { name: /Panel 001/ })).toBeVisible();
  await grid.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(grid.getByRole('row', { name: new RegExp(lastName) })).toBeVisible();
  // A frame later (the rows at the end drawn), the end is still the end and the last row is whole.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const end = await endOf(grid, lastName);
  expect(end.atEnd, 'still at the end: the scroll height did not grow').toBe(true);
  expect(end.lastWhole, 'the last row whole in view').toBe(true);
});
