import type { Page } from '@playwright/test';
import { type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { demo, expect, test } from './fixtures.ts';
import { checkScreen, checkScreenThreeSizes } from './screens.ts';
import { answerInMain } from './ui-steps.ts';

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

test("Upgrade from the selection: the waves shown, main asks once, each panel's step as it goes, the canary held until it is back", async ({
  page,
  launch,
  confirmations,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page, { core: { upgrades: { returnPollMs: 20 } } });
  const servers: ReferencePanel[] = [];
  try {
    for (const [name, style, updateAvailable, to] of [
      ['Acme old', 'trpc', true, '2.31.0'],
      ['Acme mid', 'rpc', true, '2.33.5'],
      ['Acme new', 'public', true, '2.36.0'],
      ['Acme done', 'public', false, '2.36.0'],
    ] as const) {
      const server = await startReferencePanel({ style, updateAvailable, update: { to, awayMs: name === 'Acme mid' ? 'held' : 10 } });
      servers.push(server);
      const { id } = await app.core.addPanel({ address: server.url, name });
      await app.core.logIn(id, demo);
    }
    // The check reads whether each has an update out (its version read).
    await app.core.checkPanels();
    await expect(panelList(page).getByRole('treeitem')).toHaveCount(4);
    await panelList(page).getByRole('tree').focus();
    await page.keyboard.press('Control+a');
    const bulk = page.getByRole('region', { name: '4 panels selected' });
    // The one up to date is not offered.
    await bulk.getByRole('button', { name: 'Upgrade 3 panels…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade Easypanel on 3 panels' });
    // The same dialog through its three titles.
    const rows = page.getByRole('table', { name: 'Panels to upgrade' }).locator('tbody tr');
    await expect(rows).toHaveText([/Acme mid\s*first, alone\s*2\.32\.2/, /Acme new\s*wave 1\s*2\.33\.4/, /Acme old\s*wave 1\s*2\.28\.1/]);
    await checkScreenThreeSizes(page, '97-upgrade-dialog');

    await dialog.getByRole('button', { name: 'Upgrade 3 panels…' }).click();
    const { plan } = await answerInMain(confirmations, {
      title: 'Upgrade Easypanel on 3 panels',
      inspect: async (asked) => {
        await expect(asked.getByText(/update Easypanel from 2\.32\.2 \(first, alone\)/)).toBeVisible();
        await checkScreen(asked, '97-upgrade-confirmation');
      },
    });
    expect(plan.panels.map((panel) => panel.name)).toEqual(['Acme mid', 'Acme new', 'Acme old']);
    const running = page.getByRole('dialog', { name: 'Upgrading 3 panels' });
    // The canary is away: the waves after it wait, and Esc does not close the dialog.
    await expect(rows.first()).toContainText('Restarting: waiting for it to come back');
    await expect(rows.nth(1)).toContainText('Waiting its turn');
    await expect(running.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await checkScreenThreeSizes(page, '97-upgrade-running');
    expect(servers[1]!.restarts()).toBe(1);
    expect(servers[0]!.restarts() + servers[2]!.restarts()).toBe(0);

    // The window is loaded again: main still holds the run, and the window takes it up with each panel's step.
    await page.reload();
    await expect(running).toBeVisible();
    await expect(rows.first()).toContainText('Restarting: waiting for it to come back');
    await expect(rows.nth(1)).toContainText('Waiting its turn');
    await expect(running.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await checkScreen(page, '97-upgrade-taken-up-after-reload');

    servers[1]!.finishRestart();
    const done = page.getByRole('dialog', { name: 'Upgrade: done' });
    await expect(done.getByRole('status')).toHaveText('3 upgraded');
    await expect(rows).toHaveText([/2\.32\.2 → 2\.33\.5\s*Upgraded/, /2\.33\.4 → 2\.36\.0\s*Upgraded/, /2\.28\.1 → 2\.31\.0\s*Upgraded/]);
    await checkScreenThreeSizes(page, '97-upgrade-done');
    expect(confirmations.plans).toHaveLength(1);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
