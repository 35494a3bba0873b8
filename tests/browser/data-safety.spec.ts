import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../../electron/core/index.ts';
import { testEncryption } from '../support/helpers.ts';
import { checkScreen } from './screens.ts';
import { addPanel, demo, expect, logIn, test } from './fixtures.ts';

test('a damaged panel list: the app starts with the panels it could read and says where the original is', async ({
  page,
  launch,
  dataDir,
}) => {
  // Two panels saved by a previous run, then one of them damaged on disk.
  const before = createCore({ dataDir, encryption: testEncryption() });
  await before.addPanel({ address: 'good.example.com', name: 'Good panel' });
  await before.addPanel({ address: 'broken.example.com', name: 'Broken panel' });
  const file = join(dataDir, 'panels.json');
  const document = JSON.parse(readFileSync(file, 'utf8'));
  document.panels[1].baseUrl = 42;
  writeFileSync(file, JSON.stringify(document));

  await launch(page);
  const notice = page.getByRole('alert').filter({ hasText: 'damaged file' });
  await expect(notice).toContainText('Panel list: 1 damaged panel entry in the panel list was skipped');
  await expect(notice.locator('code')).toHaveText(/panels\.corrupt-.*\.json$/);
  const copyPath = await notice.locator('code').textContent();
  expect(JSON.parse(readFileSync(copyPath!, 'utf8')).panels).toHaveLength(2);
  await expect(page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem')).toHaveCount(1);
  await expect(page.getByRole('navigation', { name: 'Panels' })).toContainText('Good panel');
  await checkScreen(page, '20-startup-damaged-panel-list');

  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();
});

test('a panel list that is not JSON at all: an empty list, never a blank window, and the moved file named', async ({
  page,
  launch,
  dataDir,
}) => {
  writeFileSync(join(dataDir, 'panels.json'), '{"version": 2, "panels": [{"id": ');
  await launch(page);
  const notice = page.getByRole('alert').filter({ hasText: 'damaged file' });
  await expect(notice).toContainText('not valid JSON');
  await expect(notice.locator('code')).toHaveText(/panels\.corrupt-.*\.json$/);
  await expect(page.getByRole('heading', { name: 'Add your first panel' })).toBeVisible();
  await checkScreen(page, '21-startup-panel-list-not-json');
});

test('keyring gone (gnome_libsecret to basic_text): the panel says why; weak protection only when the operator turns it on', async ({
  page,
  browser,
  launch,
  panelServer,
}) => {
  const encryption = testEncryption();
  await launch(page, { encryption });
  await addPanel(page, panelServer.url, 'Production');
  await logIn(page);
  await expect(page.locator('dl.summary')).toContainText(demo.email);

  // Next run: the keyring is gone, only the built-in key is left.
  encryption.backendName = 'basic_text';
  const secondContext = await browser.newContext({ viewport: { width: 900, height: 600 } });
  const second = await secondContext.newPage();
  await launch(second, { encryption });
  const form = second.getByRole('form', { name: 'Log in to Production' });
  await expect(second.getByRole('main')).toContainText('changed from gnome_libsecret to basic_text');
  await expect(form.getByLabel('Email')).toHaveValue(demo.email);
  await checkScreen(second, '22-keyring-gone-signed-out');

  await logIn(second);
  await expect(second.locator('dl.summary')).toContainText(demo.email);
  await second.getByRole('button', { name: 'Settings' }).click();
  await expect(second.getByRole('main')).toContainText('kept in memory only');

  await second.getByRole('button', { name: 'Preferences' }).click();
  const preferences = second.getByRole('dialog', { name: 'Preferences' });
  await expect(preferences).toContainText('no keyring (basic_text)');
  const weak = preferences.getByLabel('Store tokens with weak protection on this system');
  await expect(weak).not.toBeChecked();
  await checkScreen(second, '23-preferences-weak-protection');
  await weak.check();
  await expect(weak).toBeChecked();
  await preferences.getByRole('button', { name: 'Done' }).click();
  await expect(second.getByRole('main')).toContainText('saved on disk with weak protection');

  // And the run after: still signed in, from the weakly protected copy the operator asked for.
  const thirdContext = await browser.newContext({ viewport: { width: 900, height: 600 } });
  const third = await thirdContext.newPage();
  await launch(third, { encryption });
  await expect(third.getByRole('navigation', { name: 'Panels' })).toContainText('Signed in');
  await thirdContext.close();
  await secondContext.close();
});

test('with a keyring, the weak-protection choice is not offered', async ({ page, launch }) => {
  await launch(page);
  await page.getByRole('button', { name: 'Preferences' }).click();
  const preferences = page.getByRole('dialog', { name: 'Preferences' });
  await expect(preferences).toContainText('saved encrypted by your system’s keyring (gnome_libsecret)');
  await expect(preferences.getByLabel('Store tokens with weak protection on this system')).toBeDisabled();
  await preferences.getByRole('button', { name: 'Done' }).click();
  await expect(preferences).toBeHidden();
  await expect(page.getByRole('button', { name: 'Preferences' })).toBeFocused();
});
