import { startReferencePanel, DEMO_USER, type ReferencePanel } from '../support/reference-panel/server.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';
import type { Page } from '@playwright/test';

/**
 * Service actions from the window against a 2.33 reference panel: the confirmation says what
 * happens to which service on which panel and asks once; on a red (production) panel a stop or a
 * deploy asks for the service's name to be typed; the outcome is the window's notice (done, the
 * panel's words for a failure, unknown for a lost answer); a deploy under way reads as deploying.
 */

let panel: ReferencePanel;
test.beforeEach(async () => {
  panel = await startReferencePanel({ style: 'easypanel' });
  panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  panel.services.addService({ projectName: 'shop', name: 'db', type: 'postgres' });
});
test.afterEach(() => panel.close());

async function openActions(page: Page, name: string, service: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Panels' })
    .getByRole('treeitem', { name: new RegExp(name) })
    .click();
  await page.getByRole('button', { name: 'Actions', exact: true }).click();
  await page.getByRole('textbox', { name: 'Project' }).fill('shop');
  await page.getByRole('textbox', { name: 'Service', exact: true }).fill(service);
}

test('a stop asks once, saying what happens to which service on which panel; the outcome is a notice', async ({ page, launch }) => {
  const app = await launch(page);
  const { id } = await app.service.addPanel({ address: panel.url, name: 'Billing' });
  await app.service.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  await openActions(page, 'Billing', 'web');

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop shop/web?' });
  await expect(dialog).toContainText(`The panel stops shop/web on Billing (${panel.url}`);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await checkScreenBothSizes(page, 'service-actions-01-confirm-stop');
  await dialog.getByRole('button', { name: 'Stop web' }).click();
  await expect(page.locator('.window-notice')).toHaveText(/Stopped shop\/web on Billing\./);
  expect(panel.services.service('shop', 'web')?.replicas).toEqual({ actual: 0, desired: 0 });
  expect(panel.requests.filter((request) => request.path === '/api/stopAppService')).toHaveLength(1);
  await checkScreenBothSizes(page, 'service-actions-02-stopped');

  // A deploy that fails: the panel's words.
  panel.serviceActions.failDeploys('shop', 'web', { message: 'npm ERR! missing script: build' });
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  await page.getByRole('dialog', { name: 'Deploy shop/web?' }).getByRole('button', { name: 'Deploy web' }).click();
  await expect(page.locator('.window-notice')).toContainText('Deploy of shop/web on Billing failed');
  await expect(page.locator('.window-notice')).toContainText('npm ERR! missing script: build');
  await checkScreenBothSizes(page, 'service-actions-03-deploy-failed');
});

test('on a red panel, stop and deploy ask for the service name; a lost answer is said as unknown, the deploy as deploying meanwhile', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  const { id } = await app.service.addPanel({ address: panel.url, name: 'Shop production' });
  await app.service.updatePanel(id, { colour: 'red' });
  await app.service.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  await openActions(page, 'Shop production', 'web');

  panel.serviceActions.setDeployTime(1500);
  panel.serviceActions.loseNextAnswer('deployAppService');
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Deploy shop/web?' });
  const confirm = dialog.getByRole('button', { name: 'Deploy web' });
  await expect(dialog).toContainText('Shop production is marked red: production');
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Service name' }).fill('we');
  await expect(confirm).toBeDisabled();
  await checkScreenBothSizes(page, 'service-actions-04-red-typed-name');
  await dialog.getByRole('textbox', { name: 'Service name' }).fill('web');
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.locator('.window-notice')).toContainText('Deploy of shop/web on Shop production: outcome unknown.');
  await expect(page.locator('.window-notice')).toContainText('the deploy may still be running: check the service');
  expect(panel.requests.filter((request) => request.path === '/api/deployAppService')).toHaveLength(1);
  await checkScreenBothSizes(page, 'service-actions-05-unknown');

  // While a deploy runs, it reads as deploying and the buttons wait; a restart asks without a typed name, even here.
  panel.serviceActions.setDeployTime(8000);
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Service name' }).fill('web');
  await confirm.click();
  await expect(page.getByRole('status').filter({ hasText: 'deploying' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Restart', exact: true })).toBeDisabled();
  await checkScreenBothSizes(page, 'service-actions-06-deploying');
  await expect(page.locator('.window-notice')).toContainText('Deployed shop/web on Shop production.');
  await page.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Restart shop/web?' }).getByRole('textbox')).toHaveCount(0);

  const { entries } = await app.service.listActivity({ panelId: id });
  expect(entries.map((entry) => `${entry.what.action} ${entry.outcome}`)).toEqual(['deploy ok', 'deploy unknown']);
});
