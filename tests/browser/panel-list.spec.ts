import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import type { Core } from '../../electron/core/index.ts';

/**
 * The panel list: 30 reference panels in mixed states (signed in, expired,
 * failing, unreachable, signed out), counted, filtered, searched, checked all at once and walked
 * with the keyboard.
 */

const SIGNED_IN = 18;
const EXPIRED = 4;
const FAILING = 4;
const UNREACHABLE = 2;
const SIGNED_OUT = 2;
const TOTAL = SIGNED_IN + EXPIRED + FAILING + UNREACHABLE + SIGNED_OUT;

interface Fleet {
  servers: ReferencePanel[];
  ids: string[];
  failing: ReferencePanel[];
}

/** Panel i is "Client NN" with a role that says which state it was put in. */
async function buildFleet(core: Core): Promise<Fleet> {
  const servers = await Promise.all(Array.from({ length: TOTAL }, () => startReferencePanel()));
  const roles = [
    ...Array<string>(SIGNED_IN).fill('ok'),
    ...Array<string>(EXPIRED).fill('expired'),
    ...Array<string>(FAILING).fill('failing'),
    ...Array<string>(UNREACHABLE).fill('unreachable'),
    ...Array<string>(SIGNED_OUT).fill('out'),
  ];
  const ids: string[] = [];
  const failing: ReferencePanel[] = [];
  for (const [index, server] of servers.entries()) {
    const role = roles[index]!;
    const name = `Client ${String(index + 1).padStart(2, '0')} ${role === 'ok' ? 'prod' : role}`;
    const { id } = await core.addPanel({ address: server.url, name });
    ids.push(id);
    if (role === 'out') continue;
    await core.logIn(id, demo);
    if (role === 'expired') server.expireAllTokens();
    if (role === 'failing') {
      server.setFault('getSession', { kind: 'server-error' });
      failing.push(server);
    }
    if (role === 'unreachable') await server.close();
    if (role !== 'ok') await core.getSession(id).catch(() => undefined);
  }
  return { servers, ids, failing };
}

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const matches = (page: Page) => panelList(page).locator('.fleet-matches');

test('30 panels in mixed states: counts, needs attention, search by name and state, Check all with progress, keyboard', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  const fleet = await buildFleet(app.core);
  try {
    const counts = panelList(page).getByLabel('Panels by state');
    await expect(counts).toContainText(`${SIGNED_IN} signed in`);
    // A session read that failed with an answer (a 500) leaves the state unknown; no answer at all is unreachable.
    await expect(counts).toContainText(`${FAILING} state unknown`);
    await expect(counts).toContainText(`${UNREACHABLE} unreachable`);
    await expect(counts).toContainText(`${EXPIRED} expired`);
    // Never logged in: new (the search's "signed out" still finds them).
    await expect(counts).toContainText(`${SIGNED_OUT} new`);
    // Only the rows in view are in the page.
    expect(await panelList(page).getByRole('treeitem').count()).toBeLessThan(TOTAL);
    await checkScreen(page, '40-panel-list');

    // The facts, as in the table: the panels never logged in need nothing (they were never tried).
    const attention = panelList(page).getByRole('button', { name: /Needs attention/ });
    await expect(attention).toHaveText(`Needs attention (${EXPIRED + FAILING + UNREACHABLE})`);
    await attention.click();
    await expect(attention).toHaveAttribute('aria-pressed', 'true');
    await expect(matches(page)).toHaveText(`${EXPIRED + FAILING + UNREACHABLE} of ${TOTAL} panels`);
    await expect(panelList(page).getByRole('treeitem', { name: /prod/ })).toHaveCount(0);
    await expect(panelList(page).getByRole('treeitem', { name: /Client \d+ out/ })).toHaveCount(0);
    await checkScreen(page, '41-fleet-needs-attention');
    await attention.click();

    // Search: Ctrl+F goes to the box; a state word, a name, an address; Esc clears.
    await page.keyboard.press('Control+f');
    const search = panelList(page).getByRole('searchbox', { name: 'Find panels' });
    await expect(search).toBeFocused();
    await search.fill('expired');
    await expect(matches(page)).toHaveText(`${EXPIRED} of ${TOTAL} panels`);
    await search.fill('failing');
    await expect(matches(page)).toHaveText(`${FAILING + UNREACHABLE} of ${TOTAL} panels`);
    await search.fill('signed out');
    await expect(matches(page)).toHaveText(`${SIGNED_OUT} of ${TOTAL} panels`);
    // Every word must match, in the name or the address (a port may hold "07" too).
    await search.fill('client 07');
    await expect(panelList(page).getByRole('treeitem', { name: /Client 07 prod/ })).toBeVisible();
    await expect(matches(page)).toHaveText(/^\d+ of 30 panels$/);
    await expect(matches(page)).not.toHaveText('30 of 30 panels');
    await search.fill(new URL(fleet.servers[12]!.url).host);
    await expect(panelList(page).getByRole('treeitem')).toHaveCount(1);
    await expect(panelList(page).getByRole('treeitem')).toContainText('Client 13 prod');
    await search.fill('nothing like this');
    await expect(panelList(page)).toContainText('No panel matches');
    await checkScreen(page, '42-fleet-search-no-match');
    await search.press('Escape');
    await expect(search).toHaveValue('');
    await expect(matches(page)).toHaveText('');

    // Check all: the failing panels recover, the pass shows its progress, the counts follow.
    for (const server of fleet.failing) server.setFault('getSession', { kind: 'latency', ms: 1500 });
    await panelList(page).getByRole('button', { name: 'Check all' }).click();
    await expect(
      panelList(page)
        .getByRole('status')
        .filter({ hasText: /Checking \d+ \/ \d+/ }),
    ).toBeVisible();
    await checkScreen(page, '43-fleet-check-all-progress');
    await expect(panelList(page).getByRole('button', { name: 'Check all' })).toBeVisible({ timeout: 15_000 });
    await expect(counts).toContainText(`${SIGNED_IN + FAILING} signed in`);
    await expect(counts).toContainText(`${UNREACHABLE} unreachable`);
    await expect(counts).not.toContainText('state unknown');
    await expect(panelList(page).getByRole('treeitem').first()).toContainText(/checked (just now|1 min ago)/);

    // Keyboard: one Tab stop; End, Home and type-ahead move the selection and the panel shown.
    const list = panelList(page).getByRole('tree', { name: 'Panel list' });
    await list.focus();
    await page.keyboard.press('End');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Client ${TOTAL} out`);
    await expect(panelList(page).getByRole('treeitem', { name: new RegExp(`Client ${TOTAL} out`) })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.keyboard.press('Home');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Client 01 prod');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Client 02 prod');
    await page.keyboard.type('client 2', { delay: 20 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Client 2\d/);
    await expect(list).toBeFocused();

    // Sorted by last check, each row walked onto is read (and so checked now): rows keep their
    // places while the list has the keyboard, so Down goes to the next row, not back to the top.
    await panelList(page).getByLabel('Sort').selectOption('checked');
    await search.fill('prod');
    await expect(matches(page)).toHaveText(`${SIGNED_IN} of ${TOTAL} panels`);
    await list.focus();
    await page.keyboard.press('Home');
    const firstNames = await panelList(page).locator('.panel-item .panel-item-name').allTextContents();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(firstNames[0]!);
    for (const name of firstNames.slice(1, 5)) {
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
      await expect(panelList(page).getByRole('treeitem', { name: new RegExp(name) })).toHaveAttribute('aria-selected', 'true');
    }
    await expect(list).toHaveAttribute('aria-activedescendant', /^list-item-/);
    const active = await list.getAttribute('aria-activedescendant');
    await expect(page.locator(`[id="${active}"]`)).toHaveCount(1);
    await panelList(page).getByLabel('Sort').selectOption('name');
    await search.fill('');

    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, '44-panel-list-full-hd');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkScreen(page, '45-panel-list-full-hd-dark');
    await page.setViewportSize({ width: 900, height: 600 });
    await checkScreen(page, '46-panel-list-dark');
  } finally {
    await Promise.all(fleet.servers.map((server) => server.close().catch(() => undefined)));
  }
});

test('groups, tags, colours and favourites from the settings form; folded groups, sort and selection survive a restart', async ({
  browser,
  page,
  launch,
}) => {
  const first = await launch(page);
  const servers = await Promise.all(Array.from({ length: 4 }, () => startReferencePanel()));
  try {
    const names = ['Acme web', 'Acme db', 'Globex api', 'Scratch'];
    for (const [index, server] of servers.entries()) await first.core.addPanel({ address: server.url, name: names[index]! });
    const organise = async (name: string, values: { group?: string; tags?: string; colour?: string; favourite?: boolean }) => {
      await panelList(page)
        .getByRole('treeitem', { name: new RegExp(name) })
        .click();
      await page.getByRole('button', { name: 'Settings' }).click();
      const form = page.getByRole('form', { name: 'Panel settings' });
      if (values.group !== undefined) await form.getByLabel('Group').fill(values.group);
      if (values.tags !== undefined) await form.getByLabel('Tags').fill(values.tags);
      if (values.colour !== undefined) await form.getByLabel('Colour').selectOption(values.colour);
      if (values.favourite !== undefined) await form.getByRole('checkbox', { name: /Favourite/ }).setChecked(values.favourite);
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expect(form.getByRole('status')).toHaveText('Saved.');
    };
    await organise('Acme web', { group: 'Acme', tags: 'eu, billing, EU', colour: 'red' });
    await checkScreen(page, '47-panel-settings-organise');
    await organise('Acme db', { group: 'Acme', colour: 'blue' });
    await organise('Globex api', { group: 'Globex', favourite: true });

    const headings = panelList(page).locator('.panel-section .section-name');
    // Globex's only panel is a favourite: it is listed under Favourites, so Globex has no heading.
    await expect(headings).toHaveText(['Favourites', 'Acme', 'No group']);
    await expect(page.locator('.panel-header')).not.toHaveClass(/colour-/);
    await panelList(page)
      .getByRole('treeitem', { name: /Acme web/ })
      .click();
    await expect(page.locator('.panel-header')).toHaveClass(/colour-red/);
    await expect(page.locator('.panel-labels')).toContainText('Red (production)');
    await expect(page.locator('.panel-labels')).toContainText('Tags: eu, billing');
    await checkScreen(page, '48-production-panel-header');

    // Search by tag; fold a group with the keyboard; sort by status.
    const search = panelList(page).getByRole('searchbox', { name: 'Find panels' });
    await search.fill('billing');
    await expect(panelList(page).getByRole('treeitem', { name: /Acme web/ })).toBeVisible();
    await expect(panelList(page).getByRole('treeitem', { name: /Acme db/ })).toHaveCount(0);
    await search.press('Escape');
    const acme = panelList(page).getByRole('treeitem', { name: /^Acme\b.*2 panels/ });
    await acme.click();
    await expect(acme).toHaveAttribute('aria-expanded', 'false');
    await expect(panelList(page).getByRole('treeitem', { name: /Acme db/ })).toHaveCount(0);
    await panelList(page).getByLabel('Sort').selectOption('status');
    await panelList(page)
      .getByRole('treeitem', { name: /Scratch/ })
      .click();
    await checkScreen(page, '49-panel-list-groups-folded');
    // The view is saved a second after the last change.
    await expect.poll(async () => (await first.core.getAppStatus()).settings.panelList.sort, { timeout: 5000 }).toBe('status');
    await expect.poll(async () => (await first.core.getAppStatus()).settings.panelList.selectedPanelId, { timeout: 5000 }).not.toBeNull();

    const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
    const again = await context.newPage();
    await launch(again, { encryption: first.encryption });
    await expect(panelList(again).getByRole('treeitem', { name: /^Acme\b.*2 panels/ })).toHaveAttribute('aria-expanded', 'false');
    await expect(panelList(again).getByLabel('Sort')).toHaveValue('status');
    await expect(again.getByRole('heading', { level: 1 })).toHaveText('Scratch');
    await expect(panelList(again).getByRole('treeitem', { name: /Globex api/ })).toContainText('★');
    await context.close();
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
