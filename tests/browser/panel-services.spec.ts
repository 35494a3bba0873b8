import type { Page } from '@playwright/test';
import { checkScreenBothSizes, rendererContents } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';
import { seedDemoServices, startReferencePanel } from '../support/reference-panel/server.ts';

/**
 * What a panel runs, in its view: the Overview tab (version, load, bars that turn amber and red
 * near full) and the Services tab (states as colour, shape and word; search; thousands of rows
 * with only those in view in the page), each read in the background.
 */

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

test('Overview: version, uptime, CPU, memory and disk; a disk nearly full is amber then red, and said', async ({ page, launch }) => {
  const app = await launch(page);
  const server = await startReferencePanel({ style: 'public', demoProjects: 3 });
  try {
    const { id } = await app.core.addPanel({ address: server.url, name: 'Acme production' });
    await app.core.logIn(id, demo);
    await panelList(page)
      .getByRole('treeitem', { name: /Acme production/ })
      .click();
    await page.getByRole('button', { name: 'Overview', exact: true }).click();
    const overview = page.locator('.overview-tab');
    await expect(overview).toContainText('Easypanel 2.33.4');
    await expect(overview).toContainText('14 days');
    await expect(overview.locator('.usage-card').filter({ hasText: 'Memory' })).toContainText('3 of 7.8 GB');
    await expect(overview.getByRole('meter', { name: 'Disk used' })).toHaveAttribute('aria-valuenow', '40');
    await expect(overview.getByRole('status')).toContainText('Read just now');
    await checkScreenBothSizes(page, '90-overview');

    server.services.setSystemLoad({ disk: { usedGb: 70, totalGb: 80 }, cpuPercent: 93.4 });
    await overview.getByRole('button', { name: 'Refresh' }).click();
    await expect(overview.locator('.usage-card.usage-amber')).toContainText('Disk is filling up');
    await expect(overview.locator('.usage-card.usage-red')).toContainText('CPU is nearly full');
    await checkScreenBothSizes(page, '91-overview-near-full');
  } finally {
    await server.close();
  }
});

test('Services: each state as colour, shape and word, replicas, type; search; a crash shows at the next refresh', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  const server = await startReferencePanel({ style: 'rpc', demoProjects: 5 });
  try {
    const { id } = await app.core.addPanel({ address: server.url, name: 'Acme staging' });
    await app.core.logIn(id, demo);
    server.services.setReplicas('wiki', 'cache', null);
    await panelList(page)
      .getByRole('treeitem', { name: /Acme staging/ })
      .click();
    await page.getByRole('button', { name: 'Services', exact: true }).click();
    const table = page.getByRole('table', { name: 'Services' });
    // The table has room for a few rows at 900x600: the others come into the page as it scrolls.
    await expect(table).toHaveAttribute('aria-rowcount', '21');
    // Counted as All services counts, what needs the operator first.
    await expect(page.locator('.services-counts')).toContainText(
      '5 projects, 20 services: 3 down, 1 unknown, 2 stopped, 1 disabled, 13 running',
    );
    const row = (project: string, name: string) =>
      table
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: project, exact: true }) })
        .filter({ has: page.getByRole('cell', { name, exact: true }) });
    await expect(row('shop', 'mysql')).toContainText('Down');
    await expect(row('shop', 'mysql')).toContainText('0/1');
    await expect(row('crm', 'site')).toContainText('Disabled');
    await checkScreenBothSizes(page, '92-services');
    await page.getByRole('searchbox', { name: /Search services/ }).fill('wiki');
    await expect(row('wiki', 'cache')).toContainText('Unknown');

    await page.getByRole('searchbox', { name: /Search services/ }).fill('down');
    await expect(table.getByRole('row')).toHaveCount(4);
    await checkScreenBothSizes(page, '93-services-search-down');
    await page.getByRole('searchbox', { name: /Search services/ }).fill('shop');

    server.services.crashService('shop', 'web');
    await page.locator('.services-tab').getByRole('button', { name: 'Refresh' }).click();
    await expect(row('shop', 'web')).toContainText('Down');
    expect(await rendererContents(page)).not.toContain(server.issuedTokens().at(-1));
  } finally {
    await server.close();
  }
});

test('Services: 2,000 services keep only the rows in view in the page, and scroll', async ({ page, launch }) => {
  const app = await launch(page);
  const server = await startReferencePanel({ style: 'public' });
  try {
    seedDemoServices(server.services, { projects: 200, servicesPerProject: 10 });
    const { id } = await app.core.addPanel({ address: server.url, name: 'Big fleet' });
    await app.core.logIn(id, demo);
    await panelList(page)
      .getByRole('treeitem', { name: /Big fleet/ })
      .click();
    await page.getByRole('button', { name: 'Services', exact: true }).click();
    await expect(page.locator('.services-counts')).toContainText('200 projects, 2,000 services');
    const rows = page.getByRole('table', { name: 'Services' }).getByRole('row');
    expect(await rows.count()).toBeLessThan(60);
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(3000);
    await page.locator('.service-scroller').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect(rows.last()).toContainText('wiki');
    await checkScreenBothSizes(page, '94-services-2000-scrolled');
  } finally {
    await server.close();
  }
});
