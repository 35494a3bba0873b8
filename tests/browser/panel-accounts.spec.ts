import type { Page } from '@playwright/test';
import { DEMO_USER, type DemoUser, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { answerInMain, expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * A panel's accounts in its Session tab, against a 2.33 reference panel with two users: another
 * account is added with its email and password, chosen for writes, and a restart's confirmation in
 * main names it while the request goes with its token; removed, writes go as the panel's own
 * sign-in again. No token is ever in the page.
 */

const LIMITED: DemoUser = { id: 'usr_2001', email: 'shop-team@paneldeck.test', password: 'shop-password', name: 'Shop team', role: 'user' };

let panel: ReferencePanel;
test.beforeEach(async () => {
  panel = await startReferencePanel({ style: 'public', users: [DEMO_USER, LIMITED] });
  panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
});
test.afterEach(() => panel.close());

async function openTab(page: Page, tab: string): Promise<void> {
  await page.getByRole('button', { name: tab, exact: true }).click();
}

test('another account is added in the Session tab, chosen for writes and named by the write confirmation; removed, writes go as the panel own', async ({
  page,
  launch,
  confirmations,
}) => {
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panel.url, name: 'Billing' });
  await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  await page
    .getByRole('navigation', { name: 'Panels' })
    .getByRole('treeitem', { name: /Billing/ })
    .click();
  await openTab(page, 'Session');
  const accounts = page.getByRole('region', { name: 'Accounts' });
  await expect(accounts).toContainText(`Reads go as the panel's own sign-in (${DEMO_USER.email})`);
  await expect(accounts.getByRole('radio', { name: new RegExp(DEMO_USER.email) })).toBeChecked();

  // A wrong password: said, nothing kept, the field cleared.
  await accounts.getByRole('button', { name: 'Add an account…' }).click();
  await accounts.getByRole('textbox', { name: 'Email' }).fill(LIMITED.email);
  await accounts.getByLabel('Password', { exact: true }).fill('wrong');
  await accounts.getByRole('button', { name: 'Add account' }).click();
  await expect(accounts.getByRole('alert')).toContainText('The account was not added');
  await expect(accounts.getByLabel('Password', { exact: true })).toHaveValue('');
  await accounts.getByLabel('Password', { exact: true }).fill(LIMITED.password);
  await accounts.getByRole('button', { name: 'Add account' }).click();
  const limited = accounts.getByRole('radio', { name: LIMITED.email });
  await expect(limited).toBeVisible();
  await expect(accounts).toContainText('signed in');
  // Checked once main answered: the choice is main's, not the page's.
  await limited.click();
  await expect(limited).toBeChecked();
  await expect(page.locator('.panel-address')).toContainText(`Writes as ${LIMITED.email}`);
  await checkScreenBothSizes(page, 'panel-accounts-00-chosen-for-writes');

  const limitedToken = panel.issuedTokens().at(-1)!;
  const html = await page.content();
  for (const token of panel.issuedTokens()) expect(html).not.toContain(token);

  await openTab(page, 'Services');
  const table = page.getByRole('table', { name: 'Services' });
  await table.getByRole('button', { name: 'Actions for shop/web' }).click();
  await page.getByRole('menuitem', { name: 'Restart…' }).click();
  await answerInMain(confirmations, {
    title: 'Restart shop/web on Billing',
    inspect: async (asked) => {
      await expect(asked.getByRole('region', { name: 'What will be sent' })).toContainText(`as ${LIMITED.email}`);
    },
  });
  await expect(page.locator('.window-notice')).toHaveText(/Restarted shop\/web on Billing\./);
  const restart = panel.requests.filter(({ path }) => path === '/api/restartAppService');
  expect(restart.map(({ headers }) => headers.authorization)).toEqual([`Bearer ${limitedToken}`]);

  await openTab(page, 'Session');
  await accounts.getByRole('button', { name: `Remove ${LIMITED.email}` }).click();
  await expect(accounts.getByRole('radio')).toHaveCount(1);
  await expect(accounts.getByRole('radio', { name: new RegExp(DEMO_USER.email) })).toBeChecked();
  await expect(page.locator('.panel-address')).not.toContainText('Writes as');
});
