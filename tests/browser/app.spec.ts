import { checkScreen, rendererContents } from './screens.ts';
import { addPanel, addProductionSignedInAndStaging, demo, expect, logIn, test } from './fixtures.ts';
import { testEncryption } from '../support/helpers.ts';

test('empty state, a bad address refused under the field, then two panels in the panel list', async ({ page, launch, panelServer }) => {
  await launch(page);
  await expect(page.getByRole('heading', { name: 'Add your first panel' })).toBeVisible();
  await checkScreen(page, '01-empty-state');

  await page.getByRole('button', { name: 'Add panel' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Add panel' });
  await expect(dialog.getByLabel('Address')).toBeFocused();
  await dialog.getByLabel('Address').fill('http://panel.example.com');
  await dialog.getByLabel('Address').press('Enter');
  await expect(dialog.getByLabel('Address')).toHaveAccessibleDescription(/Use https:\/\/ for this address/);
  await expect(dialog.getByLabel('Address')).toHaveAttribute('aria-invalid', 'true');
  await checkScreen(page, '02-add-panel-invalid-address');

  await dialog.getByLabel('Address').press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Add panel' }).last()).toBeFocused();

  await addPanel(page, panelServer.url, 'Production');
  await addPanel(page, 'panel.example.com');
  const list = page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem');
  await expect(list).toHaveCount(2);
  // Sorted by name (the default order), not in the order they were added.
  await expect(list.nth(0)).toContainText('panel.example.com');
  await expect(list.nth(0)).toContainText('New');
  await expect(list.nth(1)).toContainText('Production');
  await expect(list.nth(1)).toContainText(panelServer.url.replace('http://', ''));
  // The new panel is selected, its login form ready with the cursor in it.
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByRole('heading', { name: 'panel.example.com', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add panel' }).first().click();
  await dialog.getByLabel('Address').fill('https://PANEL.example.com/api');
  await dialog.getByRole('button', { name: 'Add panel' }).click();
  await expect(dialog.getByLabel('Address')).toHaveAccessibleDescription(/panel\.example\.com is already in your list/);
  await expect(dialog.getByLabel('Address')).toBeFocused();
  await checkScreen(page, '03-add-panel-duplicate');
});

test('wrong password, then the right one: the session shows the email, and the token is nowhere in the renderer', async ({
  page,
  launch,
  panelServer,
}) => {
  const app = await launch(page);
  await addPanel(page, panelServer.url, 'Production');
  await logIn(page, 'not-the-password');
  const form = page.getByRole('form', { name: 'Log in to Production' });
  await expect(form.getByRole('alert')).toContainText('did not accept this email and password');
  await expect(form.getByLabel('Password')).toHaveValue('');
  await expect(form.getByLabel('Email')).toHaveValue(demo.email);
  await checkScreen(page, '04-login-wrong-password');

  await logIn(page);
  const summary = page.locator('dl.summary');
  await expect(summary).toContainText(demo.email);
  await expect(summary).toContainText('Demo Operator');
  // When it ends comes first, as time left.
  await expect(summary.locator('.summary-row').first()).toContainText(/^Expiresin (59 min|1 h) \(/);
  await expect(page.getByRole('navigation', { name: 'Panels' })).toContainText('Signed in');
  await expect(page.locator('.json-tree')).toContainText('hidden by Paneldeck');
  // Values under secret-looking keys are masked in the tree.
  await expect(page.locator('.json-tree')).toContainText('sessionKey: •••••••• (hidden)');
  await expect(page.locator('.json-tree')).not.toContainText('sk-demo-not-a-real-key');
  await checkScreen(page, '05-session');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, '05-session-full-hd');
  await page.emulateMedia({ colorScheme: 'dark' });
  await checkScreen(page, '05-session-full-hd-dark');

  await page.context().grantPermissions(['clipboard-read'], { origin: new URL(page.url()).origin });
  await page.getByRole('button', { name: 'Copy as JSON' }).click();
  await expect(page.getByText('Copied (secret values stay masked).')).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
    user: { email: string };
    request: { value: string };
  };
  expect(copied.user.email).toBe(demo.email);
  expect(copied.request.value).toMatch(/^\[hidden by Paneldeck/);

  const tokens = panelServer.issuedTokens();
  expect(tokens).toHaveLength(1);
  const contents = await rendererContents(page);
  expect(contents.length).toBeGreaterThan(1000);
  expect(contents).toContain(demo.email);
  for (const token of tokens) {
    expect(contents.includes(token), 'token found in the renderer').toBe(false);
    expect(JSON.stringify(app.answers).includes(token), 'token sent to the renderer').toBe(false);
    expect(JSON.stringify(app.answers).includes(demo.password), 'password sent to the renderer').toBe(false);
  }
});

test('the server expires the token: Refresh shows the expired state with the email, and logging in again works', async ({
  page,
  launch,
  panelServer,
}) => {
  await launch(page);
  await addPanel(page, panelServer.url, 'Production');
  await logIn(page);
  await expect(page.locator('dl.summary')).toContainText(demo.email);

  panelServer.expireAllTokens();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Session expired or revoked' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Log in to Production' });
  await expect(form.getByLabel('Email')).toHaveValue(demo.email);
  await expect(form.getByLabel('Password')).toBeFocused();
  await expect(page.getByRole('navigation', { name: 'Panels' })).toContainText('Expired');
  await checkScreen(page, '06-session-expired');

  await form.getByLabel('Password').fill(demo.password);
  await form.getByLabel('Password').press('Enter');
  await expect(page.locator('dl.summary')).toContainText(demo.email);
  await expect(page.getByText('Session expired or revoked')).toBeHidden();
});

test('a login path the panel does not have: the error links to the Advanced settings, which fix it', async ({
  page,
  launch,
  panelServer,
}) => {
  await launch(page);
  await addPanel(page, panelServer.url, 'Production');
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByText('Advanced').click();
  await page.getByLabel('Login path').fill('/auth/sign-in');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
  await logIn(page);
  const alert = page.getByRole('form', { name: 'Log in to Production' }).getByRole('alert');
  await expect(alert).toContainText('/auth/sign-in');
  await checkScreen(page, '07-login-path-not-found');

  await alert.getByRole('button', { name: /Open this panel.s settings/ }).click();
  await expect(page.getByLabel('Login path')).toBeVisible();
  await page.getByLabel('Login path').fill('');
  await checkScreen(page, '08-settings-advanced');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
  await logIn(page);
  await expect(page.locator('dl.summary')).toContainText(demo.email);
});

test('rename, log out and remove with confirmation', async ({ page, launch, panelServer }) => {
  const app = await launch(page);
  await addProductionSignedInAndStaging(page, panelServer.url);

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Name').fill('Production EU');
  await page.getByLabel('Name').press('Enter');
  await expect(page.getByRole('heading', { name: 'Production EU', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Panels' })).toContainText('Production EU');
  await checkScreen(page, '09-settings');

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByText('Signed out.')).toBeVisible();
  // The button is disabled now: focus moves to the line saying so, not to the page body.
  await expect(page.getByText('Signed out.')).toBeFocused();
  await expect(page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem', { name: /Production EU/ })).toContainText(
    'Signed out',
  );
  expect((await app.core.listPanels()).find((panel) => panel.name === 'Production EU')?.signedIn).toBe(false);

  // Logged in again, but the first session read fails: the old session must not come back.
  panelServer.setFault('getSession', { kind: 'server-error' });
  await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
  await logIn(page);
  await expect(page.locator('.session-view').getByRole('alert')).toContainText('HTTP 500');
  await expect(page.locator('dl.summary')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Panels' })).toContainText('State unknown');
  await checkScreen(page, '10-session-check-failed');
  panelServer.setFault('getSession', null);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();

  await page.getByRole('button', { name: 'Remove panel…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Production EU?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await checkScreen(page, '11-remove-confirmation');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem')).toHaveCount(2);

  await page.getByRole('button', { name: 'Remove panel…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove panel' }).click();
  await expect(page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Staging', level: 1 })).toBeVisible();
  // The list keeps the focus (one Tab stop) with the panel now shown as its selected row.
  await expect(page.getByRole('tree', { name: 'Panel list' })).toBeFocused();
  await expect(page.getByRole('treeitem', { name: /Staging/ })).toHaveAttribute('aria-selected', 'true');
  expect((await app.core.listPanels()).map((panel) => panel.name)).toEqual(['Staging']);
});

test('a restart (a second core on the same data directory) shows the same panels, still signed in', async ({
  browser,
  page,
  launch,
  panelServer,
}) => {
  const first = await launch(page);
  await addProductionSignedInAndStaging(page, panelServer.url);
  await page.close();

  const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
  const again = await context.newPage();
  await launch(again, { encryption: first.encryption });
  const list = again.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem');
  await expect(list).toHaveCount(2);
  await expect(list.nth(0)).toContainText('Signed in');
  // Staging was never logged in: new.
  await expect(list.nth(1)).toContainText('New');
  await expect(again.locator('dl.summary')).toContainText(demo.email);
  await checkScreen(again, '12-after-restart');
  await context.close();
});

test('without secure storage the session says the token is kept in memory only', async ({ page, launch, panelServer }) => {
  await launch(page, { encryption: testEncryption({ available: false }) });
  await addPanel(page, panelServer.url, 'Production');
  await logIn(page);
  await expect(page.getByText('no secure storage on this system')).toBeVisible();
  await checkScreen(page, '13-session-memory-only');
});
