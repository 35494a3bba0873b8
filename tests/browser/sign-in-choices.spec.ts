import { checkScreen, rendererContents } from './screens.ts';
import { addPanel, demo, expect, logIn, test } from './fixtures.ts';
import { startReferencePanel } from '../support/reference-panel/server.ts';

/**
 * The log in form's choices, as an operator meets them: "Keep me signed in" (on by default, sent
 * as rememberMe, the panel's longer session shown), Log in again on a signed-in panel, and
 * "Use an API token instead" (a refused token, an accepted one marked in the list and the header,
 * and the log out that says the token stays valid). The pasted token never reaches the window.
 */

const DAY = 24 * 60 * 60 * 1000;

test('keep me signed in, log in again, and signing in with an API token', async ({ page, launch }) => {
  const panelServer = await startReferencePanel({ style: 'public', rememberMeTtlMs: 30 * DAY });
  try {
    const app = await launch(page);
    await addPanel(page, panelServer.url, 'Production');
    const form = page.getByRole('form', { name: 'Log in to Production' });
    const keep = form.getByRole('checkbox', { name: /Keep me signed in/ });
    await expect(keep).toBeChecked();
    await form.getByLabel('Email').fill(demo.email);
    await checkScreen(page, '40-log-in-keep-signed-in');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '40-log-in-keep-signed-in-full-hd');
    await page.setViewportSize({ width: 900, height: 600 });

    await logIn(page);
    const summary = page.locator('dl.summary');
    await expect(summary.locator('.summary-row').first()).toContainText(/^Expiresin (29|30) days/);
    const bodies = panelServer.requests.filter((request) => request.path === '/api/login').map((request) => JSON.parse(request.body));
    expect(bodies).toEqual([{ ...demo, rememberMe: true }]);

    // Log in again while signed in: the same form, with Cancel; the session stays until it worked.
    await page.getByRole('button', { name: 'Log in again' }).click();
    const again = page.getByRole('form', { name: 'Log in again to Production' });
    await expect(again.getByText('You stay signed in until the new log in has worked.')).toBeVisible();
    await again.getByLabel('Password').fill(demo.password);
    await checkScreen(page, '41-log-in-again');
    await again.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(again).toBeHidden();
    await expect(summary).toBeVisible();
    await expect.poll(() => panelServer.logouts.length).toBe(1);

    // Log out, then sign in with an API token: a wrong one first.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
    await page.getByRole('button', { name: 'Use an API token instead' }).click();
    const tokenForm = page.getByRole('form', { name: 'Log in to Production' });
    const tokenField = tokenForm.getByLabel('API token');
    await expect(tokenField).toBeFocused();
    await expect(tokenField).toHaveAttribute('type', 'password');
    const wrong = 'f'.repeat(64);
    await tokenField.fill(wrong);
    await tokenForm.getByRole('button', { name: 'Sign in with this token' }).click();
    await expect(tokenForm.getByRole('alert')).toContainText('The panel refused this API token');
    await expect(tokenField).toHaveValue('');
    await expect(tokenField).toHaveAttribute('aria-invalid', 'true');
    await checkScreen(page, '42-api-token-refused');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '42-api-token-refused-full-hd');
    await page.setViewportSize({ width: 900, height: 600 });

    const token = panelServer.createApiToken();
    await tokenField.fill(token);
    await tokenForm.getByRole('button', { name: 'Sign in with this token' }).click();
    await expect(page.locator('.panel-header')).toContainText('API token');
    const row = page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem', { name: /Production/ });
    await expect(row).toContainText('API token');
    await expect(page.locator('.expiry-badge')).toHaveCount(0);
    // The session answer's far-off date is not shown as an end: an API token has none.
    await expect(summary.locator('.summary-row').first()).toContainText('An API token: it does not expire');
    await expect(summary).not.toContainText('Expires');
    await expect(summary).not.toContainText(demo.email);
    await checkScreen(page, '43-api-token-signed-in');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '43-api-token-signed-in-full-hd');
    await page.setViewportSize({ width: 900, height: 600 });

    // Log out: forgotten here, the panel not asked, and the operator told the token stays valid.
    const logoutsBefore = panelServer.logouts.length;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
    await expect(page.getByRole('alert').filter({ hasText: 'Logged out: the API token is still valid' })).toContainText(
      'stays valid until it is revoked in Easypanel',
    );
    await checkScreen(page, '44-api-token-logged-out');
    expect(panelServer.logouts.length).toBe(logoutsBefore);

    const contents = await rendererContents(page);
    for (const secret of [token, wrong, ...panelServer.issuedTokens()]) {
      expect(contents.includes(secret), 'token left in the renderer').toBe(false);
      expect(JSON.stringify(app.answers).includes(secret), 'token sent to the renderer').toBe(false);
    }
  } finally {
    await panelServer.close();
  }
});
