import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import type { Core } from '../../electron/core/index.ts';

/**
 * The fleet as a dense table: 36 reference panels (Easypanel 2.x, tRPC) in three client groups,
 * some unreachable, expired, with services down or a nearly full disk. At 1280x800 at least 25
 * rows show on one screen, and the panels needing attention come first across every group, worst
 * first, each with its reason; one is muted from the table; the fact searches find the rest.
 */

const GROUPS = ['Acme', 'Globex', 'Initech'] as const;
/** Spread over the groups on purpose: attention first must cross them. */
const ROLES = ['ok', 'down', 'ok', 'unreachable', 'ok', 'disk', 'ok', 'expired', 'ok', 'ok', 'down', 'ok', 'disk', 'out'];
const TOTAL = 36;
const roleOf = (index: number) => ROLES[index] ?? 'ok';

/** Panel i is "Client NN <role>" in group i mod 3. */
async function buildFleet(core: Core): Promise<ReferencePanel[]> {
  const servers: ReferencePanel[] = [];
  for (let index = 0; index < TOTAL; index++) {
    const role = roleOf(index);
    // The demo's services are twelve, two of them down (demo-services.ts).
    const server = await startReferencePanel({ style: 'trpc', ...(role === 'down' && { demoProjects: 3 }) });
    servers.push(server);
    const name = `Client ${String(index + 1).padStart(2, '0')} ${role === 'ok' ? 'prod' : role}`;
    const { id } = await core.addPanel({ address: server.url, name });
    await core.updatePanels([id], { group: GROUPS[index % GROUPS.length]! });
    if (role === 'out') continue;
    await core.logIn(id, demo);
    if (role === 'disk') server.services.setSystemLoad({ disk: { usedGb: 95, totalGb: 100 } });
    if (role === 'expired') server.expireAllTokens();
    if (role === 'unreachable') await server.close();
  }
  // One pass reads every session and state, as the background check does.
  await core.checkPanels();
  return servers;
}

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const table = (page: Page) => panelList(page).getByRole('grid', { name: 'Panel table' });
const rows = (page: Page) => table(page).locator('.fleet-row');

/** The rows wholly inside the table's visible box: what one screen shows. */
async function rowsOnScreen(page: Page): Promise<number> {
  return table(page).evaluate((grid) => {
    const box = grid.getBoundingClientRect();
    return [...grid.querySelectorAll('.fleet-row')].filter((row) => {
      const at = row.getBoundingClientRect();
      return at.top >= box.top && at.bottom <= box.bottom + 0.5;
    }).length;
  });
}

test('the table: 25+ rows at 1280x800, attention first across groups with reasons, mute, fact search, sizes', async ({ page, launch }) => {
  // 36 reference panels and four axe scans: slow on a busy machine, never stuck.
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  const servers = await buildFleet(app.core);
  try {
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    await expect(table(page)).toBeVisible();
    await expect(panelList(page).getByLabel('Fleet health')).toContainText('4 services down');
    await expect(panelList(page).getByLabel('Fleet health')).toContainText('2 disks over 90%');
    expect(await rowsOnScreen(page)).toBeGreaterThanOrEqual(25);
    // Virtualised: never every row of a long fleet, but here a screen holds most of them.
    expect(await rows(page).count()).toBeLessThanOrEqual(TOTAL);

    // Worst first, across the three groups: unreachable, expired, services down, disk; each says why.
    const expected = [/unreachable/, /expired/, /down/, /down/, /disk/, /disk/];
    for (const [index, name] of expected.entries()) {
      const row = rows(page).nth(index);
      await expect(row.locator('.col-name')).toHaveText(name);
      await expect(row.locator('.col-reason')).not.toHaveText(/^(Mute)?$/);
    }
    await expect(rows(page).nth(0).locator('.col-reason')).toContainText('Unreachable');
    await expect(rows(page).nth(1).locator('.col-reason')).toContainText('Session expired');
    // A short phrase in the cell (the services named), the sentence in its title.
    await expect(rows(page).nth(2).locator('.col-reason')).toContainText(/^\S+, \S+ down/);
    await expect(rows(page).nth(2).locator('.col-reason')).toHaveAttribute('title', /^2 services down: /);
    await expect(rows(page).nth(4).locator('.col-reason')).toContainText('Disk 95% full');
    const groupsOfFirst = await rows(page)
      .locator('.col-group')
      .evaluateAll((cells) => cells.slice(0, 6).map((cell) => cell.textContent));
    expect(new Set(groupsOfFirst).size).toBe(3);
    // Never logged in is told apart, and needs nothing.
    await expect(rows(page).filter({ hasText: 'Client 14 out' }).locator('.col-state')).toHaveText('New');
    await expect(rows(page).nth(6).locator('.col-reason')).toHaveText('');
    const attention = panelList(page).getByRole('button', { name: /Needs attention/ });
    await expect(attention).toHaveText('Needs attention (6)');
    await checkScreen(page, '70-table-layout-1280');

    // Muted from the table: marked, out of Needs attention, kept in the panel's record.
    const disk = rows(page).filter({ hasText: 'Client 06 disk' });
    await disk.locator('.col-name').click();
    await disk.getByRole('button', { name: 'Mute', exact: true }).click();
    await expect(disk.locator('.col-state')).toHaveText('Muted');
    await expect(attention).toHaveText('Needs attention (5)');
    await expect.poll(async () => (await app.core.listPanels()).find((panel) => panel.name === 'Client 06 disk')?.muted).toBe(true);
    await attention.click();
    await expect(rows(page)).toHaveCount(5);
    await expect(rows(page).filter({ hasText: 'Client 06 disk' })).toHaveCount(0);
    await attention.click();

    // The fact terms.
    const search = panelList(page).getByRole('searchbox', { name: 'Find panels' });
    await search.fill('down');
    await expect(rows(page)).toHaveCount(2);
    await search.fill('disk>90');
    await expect(rows(page)).toHaveCount(2);
    await search.fill('disk>90 acme');
    await expect(rows(page)).toHaveCount(1);
    await search.fill('');

    // Sorted by a header, then back to attention first; the keyboard walks and opens.
    await table(page).getByRole('button', { name: 'Name' }).click();
    await expect(table(page).getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows(page).first().locator('.col-name')).toHaveText('Client 01 prod');
    await table(page).getByRole('button', { name: 'Name' }).click();
    await expect(rows(page).first().locator('.col-name')).toHaveText('Client 36 prod');
    await table(page).getByRole('button', { name: 'State' }).click();
    // On its name: the row's middle may be its Mute button, which the columns' widths move.
    await rows(page).first().locator('.col-name').click();
    await table(page).focus();
    await page.keyboard.press('ArrowDown');
    await expect(rows(page).nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('main')).toContainText('Client 08 expired');

    // Grouped within the groups; the choice is remembered.
    await panelList(page).locator('summary', { hasText: 'Columns' }).click();
    await panelList(page).getByRole('checkbox', { name: 'Group rows by group' }).check();
    await panelList(page).getByRole('checkbox', { name: 'CPU' }).uncheck();
    await panelList(page).locator('summary', { hasText: 'Columns' }).click();
    await expect(table(page).locator('.fleet-group').first()).toContainText('Acme');
    await expect(table(page).getByRole('columnheader', { name: 'CPU' })).toHaveCount(0);
    await expect.poll(async () => (await app.core.getAppStatus()).settings.panelList.table?.grouped, { timeout: 5000 }).toBe(true);
    await checkScreen(page, '71-table-layout-grouped');
    await panelList(page).locator('summary', { hasText: 'Columns' }).click();
    await panelList(page).getByRole('checkbox', { name: 'Group rows by group' }).uncheck();
    await panelList(page).locator('summary', { hasText: 'Columns' }).click();
    expect((await app.core.getAppStatus()).settings.panelList.layout).toBe('table');

    await page.setViewportSize({ width: 900, height: 600 });
    await checkScreen(page, '72-table-layout-900');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '73-table-layout-1920');
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});

test('several panels in the table as in the list: Shift and Ctrl click, Shift+Down, Ctrl+A, Esc; the row menu acts on them all', async ({
  page,
  launch,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  // No panel behind the addresses: selecting needs none, and nothing is checked.
  for (let index = 1; index <= 8; index++)
    await app.core.addPanel({ address: `https://panel-${index}.example.test`, name: `Client 0${index}` });
  await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
  const row = (name: string) => table(page).getByRole('row', { name: new RegExp(name) });
  const selectedNames = () =>
    table(page)
      .locator('.fleet-row[aria-selected="true"] .col-name')
      .allTextContents()
      .then((names) => names.sort());
  const heading = page.getByRole('heading', { level: 1 });

  await row('Client 02').click();
  await row('Client 05').click({ modifiers: ['Shift'] });
  await expect(heading).toHaveText('4 panels selected');
  expect(await selectedNames()).toEqual(['Client 02', 'Client 03', 'Client 04', 'Client 05']);
  await row('Client 07').click({ modifiers: ['ControlOrMeta'] });
  await expect(heading).toHaveText('5 panels selected');
  await row('Client 03').click({ modifiers: ['ControlOrMeta'] });
  await expect(heading).toHaveText('4 panels selected');
  expect(await selectedNames()).toEqual(['Client 02', 'Client 04', 'Client 05', 'Client 07']);
  await checkScreen(page, '93-table-several-selected');

  // The keyboard: Shift+Down runs from the last one chosen alone; Ctrl+A takes every row; Esc goes back to one.
  await row('Client 06').click();
  await expect(heading).toHaveText('Client 06');
  await expect(table(page)).toBeFocused();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(heading).toHaveText('3 panels selected');
  expect(await selectedNames()).toEqual(['Client 06', 'Client 07', 'Client 08']);
  await page.keyboard.press('ControlOrMeta+a');
  await expect(heading).toHaveText('8 panels selected');
  // Ctrl+A took the rows, not the text of the page.
  expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
  // The row menu of a row in the selection acts on all of it.
  await row('Client 03').click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: 'Log in to 8 panels…' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(table(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(table(page).locator('.fleet-row[aria-selected="true"]')).toHaveCount(1);
  await expect(heading).not.toHaveText(/panels selected/);
});
