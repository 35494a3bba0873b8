import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Alert } from '../../shared/alerts.ts';
import { DEMO_USER, startReferencePanel } from '../support/reference-panel/server.ts';
import { expect, test } from './fixtures.ts';
import { checkScreen, checkScreenBothSizes, checkScreenThreeSizes } from './screens.ts';

/**
 * The Alerts view: the alerts main raised, newest first, from the View menu, the palette and the panel list; a
 * crash seen by a real check arrives on top while the view is open; the search; a row and a
 * notification's click open the panel at the alert's tab.
 */

const KINDS = [
  ['serviceDown', 'services', (n: number) => `The service shop/web-${n % 9} is down on Shop ${n % 5}.`],
  ['diskFull', 'overview', (n: number) => `The disk of Shop ${n % 5} is ${91 + (n % 8)}% full (alert at 90%).`],
  ['unreachable', 'session', (n: number) => `Shop ${n % 5} stopped answering: it could not be reached.`],
  ['sessionEnding', 'session', (n: number) => `The session of Shop ${n % 5} ends in 9 minutes. Log in again to keep working.`],
] as const;

/**
 * 499 older alerts of panels removed since, as a long-used Paneldeck of before resolved and
 * acknowledged alerts leaves them (without those fields): with the new one, the list's bound of 500.
 */
function seedAlerts(dataDir: string): void {
  const base = Date.now() - 499 * 20 * 60_000;
  const alerts: Omit<Alert, 'service' | 'host' | 'resolvedAt' | 'acknowledgedAt'>[] = Array.from({ length: 499 }, (_, n) => {
    const [kind, tab, message] = KINDS[n % KINDS.length]!;
    return {
      id: `seed-${n}`,
      at: new Date(base + n * 20 * 60_000).toISOString(),
      panelId: `00000000-0000-4000-8000-${String(n % 5).padStart(12, '0')}`,
      panelName: `Shop ${n % 5}`,
      kind,
      message: message(n),
      tab,
    };
  });
  writeFileSync(join(dataDir, 'alerts.json'), JSON.stringify({ version: 1, alerts }), { mode: 0o600 });
}

test('the Alerts view: from the menu and the palette, a crash arrives on top, search, and a row or a notification opens the panel at its tab', async ({
  page,
  launch,
  dataDir,
}) => {
  seedAlerts(dataDir);
  const panelServer = await startReferencePanel({ style: 'public', demoProjects: 1 });
  try {
    const app = await launch(page);
    const panel = await app.core.addPanel({ address: panelServer.url, name: 'Billing' });
    await app.core.logIn(panel.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    // The first check is the baseline: what is down already raises nothing.
    await app.core.checkPanels([panel.id]);

    // The View menu's Alerts.
    await app.sendEvent({ type: 'runCommand', command: 'alerts' });
    const view = page.getByRole('region', { name: 'Alerts', exact: true });
    await expect(view.getByRole('status')).toHaveText('499 alerts');
    // The alerts' rows, not the headings of their groups.
    const rows = view.getByRole('listitem').filter({ hasNot: page.getByRole('heading') });
    expect(await rows.count()).toBeLessThan(40);

    // A service crashes: the next check raises one alert, on top, while the view is open.
    const [running] = panelServer.services.services().filter((service) => service.enabled && service.replicas?.actual);
    panelServer.services.crashService(running!.projectName, running!.name);
    await app.core.checkPanels([panel.id]);
    await app.core.checkPanels([panel.id]);
    await expect(view.getByRole('status')).toHaveText('500 alerts');
    await expect(rows.first()).toContainText('Service down');
    await expect(rows.first()).toContainText(`${running!.projectName}/${running!.name}`);
    await expect(rows.first()).toContainText('Billing');
    await checkScreenThreeSizes(page, 'alerts-01-list');

    // Search: every word in kind, message and panel.
    await view.getByRole('searchbox', { name: 'Search the alerts' }).fill('disk shop 3');
    await expect(view.getByRole('status')).toContainText('of 500 alerts');
    await expect(rows.first()).toContainText('Disk nearly full');
    await expect(rows.first()).toContainText('Shop 3');
    await checkScreenBothSizes(page, 'alerts-02-search');
    await view.getByRole('searchbox', { name: 'Search the alerts' }).fill('');

    // The row opens its panel at Services.
    await rows.first().getByRole('button', { name: 'Open Billing at Services' }).click();
    await expect(view).toBeHidden();
    await expect(page.getByRole('button', { name: 'Services', exact: true })).toHaveAttribute('aria-pressed', 'true');

    // The palette's Alerts; then a notification clicked: the panel at Overview.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('alerts');
    await page.keyboard.press('Enter');
    await expect(view).toBeVisible();
    await app.sendEvent({ type: 'focusPanel', panelId: panel.id, tab: 'overview' });
    await expect(view).toBeHidden();
    await expect(page.getByRole('button', { name: 'Overview', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await checkScreen(page, 'alerts-03-notification-opens-overview');

    // The panel list's Alerts button opens the view and closes it again, as Activity's does.
    const button = page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Alerts', exact: true });
    await button.click();
    await expect(view).toBeVisible();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await button.click();
    await expect(view).toBeHidden();
  } finally {
    await panelServer.close();
  }
});

test('Preferences: the disk threshold and which alerts notify, saved; a threshold out of bounds refused at its field', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  await page.getByRole('button', { name: 'Preferences' }).click();
  const preferences = page.getByRole('dialog', { name: 'Preferences' });
  const threshold = preferences.getByLabel('Disk alert threshold');
  await expect(threshold).toHaveValue('90');
  await threshold.fill('100');
  await preferences.getByRole('button', { name: 'Done' }).click();
  await expect(threshold).toHaveAccessibleDescription(/Disk alert threshold must be at most 99/);
  await threshold.fill('95');
  // The refusal was of 100: beside 95 it would say the wrong thing.
  await expect(threshold).not.toHaveAccessibleDescription(/must be at most 99/);
  await preferences.getByRole('checkbox', { name: 'A service goes down' }).uncheck();
  await threshold.scrollIntoViewIfNeeded();
  await checkScreen(page, 'alerts-04-preferences');
  await preferences.getByRole('button', { name: 'Done' }).click();
  await expect(preferences).toBeHidden();
  const { settings } = await app.core.getAppStatus();
  expect([settings.diskAlertPercent, settings.notifyServiceDown, settings.notifyDiskFull, settings.notifyUnreachable]).toEqual([
    95,
    false,
    true,
    true,
  ]);
});

/** How an element sits in its row: outside the row's box, or cut short of its own text. */
async function cutOrOutside(element: import('@playwright/test').Locator, row: import('@playwright/test').Locator): Promise<string | null> {
  const [box, rowBox] = [await element.boundingBox(), await row.boundingBox()];
  if (!box || !rowBox) return 'not shown';
  if (box.y < rowBox.y - 0.5 || box.y + box.height > rowBox.y + rowBox.height + 0.5)
    return `outside the row's height (${box.y}–${box.y + box.height} in ${rowBox.y}–${rowBox.y + rowBox.height})`;
  if (box.x + box.width > rowBox.x + rowBox.width + 0.5) return "past the row's right edge";
  const clipped = await element.evaluate((node) => node.scrollWidth > node.clientWidth + 1);
  return clipped ? `cut (${Math.round(box.width)} px shown)` : null;
}

test('the Alerts view beside the table at 900x600 and 1280x800: each message and button whole, inside its row', async ({
  page,
  launch,
  dataDir,
}) => {
  seedAlerts(dataDir);
  await page.setViewportSize({ width: 900, height: 600 });
  const panelServer = await startReferencePanel({ style: 'public', demoProjects: 1 });
  try {
    const app = await launch(page);
    const panel = await app.core.addPanel({ address: panelServer.url, name: 'Billing' });
    await app.core.logIn(panel.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    await app.core.checkPanels([panel.id]);
    const [running] = panelServer.services.services().filter((service) => service.enabled && service.replicas?.actual);
    panelServer.services.crashService(running!.projectName, running!.name);
    await app.core.checkPanels([panel.id]);
    await app.core.checkPanels([panel.id]);
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Table', exact: true }).click();
    await app.sendEvent({ type: 'runCommand', command: 'alerts' });
    const view = page.getByRole('region', { name: 'Alerts', exact: true });
    await expect(view.getByRole('status')).toHaveText('500 alerts');
    for (const size of [
      { width: 900, height: 600 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size);
      const row = view
        .getByRole('listitem')
        .filter({ hasNot: page.getByRole('heading') })
        .first();
      await expect(row).toContainText('Billing');
      const problems: string[] = [];
      for (const [name, element] of [
        ['message', row.locator('.activity-what')],
        ['Acknowledge', row.getByRole('button', { name: 'Acknowledge' })],
        ['Open', row.getByRole('button', { name: /^Open Billing/ })],
      ] as const) {
        const problem = await cutOrOutside(element, row);
        if (problem) problems.push(`${name}: ${problem}`);
      }
      expect(problems, `at ${size.width}x${size.height}`).toEqual([]);
    }
    await checkScreenThreeSizes(page, 'alerts-05-beside-the-table');
  } finally {
    await panelServer.close();
  }
});
