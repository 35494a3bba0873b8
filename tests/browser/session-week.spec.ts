import type { Page } from '@playwright/test';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';

/**
 * "Which sessions end this week?" (issue 35): the session warning reaches seven days ahead
 * (10,080 minutes), and the Table sorted by Session end lists the sessions soonest first, the
 * panels not signed in last.
 */

const DAY_MS = 24 * 60 * 60_000;
const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const table = (page: Page) => panelList(page).getByRole('grid', { name: 'Panel table' });

test('a warning a week ahead is saved from Preferences; the Table sorted by Session end shows this week’s first', async ({
  page,
  launch,
}) => {
  const servers: ReferencePanel[] = [];
  try {
    const app = await launch(page);
    // Added in an order that is not the sessions' order, so the sort has something to do.
    for (const [name, days] of [
      ['Ten days', 10],
      ['Two days', 2],
      ['Signed out', null],
      ['Five days', 5],
    ] as const) {
      const server = await startReferencePanel();
      servers.push(server);
      const { id } = await app.core.addPanel({ address: server.url, name });
      if (days === null) continue;
      server.setTokenTtl(days * DAY_MS);
      await app.core.logIn(id, demo);
    }

    await page.getByRole('button', { name: 'Preferences' }).click();
    const preferences = page.getByRole('dialog', { name: 'Preferences' });
    const warning = preferences.getByLabel('Expiry warning');
    await expect(warning).toHaveAccessibleDescription(/up to 10,080 \(seven days\)/);
    await warning.fill('10080');
    await checkScreen(page, 'session-week-01-preferences');
    await preferences.getByRole('button', { name: 'Done' }).click();
    await expect(preferences).toBeHidden();
    expect((await app.core.getAppStatus()).settings.expiryWarningMinutes).toBe(10_080);

    // A session's end is known once it was read: Check all reads every signed-in panel's.
    await panelList(page).getByRole('button', { name: 'Check all' }).click();
    await expect.poll(async () => (await app.core.listPanels()).filter((panel) => panel.sessionExpiresAt !== null).length).toBe(3);
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    await table(page).getByRole('button', { name: 'Session end' }).click();
    await expect(table(page).getByRole('columnheader', { name: /Session end/ })).toHaveAttribute('aria-sort', 'ascending');
    const rows = table(page).locator('.fleet-row');
    await expect(rows.locator('.col-name')).toHaveText(['Two days', 'Five days', 'Ten days', 'Signed out']);
    await expect(rows.first().locator('.col-session')).toHaveText(/^in \d/);
    await checkScreen(page, 'session-week-02-table-by-session-end');
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
