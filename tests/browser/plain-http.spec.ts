import { checkScreen } from './screens.ts';
import { expect, test } from './fixtures.ts';

// A documentation address (TEST-NET-3): the test adds the panel and never contacts it.
const address = 'http://203.0.113.7:3000';

test('plain http:// to another computer: refused until chosen, then "Not encrypted" in the list and the header', async ({
  page,
  launch,
}) => {
  await launch(page);
  await page.getByRole('button', { name: 'Add panel' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add panel' });
  await dialog.getByLabel('Address').fill(address);
  await dialog.getByLabel('Name (optional)').fill('Fresh install');
  await dialog.getByRole('button', { name: 'Add panel' }).click();
  await expect(dialog.getByLabel('Address')).toHaveAccessibleDescription(/Allow unencrypted HTTP/);

  const choice = dialog.getByRole('checkbox', { name: /Allow unencrypted HTTP/ });
  await choice.check();
  await checkScreen(page, '24-add-panel-plain-http');
  await dialog.getByRole('button', { name: 'Add panel' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.locator('.panel-header .plain-http-badge')).toHaveText('Not encrypted');
  await expect(page.getByRole('navigation').locator('.plain-http-badge')).toHaveText('Not encrypted');
  await expect(page.locator('form.login-form')).toContainText('Not encrypted: this panel is reached over plain HTTP');
  await checkScreen(page, '25-not-encrypted-badge');

  // Taking the choice back needs an https:// address; with one, the badge goes.
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('form', { name: /settings/i });
  await settings.getByRole('checkbox', { name: /Allow unencrypted HTTP/ }).uncheck();
  await settings.getByRole('button', { name: 'Save changes' }).click();
  await expect(settings.getByLabel('Address')).toHaveAccessibleDescription(/Allow unencrypted HTTP/);
  await settings.getByLabel('Address').fill('https://203.0.113.7');
  await settings.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('.panel-header')).toContainText('203.0.113.7');
  await expect(page.locator('.plain-http-badge')).toHaveCount(0);
});
