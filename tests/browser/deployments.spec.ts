import { type PanelStyle, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { expect, test as base } from './fixtures.ts';
import { checkScreen, checkScreenBothSizes, rendererContents } from './screens.ts';
import { answerInMain, fillServicePicker, openSignedInTab } from './ui-steps.ts';

/**
 * The Deployments tab against the reference panel: a service's history (status as mark and word,
 * an unknown status too), a failed build's log, a deploy started from the window followed live
 * (kept at the end while the operator is there, left alone once they scroll up, the reads stopping
 * when the build ends), errors in the panel's words, and the token never in the page.
 */

/** The suite's panel speaks Easypanel (2.33's public API unless a test says otherwise), not the simple session API. */
const test = base.extend<{ panelStyle: Exclude<PanelStyle, 'simple'>; panelServer: ReferencePanel }>({
  panelStyle: ['public', { option: true }],
  panelServer: async ({ panelStyle }, use) => {
    const server = await startReferencePanel({ style: panelStyle });
    await use(server);
    await server.close();
  },
});

const entry = (n: number) => `#${n} [build] step ${n}: compiling src/module-${n % 97}.ts (${(n * 7) % 1000} ms)`;

test('the Deployments tab lists a service’s deployments, reads a build log and follows a running build live', async ({
  page,
  launch,
  panelServer,
  confirmations,
}) => {
  test.setTimeout(120_000);
  panelServer.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  const actions = panelServer.serviceActions;
  const failed = actions.beginAction('shop', 'web', 'build');
  failed.log = `${Array.from({ length: 400 }, (_, n) => entry(n + 1)).join('\n')}\nERROR: npm ci exited with code 1: lockfile out of date\n`;
  actions.finishAction(failed, 'error');
  actions.finishAction(actions.beginAction('shop', 'web', 'restart'), 'done');
  const odd = actions.beginAction('shop', 'web', 'deployment');
  (odd as { status: string }).status = 'queued';

  const app = await launch(page);
  await page.setViewportSize({ width: 900, height: 600 });
  const panel = { id: (await openSignedInTab(page, app.core, panelServer.url, 'Deployments')).panelId };
  const token = panelServer.issuedTokens().at(-1)!;
  const view = page.getByRole('region', { name: 'Deployments' });
  // The panel's services, read for the picker, are offered as the operator types.
  const offered = (label: string) =>
    view.getByLabel(label).evaluate((input: HTMLInputElement) => [...(input.list?.options ?? [])].map((option) => option.value));
  await expect.poll(() => offered('Project')).toEqual(['shop']);
  await expect.poll(() => offered('Service')).toEqual(['web']);
  await fillServicePicker(view, 'Show deployments', 'shop', 'web');
  await view.getByRole('button', { name: 'Show deployments' }).click();
  const table = view.getByRole('table', { name: 'Deployments' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').nth(1)).toContainText('Unknown');
  await expect(table.getByRole('row').nth(3)).toContainText('Failed');
  await checkScreenBothSizes(page, 'deployments-01-history');

  // A failed build: its log, at its end where the error is.
  await table.getByRole('row').nth(3).getByRole('button', { name: 'build' }).click();
  const log = view.getByRole('log', { name: `Build log of ${failed.id}` });
  await expect(log).toContainText('ERROR: npm ci exited with code 1');
  await expect(view.getByRole('status').filter({ hasText: '401 lines' })).toBeVisible();
  await checkScreenBothSizes(page, 'deployments-02-failed-build');

  // A deploy from the window: it runs for a while, its log growing as the reference panel writes it.
  // Its own log written at once, it then runs until the test ends it (a loaded machine's timers
  // would otherwise end it before the test has looked).
  actions.setDeployTime(0);
  const endBuild = actions.holdDeploys();
  const deploying = app.core.runServiceAction(panel.id, { projectName: 'shop', serviceName: 'web', action: 'deploy' });
  await answerInMain(confirmations, { title: 'Deploy shop/web on Shop' });
  await expect.poll(() => actions.actions()[0]?.status).toBe('running');
  const build = actions.actions()[0]!;
  build.log += `${Array.from({ length: 3000 }, (_, n) => entry(n + 1)).join('\n')}\n`;
  await view.getByRole('button', { name: 'Refresh' }).first().click();
  await expect(table.getByRole('row')).toHaveCount(5);
  await expect(table.getByRole('row').nth(1)).toContainText('Running');
  await table.getByRole('row').nth(1).getByRole('button', { name: 'build' }).click();
  const live = view.getByRole('log', { name: `Build log of ${build.id}` });
  const status = view.getByRole('status').filter({ hasText: 'lines' });
  await expect(status).toContainText('following');
  await expect(live).toContainText('step 3000');
  expect(await live.locator('.log-line').count()).toBeLessThan(80);
  // More lines: the view stays at the end while the operator is there.
  build.log += `${Array.from({ length: 2000 }, (_, n) => entry(3001 + n)).join('\n')}\n`;
  await expect(live).toContainText('step 5000', { timeout: 5000 });
  await checkScreenBothSizes(page, 'deployments-03-following');
  // Scrolled up to read: new lines leave the view where the operator put it.
  await live.evaluate((element) => {
    element.scrollTop = 0;
  });
  build.log += `${Array.from({ length: 500 }, (_, n) => entry(5001 + n)).join('\n')}\n`;
  await expect(status).toContainText(/5,50\d lines/, { timeout: 5000 });
  expect(await live.evaluate((element) => element.scrollTop)).toBe(0);
  await expect(live).toContainText('step 1:');

  // The build ends: the log says Done, following stops, the history shows it, and no more reads go.
  endBuild();
  await deploying;
  await expect(status).not.toContainText('following', { timeout: 5000 });
  await expect(view.locator('.build-log-status')).toContainText('Done');
  await expect(table.getByRole('row').nth(1)).toContainText('Done');
  const reads = () => panelServer.requests.filter((request) => request.path.startsWith('/api/getAction')).length;
  const readsAtEnd = reads();
  await page.waitForTimeout(2500);
  expect(reads()).toBe(readsAtEnd);

  await view.getByRole('button', { name: 'Copy' }).click();
  await expect(view.getByText(/Copied [\d,]+ lines|The system refused the copy/)).toBeVisible();

  // Leaving the tab while a build runs stops the reads.
  const endSecond = actions.holdDeploys();
  const second = app.core.runServiceAction(panel.id, { projectName: 'shop', serviceName: 'web', action: 'deploy' });
  await answerInMain(confirmations, { title: 'Deploy shop/web on Shop' });
  await expect.poll(() => actions.actions()[0]?.status).toBe('running');
  await view.getByRole('button', { name: 'Refresh' }).first().click();
  // The list read again shows the new build first (fresh-clone run 7 clicked the row before it came).
  await expect(table.getByRole('row')).toHaveCount(6);
  await expect(table.getByRole('row').nth(1)).toContainText('Running');
  await table.getByRole('row').nth(1).getByRole('button', { name: 'build' }).click();
  await expect(view.getByRole('status').filter({ hasText: 'following' })).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  const readsAfterLeaving = reads();
  await page.waitForTimeout(2500);
  expect(reads()).toBeLessThanOrEqual(readsAfterLeaving + 1);
  endSecond();
  await second;

  expect(await rendererContents(page)).not.toContain(token);
  expect(JSON.stringify(app.answers)).not.toContain(token);
  expect(JSON.stringify(app.events)).not.toContain(token);
});

test('issue 35: a deployment listed while it runs says Done once the build ends, before its log is opened and after', async ({
  page,
  launch,
  panelServer,
  confirmations,
}) => {
  test.setTimeout(120_000);
  panelServer.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  const actions = panelServer.serviceActions;
  const app = await launch(page);
  await page.setViewportSize({ width: 900, height: 600 });
  await openSignedInTab(page, app.core, panelServer.url, 'Services');
  // The operator's steps: a deploy from the row's menu, its build held until the test ends it.
  actions.setDeployTime(0);
  const endBuild = actions.holdDeploys();
  const services = page.getByRole('table', { name: 'Services' });
  await services.getByRole('button', { name: 'Actions for shop/web' }).click();
  await page.getByRole('menu', { name: 'shop/web' }).getByRole('menuitem', { name: 'Deploy…', exact: true }).click();
  await answerInMain(confirmations, { title: 'Deploy shop/web on Shop' });
  await expect.poll(() => actions.actions()[0]?.status).toBe('running');

  await page.getByRole('button', { name: 'Deployments', exact: true }).click();
  const view = page.getByRole('region', { name: 'Deployments' });
  await fillServicePicker(view, 'Show deployments', 'shop', 'web');
  await view.getByRole('button', { name: 'Show deployments' }).click();
  const row = view.getByRole('table', { name: 'Deployments' }).getByRole('row').nth(1);
  await expect(row).toContainText('Running');
  await expect(row).toContainText('so far');

  endBuild();
  await expect(page.locator('.window-notice')).toContainText('Deployed shop/web on Shop');
  // The row follows the build to its end by itself: nothing clicked, no Refresh.
  await expect(row).toContainText('Done', { timeout: 15_000 });
  await expect(row).not.toContainText('so far');
  await expect(row.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await row.getByRole('button', { name: 'build' }).click();
  await expect(view.locator('.build-log-status')).toContainText('Done');
  await expect(row).toContainText('Done');
  await checkScreenBothSizes(page, 'deployments-08-ended-while-listed');
});

test.describe('over the RPC layer (2.31–2.32)', () => {
  test.use({ panelStyle: 'rpc' });
  test('the Deployments tab checks the names and says a failed read in the panel’s words', async ({ page, launch, panelServer }) => {
    panelServer.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    const app = await launch(page);
    await page.setViewportSize({ width: 900, height: 600 });
    await openSignedInTab(page, app.core, panelServer.url, 'Deployments');
    const view = page.getByRole('region', { name: 'Deployments' });
    await fillServicePicker(view, 'Show deployments', 'Shop!', '');
    await view.getByRole('button', { name: 'Show deployments' }).click();
    await checkScreen(page, 'deployments-04-names-checked');

    await fillServicePicker(view, 'Show deployments', 'shop', 'web');
    await view.getByRole('button', { name: 'Show deployments' }).click();
    await expect(view.getByText('This service has no deployments yet.')).toBeVisible();

    panelServer.setFault('listActions', {
      kind: 'status',
      status: 400,
      body: { code: 'BAD_REQUEST', message: 'Actions are not kept on this server' },
    });
    await view.getByRole('button', { name: 'Refresh' }).click();
    await expect(view.getByRole('alert')).toContainText('Actions are not kept on this server');
    await checkScreenBothSizes(page, 'deployments-05-read-failed');
  });
});

test('a running build has Cancel: main asks, killAction goes once, the build ends Killed; a noKill one has none', async ({
  page,
  launch,
  panelServer,
  confirmations,
}) => {
  test.setTimeout(120_000);
  panelServer.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  const actions = panelServer.serviceActions;
  const locked = actions.beginAction('shop', 'web', 'deployment');
  locked.noKill = true;
  const app = await launch(page);
  await page.setViewportSize({ width: 900, height: 600 });
  const panel = { id: (await openSignedInTab(page, app.core, panelServer.url, 'Deployments')).panelId };
  actions.setDeployTime(0);
  const endBuild = actions.holdDeploys();
  const deploying = app.core
    .runServiceAction(panel.id, { projectName: 'shop', serviceName: 'web', action: 'deploy' })
    .catch((error: unknown) => error);
  await answerInMain(confirmations, { title: 'Deploy shop/web on Shop' });
  await expect.poll(() => actions.actions()[0]?.type).toBe('build');
  const view = page.getByRole('region', { name: 'Deployments' });
  await fillServicePicker(view, 'Show deployments', 'shop', 'web');
  await view.getByRole('button', { name: 'Show deployments' }).click();
  const table = view.getByRole('table', { name: 'Deployments' });
  await expect(table.getByRole('row')).toHaveCount(3);
  const building = table.getByRole('row').nth(1);
  await expect(building).toContainText('Running');
  await expect(table.getByRole('row').nth(2).getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await checkScreenBothSizes(page, 'deployments-06-cancel-offered');
  const kills = () => panelServer.requests.filter((request) => request.path.endsWith('killAction')).length;
  await building.getByRole('button', { name: 'Cancel' }).click();
  expect(kills()).toBe(0);
  await answerInMain(confirmations, { title: 'Cancel the deployment of shop/web on Shop' });
  await expect(view.getByText('The deployment was cancelled.')).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('Killed');
  await expect(table.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  expect(kills()).toBe(1);
  await checkScreenBothSizes(page, 'deployments-07-cancelled');
  endBuild();
  await deploying;
});

test('a service row opens its Deployments and Logs with the service chosen; each tab keeps it for the panel; a deployment row opens its log', async ({
  page,
  launch,
  panelServer,
}) => {
  panelServer.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  panelServer.services.addService({ projectName: 'shop', name: 'db', type: 'postgres' });
  const actions = panelServer.serviceActions;
  const build = actions.beginAction('shop', 'web', 'build');
  build.log = 'step 1: npm ci\nDone: built in 24 s\n';
  actions.finishAction(build, 'done');
  panelServer.logs.write('shop', 'web', 'GET /cart 200\nGET /checkout 200');
  panelServer.logs.write('shop', 'db', 'database system is ready to accept connections');
  const app = await launch(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSignedInTab(page, app.core, panelServer.url, 'Services');
  const services = page.getByRole('table', { name: 'Services' });
  const serviceRow = (name: string) => services.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  const tabButton = (name: string) => page.getByRole('button', { name, exact: true });

  // A database has no deployments: its menu offers its log only.
  await serviceRow('db').click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: 'Logs' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Deployments' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await serviceRow('web').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Deployments' }).click();
  const deployments = page.getByRole('region', { name: 'Deployments' });
  await expect(tabButton('Deployments')).toHaveAttribute('aria-pressed', 'true');
  await expect(deployments.getByLabel('Project')).toHaveValue('shop');
  await expect(deployments.getByLabel('Service')).toHaveValue('web');
  // Read at once, without Show deployments.
  const history = deployments.getByRole('table', { name: 'Deployments' });
  await expect(history.getByRole('row')).toHaveCount(2);
  // A click anywhere on the row opens its build log, not only on the word "build".
  await history.getByRole('row').nth(1).getByRole('cell').nth(2).click();
  await expect(deployments.getByRole('log', { name: `Build log of ${build.id}` })).toContainText('Done: built in 24 s');
  await checkScreenBothSizes(page, 'deployments-05-from-service-row');

  // The Logs tab shows the same service, read as it opens.
  await tabButton('Logs').click();
  const logs = page.getByRole('region', { name: 'Logs' });
  await expect(logs.getByLabel('Service')).toHaveValue('web');
  await expect(logs.getByRole('log', { name: 'Log of shop/web' })).toContainText('GET /checkout 200');

  // Another service's Logs from its row; the tab, left and opened again, still shows it.
  await tabButton('Services').click();
  await serviceRow('db').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Logs' }).click();
  await expect(logs.getByRole('log', { name: 'Log of shop/db' })).toContainText('ready to accept connections');
  await tabButton('Overview').click();
  await tabButton('Logs').click();
  await expect(logs.getByLabel('Service')).toHaveValue('db');
  await expect(logs.getByRole('log', { name: 'Log of shop/db' })).toContainText('ready to accept connections');

  // From the fleet's All services too: the panel is shown at the tab, with the service chosen.
  await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'All services', exact: true }).click();
  const fleet = page.getByRole('table', { name: 'Services of every panel' });
  await fleet
    .locator('tbody tr:not(.fleet-group-row)')
    .filter({ has: page.getByRole('checkbox', { name: 'Select Shop: shop/web' }) })
    .click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Deployments' }).click();
  await expect(tabButton('Deployments')).toHaveAttribute('aria-pressed', 'true');
  await expect(deployments.getByLabel('Service')).toHaveValue('web');
  await expect(history.getByRole('row')).toHaveCount(2);
});
