import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { onlyServices } from '../support/signed-in-core.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenThreeSizes } from './screens.ts';
import { answerInMain } from './ui-steps.ts';

/**
 * The Backups view over the real core and two reference panels of two generations: unprotected
 * databases first, then the failed last runs, then the rest; grouped by panel and by client; a
 * panel's problem on its group line; the search; rows chosen and run, main confirming, each
 * run counted at its panel and its outcome on its row; a panel's names shown as text.
 */

test('the Backups view: unprotected first, failed next; by panel or client; search; Run N backups after main confirms', async ({
  page,
  launch,
  confirmations,
}) => {
  const panels: ReferencePanel[] = [];
  try {
    const billing = await startReferencePanel({ style: 'public' });
    const storefront = await startReferencePanel({ style: 'rpc' });
    const broken = await startReferencePanel({ style: 'trpc' });
    panels.push(billing, storefront, broken);
    onlyServices(
      billing,
      { projectName: 'billing', name: 'db', type: 'postgres' },
      { projectName: 'billing', name: 'ledger', type: 'mysql' },
      { projectName: 'billing', name: 'web', type: 'app' },
    );
    const nightly = billing.backups.addSchedule('database', 'billing', 'db', { id: 'db-nightly' });
    billing.backups.recordRun(nightly, 'error');
    billing.backups.addSchedule('volume', 'billing', 'web', { id: 'web-uploads', schedule: '30 2 * * *' });
    onlyServices(
      storefront,
      { projectName: 'store', name: 'orders', type: 'mariadb' },
      { projectName: 'store', name: 'cache', type: 'redis' },
    );
    const orders = storefront.backups.addSchedule('database', 'store', 'orders', { id: 'orders-hourly', schedule: '0 * * * *' });
    storefront.backups.recordRun(orders, 'done');
    // A panel's text is shown as text, never as markup.
    onlyServices(broken, { projectName: 'misc', name: 'notes', type: 'mongo' });
    broken.backups.setRawAnswer('listDatabaseBackups', '<img src=x onerror=alert(1)>');

    const app = await launch(page);
    for (const [panel, name, group] of [
      [billing, 'Billing', 'Acme'],
      [storefront, 'Storefront', 'Acme'],
      [broken, 'Broken', 'Initech'],
    ] as const) {
      const { id } = await app.core.addPanel({ address: panel.url, name });
      await app.core.updatePanel(id, { group });
      await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    }

    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Backups', exact: true }).click();
    const view = page.getByRole('region', { name: 'Backups', exact: true });
    await expect(view.getByRole('status')).toHaveText('3 schedules, 2 databases without a backup, 1 failed last run');
    const rows = view.locator('tr.backup-row');
    // Billing first (it has the unprotected and the failed), then Storefront's; Broken shows its problem alone.
    await expect(rows.locator('td:nth-child(2)')).toHaveText([
      'billing/ledger',
      'billing/db',
      'billing/web',
      'store/cache',
      'store/orders',
    ]);
    await expect(rows.locator('td.backup-last')).toHaveText(['No enabled backup', /^Failed /, 'Never run', 'No enabled backup', /^Done /]);
    const groupLines = view.locator('tr.backup-group-line');
    await expect(groupLines).toHaveText([/^Billing/, /^Storefront/, /^Broken.*could not be read/]);
    await expect(view.locator('img')).toHaveCount(0);
    await checkScreenThreeSizes(page, 'backups');

    await view.getByRole('button', { name: 'Client', exact: true }).click();
    await expect(groupLines).toHaveText([/^Acme/, /^Initech.*Broken: .*could not be read/]);
    await expect(rows.locator('td:nth-child(2)')).toHaveText([
      'Billing · billing/ledger',
      'Storefront · store/cache',
      'Billing · billing/db',
      'Billing · billing/web',
      'Storefront · store/orders',
    ]);
    await view.getByRole('button', { name: 'Panel', exact: true }).click();

    await view.getByRole('searchbox', { name: 'Search the backups' }).fill('store');
    await expect(rows).toHaveCount(2);
    await view.getByRole('searchbox', { name: 'Search the backups' }).fill('');

    // The failed one and Storefront's chosen; main asks once; each runs once at its panel.
    await view.getByRole('checkbox', { name: 'Choose billing/db database backup' }).check();
    await view.getByRole('checkbox', { name: 'Choose store/orders database backup' }).check();
    await view.getByRole('button', { name: 'Run 2 backups' }).click();
    await answerInMain(confirmations, { title: 'Run 2 backups now on 2 panels' });
    await expect(rows.filter({ hasText: 'billing/db' }).locator('td.backup-outcome')).toHaveText('Started');
    await expect(rows.filter({ hasText: 'store/orders' }).locator('td.backup-outcome')).toHaveText('Started');
    expect(billing.backups.runs).toEqual([{ kind: 'database', id: 'db-nightly' }]);
    expect(storefront.backups.runs).toEqual([{ kind: 'database', id: 'orders-hourly' }]);
    await checkScreenThreeSizes(page, 'backups-run');

    // Refresh reads the runs just made.
    await view.getByRole('button', { name: 'Refresh' }).click();
    await expect(view.getByRole('status')).toHaveText('3 schedules, 2 databases without a backup');
  } finally {
    await Promise.all(panels.map((panel) => panel.close()));
  }
});
