import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';
import { startReferencePanel, type PanelStyle, type ReferencePanel } from '../support/reference-panel/server.ts';

/**
 * Each panel's Easypanel version: in the panel's header and its row, found by the list's search,
 * the list sorted by it, and a panel upgraded to a newer generation followed at the next check.
 */

/** Panels of every generation, and one that names no version (the reference panel's own API). */
const FLEET: readonly { name: string; style: PanelStyle; version?: string }[] = [
  { name: 'Acme production', style: 'public', version: '2.33.4' },
  { name: 'Acme staging', style: 'rpc', version: '2.32.2' },
  { name: 'Globex', style: 'rpc', version: '2.31.0' },
  { name: 'Initech legacy', style: 'trpc', version: '2.28.1' },
  { name: 'Initech web', style: 'trpc', version: '2.30.2' },
  { name: 'Umbrella', style: 'simple' },
];

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const rowNames = (page: Page) => panelList(page).getByRole('treeitem').locator('.panel-item-name');

test('the version in the header and the rows, searched, sorted oldest first; an upgraded panel followed by Check all', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  const servers: ReferencePanel[] = [];
  try {
    const ids = new Map<string, string>();
    for (const { name, style, version } of FLEET) {
      const server = await startReferencePanel({ style, ...(version ? { version } : {}) });
      servers.push(server);
      const { id } = await app.core.addPanel({ address: server.url, name });
      ids.set(name, id);
      await app.core.logIn(id, demo);
    }
    // A check reads each version (the first after a log in).
    await panelList(page).getByRole('button', { name: 'Check all' }).click();
    // Each Easypanel's state read and understood is OK; Umbrella (no Easypanel) has no state to read: signed in.
    await expect(panelList(page).getByLabel('Panels by state')).toContainText(`${FLEET.length - 1} OK`);
    await expect(panelList(page).getByLabel('Panels by state')).toContainText('1 signed in');
    const staging = panelList(page).getByRole('treeitem', { name: /Acme staging/ });
    await staging.click();
    const header = page.locator('.panel-header');
    await expect(header).toContainText('Easypanel 2.32.2');
    // The rows say the version only in version order: their line has no room to spare otherwise.
    await expect(staging).not.toContainText('2.32.2');
    await expect(page.locator('dl.summary')).toContainText('usr_1001');
    await checkScreen(page, '75-panel-version-header');

    await panelList(page).getByLabel('Sort').selectOption('version');
    await expect(rowNames(page)).toHaveText(['Initech legacy', 'Initech web', 'Globex', 'Acme staging', 'Acme production', 'Umbrella']);
    await expect(staging).toContainText('v2.32.2');
    await expect(panelList(page).getByRole('treeitem', { name: /Umbrella/ })).toContainText('version unknown');
    await checkScreen(page, '76-fleet-sorted-by-version');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '77-fleet-sorted-by-version-full-hd');
    await page.setViewportSize({ width: 900, height: 600 });

    const search = panelList(page).getByRole('searchbox');
    await search.fill('2.30');
    await expect(rowNames(page)).toHaveText(['Initech web']);
    await search.fill('easypanel 2.3');
    await expect(rowNames(page)).toHaveText(['Initech web', 'Globex', 'Acme staging', 'Acme production']);
    await search.fill('');

    // Initech web is upgraded to 2.31 in place: its tRPC session read is refused from now on.
    servers[FLEET.findIndex((panel) => panel.name === 'Initech web')]!.setVersion('2.31.0', { upgrade: true });
    await panelList(page)
      .getByRole('treeitem', { name: /Initech web/ })
      .click();
    await expect(header).toContainText('Easypanel 2.30.2');
    await panelList(page).getByRole('button', { name: 'Check all' }).click();
    await expect(header).toContainText('Easypanel 2.31.0');
    // Each Easypanel's state read and understood is OK; Umbrella (no Easypanel) has no state to read: signed in.
    await expect(panelList(page).getByLabel('Panels by state')).toContainText(`${FLEET.length - 1} OK`);
    await expect(panelList(page).getByLabel('Panels by state')).toContainText('1 signed in');
    await expect(rowNames(page)).toHaveText(['Initech legacy', 'Globex', 'Initech web', 'Acme staging', 'Acme production', 'Umbrella']);
    await checkScreen(page, '78-upgraded-panel-followed');
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByLabel('Generation')).toHaveValue('rpc');
    await expect(page.getByLabel('Session path')).toHaveValue('/rpc/auth/getSession');
  } finally {
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  }
});
