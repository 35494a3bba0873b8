import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { addPanel, addProductionSignedInAndStaging, demo, expect, logIn, test } from './fixtures.ts';

/**
 * The window kept current by main's events: changes made in main, with no action in the page and
 * no reload, show at once; and the Preferences for the background checks save.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

test('a check in main signs the panel out on the page, without a click or a reload', async ({ page, launch, panelServer }) => {
  const app = await launch(page);
  await addProductionSignedInAndStaging(page, panelServer.url);
  await expect(nav(page).getByRole('treeitem', { name: /Production/ })).toContainText('Signed in');
  await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));

  // A check in main that reads a new session: the page shows it from main's cache.
  panelServer.setSessionBody({ user: { id: 'usr_1001', email: demo.email, name: 'Renamed Operator' } });
  expect((await app.core.checkPanels()).map((result) => result.ok)).toEqual([true]);
  await expect(page.locator('dl.summary')).toContainText('Renamed Operator');
  panelServer.setSessionBody(undefined);
  const callsBefore = app.calls.length;
  // Besides saving how the list looks (a write, a second after a change), the page asks main nothing.
  // The start summary ("Since you last looked") reads itself again when a check pass ends; it is
  // not how the window learns of the sign-out, which comes from the event alone.
  const asked = () =>
    app.calls.slice(callsBefore).filter((channel) => channel !== 'panelApi:updateSettings' && channel !== 'panelApi:getStartSummary');

  panelServer.expireAllTokens();
  const results = await app.core.checkPanels();
  expect(results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['UNAUTHORIZED']);

  await expect(page.getByRole('alert').filter({ hasText: 'Session expired or revoked' })).toBeVisible();
  await expect(nav(page).getByRole('treeitem', { name: /Production/ })).toContainText('Expired');
  await expect(page.getByRole('form', { name: 'Log in to Production' }).getByLabel('Email')).toHaveValue(demo.email);
  // The same document (no reload), and the page asked main for nothing: the event said it all.
  expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
  expect(asked()).toEqual([]);
  expect(app.events.some((event) => event.type === 'checkProgress')).toBe(true);
  await checkScreen(page, 'events-01-signed-out-by-a-check');

  // Changes from main to a panel that is not on screen show in the panel list too.
  const staging = (await app.core.listPanels()).find((panel) => panel.name === 'Staging');
  await app.core.updatePanel(staging!.id, { name: 'Staging EU' });
  await expect(nav(page)).toContainText('Staging EU');
  await app.core.removePanel(staging!.id);
  await expect(nav(page).getByRole('treeitem')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Production', level: 1 })).toBeVisible();
  expect(asked()).toEqual([]);
});

test('a panel added in main appears; the cached session shows at once while a fresh read runs', async ({ page, launch, panelServer }) => {
  const app = await launch(page);
  await addPanel(page, panelServer.url, 'Production');
  await logIn(page);
  await expect(page.locator('dl.summary')).toContainText(demo.email);

  await app.core.addPanel({ address: 'added-in-main.example.com', name: 'Added in main' });
  await expect(nav(page).getByRole('treeitem')).toHaveCount(2);
  await nav(page)
    .getByRole('treeitem', { name: /Added in main/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Added in main', level: 1 })).toBeVisible();

  // Back to Production with a slow panel: the session read earlier shows while the new read waits.
  panelServer.setFault('getSession', { kind: 'latency', ms: 1500 });
  await nav(page)
    .getByRole('treeitem', { name: /Production/ })
    .click();
  await expect(page.getByRole('button', { name: 'Refreshing…' })).toBeVisible();
  await expect(page.locator('dl.summary')).toContainText(demo.email);
  await expect(page.locator('.session-view').getByRole('status').first()).toHaveText(
    /^Refreshing; showing the session read (just now|1 min ago)…$/,
  );
  await checkScreen(page, 'events-02-cached-session-while-reading');
  await expect(page.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled({ timeout: 5000 });
  await expect(page.locator('.session-view').getByRole('status').first()).toHaveText(/^Checked just now$/);

  // Cancel stops a slow read: the session shown stays, with no error.
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled();
  await expect(page.locator('dl.summary')).toContainText(demo.email);
  await expect(page.locator('.session-view').getByRole('alert')).toHaveCount(0);
  panelServer.setFault('getSession', null);
});

test('a warning that the session ends soon shows in the header; a click on the notification selects its panel', async ({
  page,
  launch,
  panelServer,
}) => {
  const app = await launch(page);
  // A session of ten minutes: the watcher would warn at once with the default warning time.
  panelServer.setTokenTtl(10 * 60_000);
  await addProductionSignedInAndStaging(page, panelServer.url);
  const [production, staging] = await app.core.listPanels();
  expect(production?.sessionExpiresAt).toBeTruthy();

  await app.sendEvent({ type: 'focusPanel', panelId: staging!.id });
  await expect(page.getByRole('heading', { name: 'Staging', level: 1 })).toBeVisible();
  await app.sendEvent({ type: 'focusPanel', panelId: production!.id });
  await expect(page.getByRole('heading', { name: 'Production', level: 1 })).toBeVisible();

  // Said as the expiry watcher says it.
  await app.sendEvent({ type: 'sessionExpiring', panelId: production!.id, expiresAt: production!.sessionExpiresAt! });
  await expect(page.locator('.panel-header')).toContainText(/Session ends in (9|10) min/);
  await checkScreen(page, 'events-03-session-ends-soon');
  // An unknown panel is ignored, and nothing breaks.
  await app.sendEvent({ type: 'focusPanel', panelId: '00000000-0000-4000-8000-000000000000' });
  await expect(page.getByRole('heading', { name: 'Production', level: 1 })).toBeVisible();

  // Logging out ends the warning with the session.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.locator('.panel-header')).not.toContainText('Session ends');
});

test('Preferences: background checks save, and a value main refuses is shown at its field', async ({ page, launch }) => {
  const app = await launch(page);
  await page.getByRole('button', { name: 'Preferences' }).click();
  const preferences = page.getByRole('dialog', { name: 'Preferences' });
  const interval = preferences.getByLabel('Check interval');
  const atOnce = preferences.getByLabel('Checks at once');
  const warning = preferences.getByLabel('Expiry warning');
  const notify = preferences.getByLabel('Also warn with a system notification');
  const save = preferences.getByRole('button', { name: 'Save', exact: true });
  await expect(interval).toHaveValue('5');
  await expect(atOnce).toHaveValue('16');
  await expect(warning).toHaveValue('10');
  await expect(notify).toBeChecked();
  await expect(save).toBeDisabled();
  await checkScreen(page, 'events-04-preferences');

  await atOnce.fill('100');
  await interval.fill('');
  await save.click();
  // Main names the first setting it refuses, and the message goes under that field.
  await expect(atOnce).toHaveAccessibleDescription(/Checks at once must be at most 64/);
  await expect(atOnce).toHaveAttribute('aria-invalid', 'true');
  await checkScreen(page, 'events-05-preferences-invalid');
  await atOnce.fill('8');
  await save.click();
  await expect(interval).toHaveAccessibleDescription(/Check interval must be a number/);
  await expect(interval).toHaveAttribute('aria-invalid', 'true');
  await expect(atOnce).not.toHaveAttribute('aria-invalid', 'true');
  expect((await app.core.getAppStatus()).settings.checkConcurrency).toBe(16);

  await interval.fill('0');
  await warning.fill('30');
  await notify.uncheck();
  await save.click();
  await expect(preferences.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(atOnce).not.toHaveAttribute('aria-invalid', 'true');
  expect((await app.core.getAppStatus()).settings).toMatchObject({
    checkIntervalMinutes: 0,
    checkConcurrency: 8,
    expiryWarningMinutes: 30,
    notifyBeforeExpiry: false,
  });
  await checkScreen(page, 'events-06-preferences-saved');

  await preferences.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Preferences' }).click();
  await expect(interval).toHaveValue('0');
  await expect(atOnce).toHaveValue('8');
  await expect(warning).toHaveValue('30');
  await expect(notify).not.toBeChecked();
});

test("an update main downloaded: the window says so, restarts only on the operator's word, or later", async ({ page, launch }) => {
  let installs = 0;
  const app = await launch(page, {
    core: {
      installUpdate: () => {
        installs++;
        return true;
      },
    },
  });
  await app.core.addPanel({ address: 'one.example.com', name: 'One' });
  await expect(nav(page).getByRole('treeitem', { name: /One/ })).toBeVisible();
  await app.sendEvent({ type: 'updateReady', version: '0.2.0' });
  const notice = page.getByRole('status').filter({ hasText: 'Update ready: restart to install' });
  await expect(notice).toContainText('Paneldeck 0.2.0 is downloaded. It also installs the next time you quit.');
  await checkScreen(page, 'events-05-update-ready');
  // Main says it once: a reload of the page (not a restart of Paneldeck) still shows it.
  await page.reload();
  await expect(nav(page).getByRole('treeitem', { name: /One/ })).toBeVisible();
  await expect(notice).toContainText('Paneldeck 0.2.0 is downloaded.');
  expect(installs, 'never by itself').toBe(0);
  await notice.getByRole('button', { name: 'Restart now' }).click();
  await expect(notice.getByRole('button', { name: 'Restarting…' })).toBeDisabled();
  expect(installs).toBe(1);
});
