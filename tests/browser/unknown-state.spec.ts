import type { Page } from '@playwright/test';
import { checkScreenBothSizes } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/**
 * Issue 31, as an operator sees it: a panel whose task stats and server stats came back as
 * garbage, one whose figures are from before it stopped answering, and one with services down,
 * beside a healthy one; in the panel list's list and table layouts and in the panel's header.
 * The unknown one is never OK, the stale one says its figures' age, the services down are named.
 */

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const listRow = (page: Page, name: RegExp) => panelList(page).getByRole('treeitem', { name });
const tableRow = (page: Page, name: string) => panelList(page).locator('.fleet-row').filter({ hasText: name });

test('unknown, stale and services-down panels in both layouts: never OK, marked with their age, named', async ({ page, launch }) => {
  test.setTimeout(180_000);
  // The window's clock: moved three hours on after the reads, so the stale figures' age shows.
  await page.clock.install();
  const app = await launch(page);
  const servers: ReferencePanel[] = [];
  const add = async (name: string, demoProjects: number) => {
    const server = await startReferencePanel({ style: 'public', demoProjects });
    servers.push(server);
    const { id } = await app.core.addPanel({ address: server.url, name });
    await app.core.logIn(id, demo);
    return { id, server };
  };
  try {
    const garbage = await add('Shop garbage', 3);
    const stale = await add('Blog stale', 0);
    await add('Web down', 3);
    await add('Mail fine', 0);
    garbage.server.setFault('getDockerTaskStats', { kind: 'status', status: 200, body: 'garbage' });
    garbage.server.setFault('getSystemStats', { kind: 'status', status: 200, body: ['no', 'figures'] });
    expect((await app.core.checkPanels()).every((check) => check.ok)).toBe(true);
    // The blog stops answering: its next check fails, and what is shown of it is from the read before.
    await stale.server.close();
    expect((await app.core.checkPanels([stale.id])).map((check) => check.ok)).toEqual([false]);
    await page.clock.fastForward('03:00:00');

    // The list layout: the word beside the dot, services down by name, the stale figures' age.
    await expect(listRow(page, /Shop garbage/)).toContainText('State unknown');
    await expect(listRow(page, /Shop garbage/).locator('.status-dot')).toHaveClass(/state-unknown/);
    await expect(listRow(page, /Blog stale/)).toContainText('Unreachable');
    await expect(listRow(page, /Blog stale/)).toContainText('as of 3 h ago');
    await expect(listRow(page, /Web down/).locator('.meta-state')).toHaveText(/^\S+, \S+ down$/);
    await expect(listRow(page, /Web down/).locator('.status-dot')).toHaveClass(/state-degraded/);
    await expect(listRow(page, /Mail fine/).locator('.status-dot')).toHaveClass(/state-ok/);
    await expect(panelList(page).getByRole('button', { name: /Needs attention/ })).toHaveText('Needs attention (3)');
    await checkScreenBothSizes(page, 'unknown-state-01-list');

    // The header says it too: the unknown panel is never OK; the stale one gives its figures' age.
    await listRow(page, /Shop garbage/).click();
    await expect(page.locator('.panel-header .state-badge')).toHaveText('State unknown');
    // Its Overview says so too, rather than blank figures under a healthy heading.
    await page.locator('.panel-header').getByRole('button', { name: 'Overview', exact: true }).click();
    await expect(page.locator('.overview-state')).toContainText('State unknown');
    await expect(page.locator('.overview-tab')).toContainText("The panel's server stats held no figure Paneldeck reads");
    await checkScreenBothSizes(page, 'unknown-state-03-overview');
    await listRow(page, /Blog stale/).click();
    await expect(page.locator('.panel-header .state-badge')).toContainText('Unreachable · figures as of 3 h ago');

    // The table layout: the state cell, "?" for a Down not known (never 0), the reason, the stale figures greyed.
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    const shop = tableRow(page, 'Shop garbage');
    await expect(shop.locator('.col-state')).toHaveText('State unknown');
    await expect(shop.locator('.col-down')).toHaveText('?');
    // A short phrase in the cell, the panel's sentence in its title.
    await expect(shop.locator('.col-reason')).toContainText(/^State unknown/);
    await expect(shop.locator('.col-reason')).toHaveAttribute('title', /^State unknown: The panel's task stats were not understood/);
    const blog = tableRow(page, 'Blog stale');
    await expect(blog.locator('.col-reason')).toContainText('figures as of 3 h ago');
    await expect(blog.locator('.col-disk')).toHaveClass(/is-stale/);
    await expect(tableRow(page, 'Web down').locator('.col-reason')).toContainText(/^\S+, \S+ down/);
    await expect(tableRow(page, 'Web down').locator('.col-reason')).toHaveAttribute('title', /2 services down: \S+\/\S+, \S+\/\S+/);
    await expect(tableRow(page, 'Mail fine').locator('.col-state')).toHaveText('OK');
    await checkScreenBothSizes(page, 'unknown-state-02-table');
  } finally {
    // The blog is closed already; closing it again is no failure of this test.
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  }
});
