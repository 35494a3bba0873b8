import type { Locator, Page } from '@playwright/test';
import { type PanelStyle, startReferencePanel } from '../support/reference-panel/server.ts';
import type { ConfirmationPages } from './confirmation-page.ts';
import { answerInMain, expect, test } from './fixtures.ts';
import { checkScreen, rendererContents } from './screens.ts';
import { fillServicePicker, openSignedInTab } from './ui-steps.ts';

/**
 * Issue 23's "done when", from the window, in each Easypanel generation (tRPC up to 2.30, the RPC
 * layer of 2.31–2.32, the public API of 2.33): the services listed, the server's load, a deploy,
 * stop, start and restart from a row's menu (each one request of the generation's own route), the
 * deploy's build log in the Deployments tab, and the runtime log's lines in the Logs tab.
 */

const GENERATIONS: readonly { style: Exclude<PanelStyle, 'simple'>; stop: string }[] = [
  { style: 'trpc', stop: '/api/trpc/services.app.stopService' },
  { style: 'rpc', stop: '/api/rpc/services/app/stopService' },
  { style: 'public', stop: '/api/stopAppService' },
];

/** Chooses `item` in the row menu of shop/web, confirms it in main's confirmation, and waits for the window's notice. */
async function act(page: Page, confirmations: ConfirmationPages, table: Locator, item: string, panel: string, done: string): Promise<void> {
  await table.getByRole('button', { name: 'Actions for shop/web' }).click();
  await page
    .getByRole('menu', { name: 'shop/web' })
    .getByRole('menuitem', { name: `${item}…`, exact: true })
    .click();
  await answerInMain(confirmations, { title: `${item} shop/web on ${panel}` });
  await expect(page.locator('.window-notice')).toContainText(`${done} shop/web`);
}

for (const { style, stop } of GENERATIONS) {
  test(`${style}: services, load, deploy, stop, start, restart, a build log and log lines, all from the window`, async ({
    page,
    launch,
    confirmations,
  }) => {
    test.setTimeout(120_000);
    const server = await startReferencePanel({ style });
    try {
      server.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
      server.services.addService({ projectName: 'shop', name: 'db', type: 'postgres' });
      server.logs.write('shop', 'web', 'GET /health 200\nGET /cart 500 upstream timed out');
      const app = await launch(page);
      await page.setViewportSize({ width: 900, height: 600 });
      await openSignedInTab(page, app.core, server.url, 'Overview', `Shop ${style}`);
      const token = server.issuedTokens().at(-1)!;

      const overview = page.locator('.overview-tab');
      await expect(overview.getByRole('meter', { name: 'Disk used' })).toHaveAttribute('aria-valuenow', /\d/);
      await expect(overview.locator('.usage-card').filter({ hasText: 'Memory' })).toContainText(' GB');

      await page.getByRole('button', { name: 'Services', exact: true }).click();
      const table = page.getByRole('table', { name: 'Services' });
      await expect(table.getByRole('row')).toHaveCount(3);
      await expect(table.getByRole('row').filter({ hasText: 'web' })).toContainText('Running');

      const stops = () => server.requests.filter((request) => request.path.split('?')[0] === stop).length;
      await act(page, confirmations, table, 'Stop', `Shop ${style}`, 'Stopped');
      expect(stops(), 'the stop went once, by the generation’s own route').toBe(1);
      expect(server.services.service('shop', 'web')?.replicas).toEqual({ actual: 0, desired: 0 });
      await act(page, confirmations, table, 'Start', `Shop ${style}`, 'Started');
      expect(server.services.service('shop', 'web')?.replicas).toEqual({ actual: 1, desired: 1 });
      await act(page, confirmations, table, 'Restart', `Shop ${style}`, 'Restarted');
      await act(page, confirmations, table, 'Deploy', `Shop ${style}`, 'Deployed');
      await checkScreen(page, `generations-${style}-services`);

      await page.getByRole('button', { name: 'Deployments', exact: true }).click();
      const deployments = page.getByRole('region', { name: 'Deployments' });
      await fillServicePicker(deployments, 'Show deployments', 'shop', 'web');
      await deployments.getByRole('button', { name: 'Show deployments' }).click();
      const history = deployments.getByRole('table', { name: 'Deployments' });
      const build = history.getByRole('row').filter({ hasText: 'Done' }).first();
      await expect(build).toBeVisible();
      await build.getByRole('button').first().click();
      await expect(deployments.getByRole('log')).not.toBeEmpty();

      await page.getByRole('button', { name: 'Logs', exact: true }).click();
      const logs = page.getByRole('region', { name: 'Logs' });
      await fillServicePicker(logs, 'Show log', 'shop', 'web');
      await logs.getByRole('button', { name: 'Show log' }).click();
      await expect(logs.getByRole('log', { name: 'Log of shop/web' })).toContainText('GET /cart 500 upstream timed out');
      await checkScreen(page, `generations-${style}-logs`);

      expect(await rendererContents(page)).not.toContain(token);
      expect(JSON.stringify(app.answers)).not.toContain(token);
    } finally {
      await server.close();
    }
  });
}
