import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_USER, startReferencePanel } from '../support/reference-panel/server.ts';
import { DASHBOARD_USER } from '../support/reference-panel/service-actions-state.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * The Activity view as one timeline: Paneldeck's own log ins beside what each panel's actions
 * history says (a colleague's restart in the dashboard, an API token's deploy, the panel's own
 * work), each with who; filtered by who and kind; saved as CSV in the order shown.
 */

const SYSTEM = { userEmail: null, isApiAction: false, isSystemAction: true };
const API = { userEmail: 'ci@paneldeck.test', isApiAction: true, isSystemAction: false };

test('the timeline says who did what on each panel, filters by who and kind, and saves what it shows as CSV', async ({
  page,
  launch,
  dataDir,
}) => {
  const csvFile = join(dataDir, '..', `activity-${Date.now()}.csv`);
  // Two generations: 2.33's public API, 2.32's RPC.
  const billing = await startReferencePanel({ style: 'public' });
  const shop = await startReferencePanel({ style: 'rpc' });
  try {
    const app = await launch(page, { core: { chooseExportFile: async () => csvFile } });
    for (const [server, name] of [
      [billing, 'Billing'],
      [shop, 'Shop'],
    ] as const) {
      server.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
      server.services.addService({ projectName: 'shop', name: 'db', type: 'postgres' });
      const { id } = await app.core.addPanel({ address: server.url, name });
      await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    }
    const done = (server: typeof shop, ...begun: Parameters<typeof shop.serviceActions.beginAction>) =>
      server.serviceActions.finishAction(server.serviceActions.beginAction(...begun), 'done');
    done(shop, 'shop', 'web', 'restart');
    done(shop, 'shop', 'web', 'build', API);
    done(billing, 'shop', 'db', 'start', SYSTEM);
    shop.serviceActions.finishAction(shop.serviceActions.beginAction('shop', 'db', 'stop'), 'error');
    await app.core.checkPanels();

    await page.getByRole('button', { name: 'Activity' }).click();
    const view = page.getByRole('region', { name: 'Activity' });
    await expect(view.getByRole('status')).toHaveText('6 entries');
    const rows = view.getByRole('listitem');
    // (Actions begun in the same millisecond may come in either order: each is found by what it says.)
    const stop = rows.filter({ hasText: 'Stop shop/db' });
    await expect(stop).toContainText('Failed');
    await expect(stop).toContainText(DASHBOARD_USER.userEmail ?? '');
    await expect(stop).toContainText('Shop');
    await expect(rows.filter({ hasText: 'Build shop/web' })).toContainText(`API (${API.userEmail})`);
    await expect(rows.filter({ hasText: 'Start shop/db' })).toContainText('system');
    await expect(rows.filter({ hasText: 'Log in' })).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Log in' }).first()).toContainText('Paneldeck');
    await checkScreenBothSizes(page, 'timeline-01-who-did-what');

    // Who: the colleague's two actions on Shop.
    await view.getByRole('combobox', { name: 'Who' }).selectOption(DASHBOARD_USER.userEmail ?? '');
    await expect(view.getByRole('status')).toHaveText('2 of 6 entries');
    await expect(rows).toHaveCount(2);
    // And a kind: the stop alone.
    await view.getByRole('combobox', { name: 'Kind' }).selectOption('stop');
    await expect(view.getByRole('status')).toHaveText('1 of 6 entries');
    await checkScreenBothSizes(page, 'timeline-02-filtered');

    // Saved as CSV: the rows shown, in that order, each who as the list says it.
    await view.getByRole('combobox', { name: 'Kind' }).selectOption('');
    await view.getByRole('button', { name: 'Save as CSV…' }).click();
    await expect(view.getByText(`Saved 2 entries as CSV to ${csvFile}, in the order shown.`)).toBeVisible();
    const lines = (await readFile(csvFile, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('When (UTC),Panel,Project,Service,What,Outcome,Who,Recorded by,Message');
    const shown = await rows.locator('.activity-what').allTextContents();
    expect(lines.slice(1).map((line) => line.split(',')[4])).toEqual(shown);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',').slice(1, 8).join(','))
        .sort(),
    ).toEqual([
      `Shop,shop,db,Stop shop/db,Failed,${DASHBOARD_USER.userEmail},the panel`,
      `Shop,shop,web,Restart shop/web,Done,${DASHBOARD_USER.userEmail},the panel`,
    ]);
  } finally {
    await Promise.all([shop.close(), billing.close()]);
  }
});
