import type { Page } from '@playwright/test';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { checkScreenBothSizes } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';

/**
 * An operator's daily path (issue 22): a panel's Cancel stops that panel's read only, bulk actions
 * that lose sign-ins ask first, and logging in to an expired panel by keyboard takes four steps.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const row = (page: Page, name: RegExp) => nav(page).getByRole('treeitem', { name });

const checkBothSizes = checkScreenBothSizes;

/** Runs `body` with `count` more reference panels, closed afterwards. */
async function withMorePanels(count: number, body: (servers: ReferencePanel[]) => Promise<void>): Promise<void> {
  const servers = await Promise.all(Array.from({ length: count }, () => startReferencePanel()));
  try {
    await body(servers);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

test("Cancel in a panel's session view stops that panel's read; the Check all under way goes on", async ({ page, launch, panelServer }) => {
  await withMorePanels(1, async ([other]) => {
    if (!other) throw new Error('withMorePanels(1) started no panel');
    const app = await launch(page);
    const production = await app.core.addPanel({ address: panelServer.url, name: 'Production' });
    const staging = await app.core.addPanel({ address: other.url, name: 'Staging' });
    await app.core.logIn(production.id, demo);
    await app.core.logIn(staging.id, demo);
    await expect(page.locator('dl.summary')).toContainText(demo.email);

    // Both slow: the check of all panels is still under way when the operator opens Staging (its
    // session is read as it is shown) and cancels that read.
    panelServer.setFault('getSession', { kind: 'latency', ms: 2500 });
    other.setFault('getSession', { kind: 'latency', ms: 2500 });
    const startedAt = new Date().toISOString();
    await nav(page).getByRole('button', { name: 'Check all' }).click();
    const checking = nav(page)
      .getByRole('status')
      .filter({ hasText: /Checking \d+ \/ 2/ });
    await expect(checking).toBeVisible();
    const reads = () => app.calls.filter((call) => call === 'panelApi:getSession').length;
    const readsBefore = reads();
    await row(page, /Staging/).click();
    const view = page.locator('.session-view');
    // Its read is in flight (not only about to start) when Cancel is clicked.
    await expect.poll(reads).toBe(readsBefore + 1);
    await view.getByRole('button', { name: 'Cancel' }).click();
    await expect(view.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled();
    await expect(checking).toBeVisible();
    await checkBothSizes(page, 'daily-01-panel-cancel-check-goes-on');

    // The pass ends on its own and reads both panels: nothing of it was cancelled.
    await expect(nav(page).getByRole('button', { name: 'Check all' })).toBeVisible({ timeout: 15_000 });
    for (const panel of await app.core.listPanels()) {
      expect(panel.lastCheck?.ok, `${panel.name} checked`).toBe(true);
      expect(panel.lastCheck!.at > startedAt, `${panel.name} checked by the pass`).toBe(true);
    }
  });
});

test('Log out of several panels asks first, naming them, from the bulk view and from the palette', async ({
  page,
  launch,
  panelServer,
}) => {
  await withMorePanels(2, async (others) => {
    const app = await launch(page);
    for (const [name, server] of [
      ['Alpha', panelServer],
      ['Bravo', others[0]!],
      ['Charlie', others[1]!],
    ] as const) {
      const { id } = await app.core.addPanel({ address: server.url, name });
      if (name !== 'Charlie') await app.core.logIn(id, demo);
    }
    const signedIn = async () => (await app.core.listPanels()).filter((panel) => panel.signedIn).map((panel) => panel.name);
    await row(page, /^Alpha/).click();
    await page.keyboard.press('Control+a');
    const bulk = page.getByRole('region', { name: '3 panels selected' });
    await expect(bulk).toBeVisible();

    // The button asks: which panels (by name), how many, and what happens to them; Cancel has the focus.
    await bulk.getByRole('button', { name: /^Log out of the 2 signed in/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Log out of 2 panels?' });
    await expect(confirm).toContainText('Alpha, Bravo');
    await expect(confirm).not.toContainText('Charlie, ');
    await expect(confirm).toContainText('Charlie is not signed in');
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await checkBothSizes(page, 'daily-02-bulk-log-out-confirm');
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    expect(await signedIn()).toEqual(['Alpha', 'Bravo']);

    // The palette's command asks the same question once; confirmed, both are logged out.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('log out of the selected');
    await page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: 'Log out of 2 panels' }).click();
    await expect(bulk.getByRole('status')).toHaveText('Logged out of 2 panels.');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await signedIn()).toEqual([]);
  });
});

test('logging in by keyboard: Enter on a signed-out row opens its log in at the password, and the focus comes back to the row; the palette moves the focus to the panel chosen', async ({
  page,
  launch,
  panelServer,
}) => {
  await withMorePanels(2, async ([bravoServer, charlieServer]) => {
    const app = await launch(page);
    // Preferences' default email, set in the window as an operator sets it (the window reads its status once).
    await page.getByRole('button', { name: 'Preferences' }).click();
    const preferences = page.getByRole('dialog', { name: 'Preferences' });
    await preferences.getByLabel('Default email').fill(demo.email);
    await preferences.getByRole('button', { name: 'Done' }).click();
    await expect(preferences).toBeHidden();
    expect((await app.core.getAppStatus()).settings.defaultEmail).toBe(demo.email);
    const alpha = await app.core.addPanel({ address: panelServer.url, name: 'Alpha' });
    const bravo = await app.core.addPanel({ address: bravoServer!.url, name: 'Bravo' });
    await app.core.addPanel({ address: charlieServer!.url, name: 'Charlie' });
    await app.core.logIn(alpha.id, demo);
    // Bravo's session expired at the panel: the next read ends the sign-in ("Expired").
    await app.core.logIn(bravo.id, demo);
    bravoServer!.expireAllTokens();
    await app.core.getSession(bravo.id).catch(() => undefined);
    const tree = nav(page).getByRole('tree', { name: 'Panel list' });
    await expect(row(page, /^Bravo.*Expired/)).toBeVisible();
    const focusedRow = async (name: RegExp) => {
      await expect(tree).toBeFocused();
      await expect(tree).toHaveAttribute('aria-activedescendant', (await row(page, name).getAttribute('id'))!);
    };

    // The daily path, counted: from the list, a key to reach the expired panel, Enter, the password, Enter.
    await row(page, /^Alpha/).click();
    let keys = 0;
    const press = async (key: string) => {
      keys++;
      await page.keyboard.press(key);
    };
    await press('ArrowDown');
    await press('Enter');
    const bravoForm = page.getByRole('form', { name: 'Log in to Bravo' });
    await expect(bravoForm.getByLabel('Password')).toBeFocused();
    await expect(bravoForm.getByLabel('Email')).toHaveValue(demo.email);
    await checkBothSizes(page, 'daily-03-enter-opens-log-in');
    await page.keyboard.type(demo.password);
    await press('Enter');
    await expect(page.locator('dl.summary')).toContainText(demo.email);
    await focusedRow(/^Bravo/);
    expect(keys, 'keys besides the password').toBe(3);
    await checkBothSizes(page, 'daily-04-logged-in-back-in-list');

    // Never logged in: the email is Preferences' default, so the cursor goes to the password too.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('form', { name: 'Log in to Charlie' }).getByLabel('Password')).toBeFocused();
    await page.keyboard.type(demo.password);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Charlie', level: 1 })).toBeVisible();
    await expect(page.locator('dl.summary')).toContainText(demo.email);
    await focusedRow(/^Charlie/);

    // The palette: a signed-in panel chosen gets the focus at its row, a signed-out one at its password.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('alpha');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Alpha', level: 1 })).toBeVisible();
    await focusedRow(/^Alpha/);
    await app.core.logOut(alpha.id);
    await page.getByRole('heading', { name: 'Alpha', level: 1 }).click();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('alpha');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('form', { name: 'Log in to Alpha' }).getByLabel('Password')).toBeFocused();
    await page.keyboard.type(demo.password);
    await page.keyboard.press('Enter');
    await expect(page.locator('dl.summary')).toContainText(demo.email);
    await focusedRow(/^Alpha/);
  });
});

test('organising several panels asks first only when it takes away labels some of them have, naming those', async ({ page, launch }) => {
  const app = await launch(page);
  const alpha = await app.core.addPanel({ address: 'alpha.example.com', name: 'Alpha', group: 'Beta', tags: ['eu'], colour: 'red' });
  await app.core.updatePanel(alpha.id, { favourite: true });
  await app.core.addPanel({ address: 'bravo.example.com', name: 'Bravo' });
  await app.core.addPanel({ address: 'charlie.example.com', name: 'Charlie', group: 'Acme' });
  await row(page, /^Alpha/).click();
  await page.keyboard.press('Control+a');
  const bulk = page.getByRole('region', { name: '3 panels selected' });
  const answer = async (title: string, confirmLabel: string | null, names: string) => {
    const confirm = page.getByRole('dialog', { name: title });
    await expect(confirm).toContainText(names);
    await confirm.getByRole('button', { name: confirmLabel ?? 'Cancel', exact: true }).click();
    await expect(confirm).toBeHidden();
  };

  // Alpha would leave its group Beta: asked, naming it; Cancel changes nothing and keeps what was typed.
  await bulk.getByLabel('Move to group').fill('Acme');
  await bulk.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Move 3 panels to Acme?' })).not.toContainText('Charlie (');
  await checkBothSizes(page, 'daily-05-bulk-move-confirm');
  await answer('Move 3 panels to Acme?', null, 'Alpha (Beta)');
  await expect(bulk.getByLabel('Move to group')).toHaveValue('Acme');
  expect((await app.core.listPanels()).map((panel) => panel.group)).toEqual(['Beta', null, 'Acme']);
  await bulk.getByRole('button', { name: 'Move', exact: true }).click();
  await answer('Move 3 panels to Acme?', 'Move 3 panels', 'Alpha (Beta)');
  await expect(bulk.getByRole('status')).toHaveText('Moved 3 panels to Acme.');

  // Adding loses nothing: no question.
  await bulk.getByLabel('Add tags').fill('db');
  await bulk.getByLabel('Add tags').press('Enter');
  await expect(bulk.getByRole('status')).toHaveText('Tagged 3 panels.');
  await bulk.getByLabel('Remove tags').fill('eu');
  await bulk.getByLabel('Remove tags').press('Enter');
  await answer('Remove the tag eu from 1 panel?', 'Remove the tag', 'Alpha');
  await expect(bulk.getByRole('status')).toHaveText('Removed those tags from 3 panels.');
  await bulk.getByLabel('Colour').selectOption('blue');
  await bulk.getByRole('button', { name: 'Set colour' }).click();
  await answer('Colour 3 panels blue?', 'Colour 3 panels', 'Alpha (red');
  await bulk.getByRole('button', { name: 'Unmark' }).click();
  await answer('Unmark 1 favourite?', 'Unmark 1 panel', 'Alpha');
  await expect(bulk.getByRole('status')).toHaveText('Unmarked 3 panels.');
  await bulk.getByRole('button', { name: 'Mark as favourites' }).click();
  await expect(bulk.getByRole('status')).toHaveText('Marked 3 panels as favourites.');
  expect((await app.core.listPanels()).map((panel) => [panel.group, panel.tags, panel.colour, panel.favourite])).toEqual([
    ['Acme', ['db'], 'blue', true],
    ['Acme', ['db'], 'blue', true],
    ['Acme', ['db'], 'blue', true],
  ]);
});
