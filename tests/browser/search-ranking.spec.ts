import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import type { Core } from '../../electron/core/index.ts';

/**
 * Issue 22, items 3 and 4: the list's search matches words from their start and states and
 * colours whole ("red" finds the red panels, not the expired ones; "log" not "logged out"), and
 * the palette ranks the best match of the name first, so Enter opens the panel named, not one
 * whose address happens to hold the digit typed.
 */

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const matches = (page: Page) => panelList(page).locator('.fleet-matches');

/** Listed first, so list order alone puts eu-1 first; both addresses hold a "2" ("127"). */
async function addAbstergo(core: Core): Promise<void> {
  await core.addPanel({ address: 'https://127.0.0.1:8441', name: 'abstergo-prod-eu-1', group: 'Abstergo' });
  await core.addPanel({ address: 'https://127.0.0.1:8442', name: 'abstergo-prod-eu-2', group: 'Abstergo' });
}

test('the list\u2019s search: "red" finds the red panels, not the expired ones; "log" a name, not "logged out"', async ({
  page,
  launch,
}) => {
  const { core } = await launch(page);
  await addAbstergo(core);
  for (const name of ['globex-shop', 'globex-billing', 'initech-api'])
    await core.addPanel({ address: `https://${name}.example.com`, name, colour: 'red' });
  await core.addPanel({ address: 'https://logs.example.com', name: 'log-collector', colour: 'blue' });
  // Two panels whose sessions the panel ended: their state is "Session expired".
  const servers = await Promise.all([startReferencePanel(), startReferencePanel()]);
  try {
    for (const [index, server] of servers.entries()) {
      const { id } = await core.addPanel({ address: server.url, name: `umbrella-${index + 1}` });
      await core.logIn(id, demo);
      server.expireAllTokens();
      await core.getSession(id).catch(() => undefined);
    }
    const total = 8;
    await expect(panelList(page).getByLabel('Panels by state')).toContainText('2 expired');

    const search = panelList(page).getByRole('searchbox', { name: 'Find panels' });
    await search.fill('red');
    await expect(matches(page)).toHaveText(`3 of ${total} panels`);
    for (const name of ['globex-shop', 'globex-billing', 'initech-api'])
      await expect(panelList(page).getByRole('treeitem', { name: new RegExp(name) })).toBeVisible();
    await expect(panelList(page).getByRole('treeitem', { name: /umbrella/ })).toHaveCount(0);
    await checkScreen(page, '47-search-red');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '47-search-red-full-hd');
    await page.setViewportSize({ width: 900, height: 600 });

    // A name's prefix, never the "logged out" of the signed-out panels.
    await search.fill('log');
    await expect(matches(page)).toHaveText(`1 of ${total} panels`);
    await expect(panelList(page).getByRole('treeitem', { name: /log-collector/ })).toBeVisible();
    await search.fill('expired');
    await expect(matches(page)).toHaveText(`2 of ${total} panels`);
    // The list ranks as the palette does: the panel named comes first in its section.
    await search.fill('abstergo prod eu 2');
    await expect(panelList(page).locator('.panel-item .panel-item-name').first()).toHaveText('abstergo-prod-eu-2');
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  }
});

test('the palette: "abstergo prod eu 2" + Enter opens abstergo-prod-eu-2, not eu-1 whose address holds a 2', async ({ page, launch }) => {
  const { core } = await launch(page);
  await addAbstergo(core);
  await expect(panelList(page).getByRole('treeitem', { name: /abstergo-prod-eu-2/ })).toBeVisible();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.type('abstergo prod eu 2');
  await expect(palette.getByRole('option').first()).toContainText('abstergo-prod-eu-2');
  await checkScreen(page, '48-palette-best-match');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, '48-palette-best-match-full-hd');
  await page.setViewportSize({ width: 900, height: 600 });
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('abstergo-prod-eu-2');
});
