import { startReferencePanel, DEMO_USER, seedDemoServices, type ReferencePanel } from '../support/reference-panel/server.ts';
import { answerInMain, expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';
import type { Locator, Page } from '@playwright/test';

/**
 * Service actions from the Services tab against a 2.33 reference panel, from a row's menu (the
 * Actions button, a right click, Shift+F10) or on a selection: main's own confirmation says what
 * it will send to which services on which panel and asks once (the window says which chosen
 * services it left out and why); on a red (production) panel the panel's name is typed there; the
 * outcome is the window's notice (done, the panel's words for a failure, unknown for a lost
 * answer) and each row's phase; a deploy under way reads as deploying.
 */

let panel: ReferencePanel;
test.beforeEach(async () => {
  panel = await startReferencePanel({ style: 'public' });
  panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  panel.services.addService({ projectName: 'shop', name: 'db', type: 'postgres' });
});
test.afterEach(() => panel.close());

async function openServices(page: Page, name: string): Promise<Locator> {
  await page
    .getByRole('navigation', { name: 'Panels' })
    .getByRole('treeitem', { name: new RegExp(name) })
    .click();
  await page.getByRole('button', { name: 'Services', exact: true }).click();
  const table = page.getByRole('table', { name: 'Services' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  return table;
}

/** The row of a service, by its project and name. */
function serviceRow(table: Locator, project: string, name: string): Locator {
  return table
    .getByRole('row')
    .filter({ has: table.page().getByRole('cell', { name: project, exact: true }) })
    .filter({ has: table.page().getByRole('cell', { name, exact: true }) });
}

/** Opens a service's row menu with its Actions button and chooses `item`. */
async function fromRowMenu(page: Page, table: Locator, service: string, item: string): Promise<void> {
  await table.getByRole('button', { name: `Actions for ${service}` }).click();
  await page.getByRole('menu', { name: service }).getByRole('menuitem', { name: item }).click();
}

test('a stop from the row menu asks once, in main, saying what is sent to which service on which panel; the outcome is a notice', async ({
  page,
  launch,
  confirmations,
}) => {
  panel.services.addService({ projectName: 'shop', name: 'files', type: 'box' });
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panel.url, name: 'Billing' });
  await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  const table = await openServices(page, 'Billing');

  // Each type offers only what it has: a database starts and stops (enable, disable), and a running one only
  // stops; a box has none. Each has its log; an app its deployments too.
  await table.getByRole('button', { name: 'Actions for shop/db' }).click();
  await expect(page.getByRole('menu', { name: 'shop/db' }).getByRole('menuitem')).toHaveText(['Stop (disable)…', 'Logs']);
  await page.keyboard.press('Escape');
  await serviceRow(table, 'shop', 'files').click({ button: 'right' });
  await expect(page.getByRole('menu', { name: 'shop/files' }).getByRole('menuitem')).toHaveText(['No actions for a box service', 'Logs']);
  await expect(page.getByRole('menuitem', { name: 'No actions for a box service' })).toBeDisabled();
  await page.keyboard.press('Escape');

  await table.getByRole('button', { name: 'Actions for shop/web' }).click();
  await expect(page.getByRole('menu', { name: 'shop/web' }).getByRole('menuitem')).toHaveText([
    'Deploy…',
    'Start…',
    'Stop…',
    'Restart…',
    'Deployments',
    'Logs',
  ]);
  await checkScreenBothSizes(page, 'service-actions-00-row-menu');
  await page.getByRole('menuitem', { name: 'Stop…' }).click();
  // The window asks nothing itself: main's confirmation does, once; a no sends nothing.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await answerInMain(confirmations, { title: 'Stop shop/web on Billing', cancel: true });
  await expect(page.locator('.window-notice')).toHaveText(/Stop not sent: it was not confirmed\./);
  await page.locator('.window-notice').getByRole('button', { name: 'Dismiss' }).click();
  await table.getByRole('button', { name: 'Actions for shop/web' }).click();
  await page.getByRole('menuitem', { name: 'Stop…' }).click();
  await answerInMain(confirmations, {
    title: 'Stop shop/web on Billing',
    inspect: async (asked) => {
      const sent = asked.getByRole('region', { name: 'What will be sent' });
      await expect(sent.getByRole('heading', { name: /Billing/ })).toContainText(new URL(panel.url).host);
      await expect(sent.getByRole('listitem')).toHaveText(['stop web in shopPOST /api/stopAppService']);
      await expect(asked.getByRole('button', { name: 'Stop', exact: true })).toBeFocused();
      expect(panel.requests.filter((request) => request.path === '/api/stopAppService')).toHaveLength(0);
      await checkScreenBothSizes(asked, 'service-actions-01-confirm-stop');
    },
  });
  await expect(page.locator('.window-notice')).toHaveText(/Stopped shop\/web on Billing\./);
  expect(panel.services.service('shop', 'web')?.replicas).toEqual({ actual: 0, desired: 0 });
  expect(panel.requests.filter((request) => request.path === '/api/stopAppService')).toHaveLength(1);
  await expect(serviceRow(table, 'shop', 'web')).toContainText('Stop done');
  // The table is read again once the action ended: the row says what the panel says now.
  await expect(serviceRow(table, 'shop', 'web')).toContainText('Stopped');
  await checkScreenBothSizes(page, 'service-actions-02-stopped');

  // A deploy that fails, chosen with a right click: the panel's words.
  panel.serviceActions.failDeploys('shop', 'web', { message: 'npm ERR! missing script: build' });
  await serviceRow(table, 'shop', 'web').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Deploy…' }).click();
  await answerInMain(confirmations, { title: 'Deploy shop/web on Billing' });
  await expect(page.locator('.window-notice')).toContainText('Deploy of shop/web on Billing failed');
  await expect(page.locator('.window-notice')).toContainText('npm ERR! missing script: build');
  await expect(serviceRow(table, 'shop', 'web')).toContainText('Deploy failed');
  await checkScreenBothSizes(page, 'service-actions-03-deploy-failed');
});

test('a read-only panel: its header and settings say so, and its services offer no action', async ({ page, launch, confirmations }) => {
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panel.url, name: 'Billing', readOnly: true });
  await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  const table = await openServices(page, 'Billing');
  await expect(page.locator('.panel-header')).toContainText('Read-only');
  await table.getByRole('button', { name: 'Actions for shop/web' }).click();
  const menu = page.getByRole('menu', { name: 'shop/web' });
  await expect(menu.getByRole('menuitem', { name: 'No actions: the panel is read-only' })).toBeDisabled();
  await expect(menu.getByRole('menuitem', { name: /Restart/ })).toHaveCount(0);
  // Its Deployments and Logs are reads: still there.
  await expect(menu.getByRole('menuitem', { name: 'Logs' })).toBeVisible();
  await checkScreenBothSizes(page, 'service-actions-20-read-only-menu');
  await page.keyboard.press('Escape');
  expect(confirmations.plans).toHaveLength(0);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: /Read-only: look, don't touch/ })).toBeChecked();
  await checkScreenBothSizes(page, 'service-actions-21-read-only-settings');
});

test('on a red panel, main asks for the panel name to be typed; a lost answer is said as unknown, the deploy as deploying meanwhile', async ({
  page,
  launch,
  confirmations,
}) => {
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panel.url, name: 'Shop production' });
  await app.core.updatePanel(id, { colour: 'red' });
  await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  const table = await openServices(page, 'Shop production');

  panel.serviceActions.setDeployTime(1500);
  panel.serviceActions.loseNextAnswer('deployAppService');
  // From the keyboard: the row's checkbox, then Shift+F10 opens its menu.
  await table.getByRole('checkbox', { name: 'Select shop/web' }).focus();
  await page.keyboard.press('Shift+F10');
  await page.getByRole('menu', { name: 'shop/web' }).getByRole('menuitem', { name: 'Deploy…' }).click();
  await answerInMain(confirmations, {
    title: 'Deploy shop/web on Shop production',
    inspect: async (asked) => {
      const confirm = asked.getByRole('button', { name: 'Deploy', exact: true });
      const typed = asked.getByLabel('Type Shop production to confirm');
      await expect(asked.getByText('Shop production is a production panel: type its name to confirm.')).toBeVisible();
      await expect(confirm).toBeDisabled();
      await typed.fill('web');
      await expect(confirm).toBeDisabled();
      await checkScreenBothSizes(asked, 'service-actions-04-red-typed-name');
    },
  });
  await expect(page.locator('.window-notice')).toContainText('Deploy of shop/web on Shop production: outcome unknown.');
  await expect(page.locator('.window-notice')).toContainText('the deploy may still be running: check the service');
  expect(panel.requests.filter((request) => request.path === '/api/deployAppService')).toHaveLength(1);
  await expect(serviceRow(table, 'shop', 'web')).toContainText('Deploy outcome unknown');
  await checkScreenBothSizes(page, 'service-actions-05-unknown');

  // While a deploy runs, it reads as deploying (here and after leaving the tab) and the menu waits;
  // a restart asks for the typed name too: main's one rule for a production panel.
  // It runs until the test ends it: a loaded machine's timers must not end it before it was seen.
  panel.serviceActions.setDeployTime(0);
  const endDeploy = panel.serviceActions.holdDeploys();
  await fromRowMenu(page, table, 'shop/web', 'Deploy…');
  await answerInMain(confirmations, { title: 'Deploy shop/web on Shop production' });
  await expect(page.getByRole('status').filter({ hasText: 'deploying' })).toBeVisible();
  await expect(serviceRow(table, 'shop', 'web')).toContainText('Deploying');
  await table.getByRole('button', { name: 'Actions for shop/web' }).click();
  await expect(page.getByRole('menuitem', { name: 'Restart…' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Overview', exact: true }).click();
  await page.getByRole('button', { name: 'Services', exact: true }).click();
  await expect(serviceRow(table, 'shop', 'web')).toContainText('Deploying');
  await checkScreenBothSizes(page, 'service-actions-06-deploying');
  endDeploy();
  await expect(page.locator('.window-notice')).toContainText('Deployed shop/web on Shop production.');
  await fromRowMenu(page, table, 'shop/web', 'Restart…');
  const { plan } = await answerInMain(confirmations, { title: 'Restart shop/web on Shop production', cancel: true });
  expect(plan.typedConfirmation?.text).toBe('Shop production');
  await expect(page.locator('.window-notice')).toContainText('Restart not sent: it was not confirmed.');

  const { entries } = await app.core.listActivity({ panelId: id });
  expect(entries.map((entry) => `${entry.what.action} ${entry.outcome}`)).toEqual(['deploy ok', 'deploy unknown', 'logIn ok']);
});

test('a selection of three on a red panel: main’s one confirmation lists each sent, the window the one left out; a failure does not stop the others', async ({
  page,
  launch,
  confirmations,
}) => {
  panel.services.addService({ projectName: 'shop', name: 'api', type: 'app' });
  panel.services.addService({ projectName: 'shop', name: 'worker', type: 'compose' });
  panel.serviceActions.failDeploys('shop', 'api', { message: 'npm ERR! missing script: build' });
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panel.url, name: 'Shop production' });
  await app.core.updatePanel(id, { colour: 'red' });
  await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  const table = await openServices(page, 'Shop production');

  // In the table's order: api, db, web, worker. A click, then Shift+Down twice: api, db, web.
  await serviceRow(table, 'shop', 'api').click();
  await table.getByRole('checkbox', { name: 'Select shop/api' }).focus();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  const bar = page.getByRole('group', { name: 'Actions on the services selected' });
  await expect(bar).toContainText('3 services selected:');
  await expect(table.getByRole('checkbox', { checked: true })).toHaveCount(3);
  // Ctrl click adds the fourth; Ctrl click again takes it out.
  await serviceRow(table, 'shop', 'worker').click({ modifiers: ['ControlOrMeta'] });
  await expect(bar).toContainText('4 services selected:');
  await table.getByRole('checkbox', { name: 'Select shop/worker' }).click();
  await expect(bar).toContainText('3 services selected:');
  await checkScreenBothSizes(page, 'service-actions-07-selection');

  await bar.getByRole('button', { name: 'Deploy' }).click();
  // The window says which of the choice it left out, and why, while main asks about the rest.
  await expect(page.locator('.window-notice')).toHaveText(
    /Left out, sent nothing: shop\/db \(a postgres database is not deployed, only started and stopped\)\./,
  );
  await answerInMain(confirmations, {
    title: 'Deploy 2 services on Shop production',
    inspect: async (asked) => {
      const sent = asked.getByRole('region', { name: 'What will be sent' });
      await expect(sent.getByRole('listitem')).toHaveText([
        'deploy api in shopPOST /api/deployAppService',
        'deploy web in shopPOST /api/deployAppService',
      ]);
      await asked.getByLabel('Type Shop production to confirm').fill('web');
      await expect(asked.getByRole('button', { name: 'Deploy', exact: true })).toBeDisabled();
      await checkScreenBothSizes(asked, 'service-actions-08-confirm-several-red');
    },
  });

  await expect(page.locator('.window-notice')).toContainText('Deploy of 2 services on Shop production: 1 done, 1 failed.');
  await expect(page.locator('.window-notice')).toContainText('shop/api failed: ');
  await expect(page.locator('.window-notice')).toContainText('npm ERR! missing script: build');
  await expect(serviceRow(table, 'shop', 'api')).toContainText('Deploy failed');
  await expect(serviceRow(table, 'shop', 'web')).toContainText('Deploy done');
  await expect(serviceRow(table, 'shop', 'db').locator('.service-phase')).toHaveText('');
  // Each sent once, the database never: asked once, never retried.
  const deploys = panel.requests.filter((request) => request.path === '/api/deployAppService');
  expect(deploys).toHaveLength(2);
  expect(panel.requests.filter((request) => /Postgres/.test(request.path))).toHaveLength(0);
  await checkScreenBothSizes(page, 'service-actions-09-selection-outcome');
  await page.locator('.window-notice').getByRole('button', { name: 'Dismiss' }).click();
  await table.scrollIntoViewIfNeeded();
  await checkScreenBothSizes(page, 'service-actions-10-selection-phases');

  const { entries } = await app.core.listActivity({ panelId: id });
  expect(entries.map((entry) => `${entry.what.serviceName ?? entry.what.action} ${entry.outcome}`).sort()).toEqual([
    'api failed',
    'logIn ok',
    'web ok',
  ]);
});

test('select all shown keeps to the search; a long confirmation scrolls inside with its buttons in view', async ({
  page,
  launch,
  confirmations,
}) => {
  panel.services.removeProject('shop');
  seedDemoServices(panel.services, { projects: 8, servicesPerProject: 9 });
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panel.url, name: 'Acme staging' });
  await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  const table = await openServices(page, 'Acme staging');

  await page.getByRole('searchbox', { name: /Search services/ }).fill('app');
  // By the count it names: the box of the list before the search is another one, already checked.
  await table.getByRole('checkbox', { name: 'Select all 8 shown' }).check();
  const bar = page.getByRole('group', { name: 'Actions on the services selected' });
  // The eight demo apps, not the 72 services.
  await expect(bar).toContainText('8 services selected:');
  await page.getByRole('searchbox', { name: /Search services/ }).fill('');
  await table.getByRole('checkbox', { name: 'Select all 72 shown' }).check();
  await expect(bar).toContainText('72 services selected:');
  await bar.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('.window-notice')).toHaveText(
    'Left out, sent nothing: 8 services (Paneldeck has no actions for a wordpress service); 8 services (Paneldeck has no actions for a box service).Dismiss',
  );
  await answerInMain(confirmations, {
    title: 'Stop 56 services on Acme staging',
    cancel: true,
    inspect: async (asked) => {
      const sent = asked.getByRole('region', { name: 'What will be sent' });
      await expect(sent.getByRole('listitem')).toHaveCount(56);
      // The list scrolls inside; the buttons stay in view, at both sizes.
      await sent.evaluate((list) => list.scrollTo(0, list.scrollHeight));
      await expect(asked.getByRole('button', { name: 'Stop', exact: true })).toBeInViewport();
      await expect(asked.getByRole('button', { name: 'Cancel' })).toBeInViewport();
      await checkScreenBothSizes(asked, 'service-actions-11-confirm-several-long');
      await expect(asked.getByRole('button', { name: 'Cancel' })).toBeInViewport();
    },
  });
  // From the keyboard in the table: Esc clears the selection, Ctrl+A selects every row shown again.
  await table.getByRole('checkbox', { name: 'Select analytics/cache' }).focus();
  await page.keyboard.press('Escape');
  await expect(bar).toBeHidden();
  await page.keyboard.press('ControlOrMeta+a');
  await expect(bar).toContainText('72 services selected:');
  expect(
    panel.requests.filter((request) => /\/api\/(deploy|start|stop|restart|enable|disable)\w+Service$/.test(request.path)),
  ).toHaveLength(0);
});

test('a deploy of several runs in main: Cancel stops those not started, and the run is still there after a reload of the window', async ({
  page,
  launch,
  confirmations,
}) => {
  for (const name of ['api', 'worker', 'admin']) panel.services.addService({ projectName: 'shop', name, type: 'app' });
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panel.url, name: 'Billing' });
  await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
  let table = await openServices(page, 'Billing');
  // Every deploy is held by the panel until the test lets them end: what is under way stays so.
  panel.serviceActions.setDeployTime(0);
  const release = panel.serviceActions.holdDeploys();
  const deploys = () => panel.requests.filter((request) => request.path === '/api/deployAppService').length;

  await table.getByRole('checkbox', { name: /^Select all \d+ shown$/ }).check();
  await page.getByRole('group', { name: 'Actions on the services selected' }).getByRole('button', { name: 'Deploy' }).click();
  await answerInMain(confirmations, { title: 'Deploy 4 services on Billing' });
  const progress = page.locator('.services-tab .fleet-run');
  await expect(progress.getByRole('progressbar', { name: 'Deploy on Billing' })).toBeVisible();
  await expect(progress).toContainText('of 4 ended. Cancel stops the services not started yet');
  // Main's bound on one panel: two at a time.
  await expect.poll(deploys).toBe(2);
  await expect(table.getByRole('row').filter({ hasText: 'Deploying' })).toHaveCount(2);
  await expect(table.getByRole('row').filter({ hasText: 'Deploy waiting' })).toHaveCount(2);
  await checkScreenBothSizes(page, 'service-actions-12-run-under-way');

  // The window is loaded again: main still holds the run, and the window takes it up.
  await page.reload();
  table = await openServices(page, 'Billing');
  await expect(progress).toContainText('Deploy: 0 of 4 ended.');
  await expect(table.getByRole('row').filter({ hasText: 'Deploying' })).toHaveCount(2);
  await expect(table.getByRole('row').filter({ hasText: 'Deploy waiting' })).toHaveCount(2);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toContainText('Cancelling: the services not started yet are not sent');
  await checkScreenBothSizes(page, 'service-actions-13-cancelling-after-reload');
  release();

  await expect(page.locator('.window-notice')).toHaveText(/Deploy of 4 services on Billing: 2 done, 2 cancelled before being sent\./);
  await expect(progress).toBeHidden();
  expect(deploys()).toBe(2);
  await expect(table.getByRole('row').filter({ hasText: 'Deploy done' })).toHaveCount(2);
  await expect(table.getByRole('row').filter({ hasText: 'Deploy not sent' })).toHaveCount(2);
  await checkScreenBothSizes(page, 'service-actions-14-cancelled-outcome');
  const { entries } = await app.core.listActivity({ panelId: id });
  expect(entries.map((entry) => `${entry.what.action} ${entry.outcome}`)).toEqual(['deploy ok', 'deploy ok', 'logIn ok']);
});
