import type { Page } from '@playwright/test';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import { checkScreen } from './screens.ts';
import { answerInMain, demo, expect, test } from './fixtures.ts';

/**
 * Log out of a production (red) panel asks in main's confirmation, its name typed, as every other
 * write to a red panel does (issue 35): from the row menu, and for several selected panels.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const row = (page: Page, name: RegExp) => nav(page).getByRole('treeitem', { name });

test('Log out of a red panel from its row menu asks in main, its name typed; Cancel leaves it signed in', async ({
  page,
  launch,
  panelServer,
  confirmations,
}) => {
  const app = await launch(page);
  const { id } = await app.core.addPanel({ address: panelServer.url, name: 'Shop production', colour: 'red' });
  await app.core.logIn(id, demo);
  const signedIn = async () => (await app.core.listPanels()).find((panel) => panel.id === id)?.signedIn;
  const logOutFromRow = async () => {
    await row(page, /Shop production/).click({ button: 'right' });
    await page
      .getByRole('menu')
      .getByRole('menuitem', { name: /^Log out/ })
      .click();
  };

  await logOutFromRow();
  const { plan } = await answerInMain(confirmations, {
    title: 'Log out of Shop production',
    cancel: true,
    inspect: async (asked) => {
      await expect(asked.getByLabel('Type Shop production to confirm')).toBeFocused();
      await expect(asked.getByRole('button', { name: 'Log out', exact: true })).toBeDisabled();
      await checkScreen(asked, 'red-log-out-confirmation');
    },
  });
  expect(plan.typedConfirmation?.text).toBe('Shop production');
  await expect(page.getByText('Nothing was sent: the write was not confirmed.')).toBeVisible();
  expect(await signedIn()).toBe(true);

  await logOutFromRow();
  await answerInMain(confirmations, { title: 'Log out of Shop production' });
  await expect(page.getByRole('form', { name: 'Log in to Shop production' })).toBeVisible();
  expect(await signedIn()).toBe(false);
  expect(confirmations.plans).toHaveLength(2);
});

test('Log out of several with a red one among them: main asks once, the red name typed, and the window asks nothing more', async ({
  page,
  launch,
  panelServer,
  confirmations,
}) => {
  const other = await startReferencePanel();
  try {
    const app = await launch(page);
    const red = await app.core.addPanel({ address: panelServer.url, name: 'Shop production', colour: 'red' });
    const plain = await app.core.addPanel({ address: other.url, name: 'Staging' });
    await app.core.logIn(red.id, demo);
    await app.core.logIn(plain.id, demo);
    await row(page, /Shop production/).click();
    await page.keyboard.press('Control+a');
    const bulk = page.getByRole('region', { name: '2 panels selected' });
    await bulk.getByRole('button', { name: /^Log out of 2 panels/ }).click();
    const { plan } = await answerInMain(confirmations, { title: 'Log out of 2 panels' });
    expect(plan.panels.map((panel) => panel.name)).toEqual(['Shop production', 'Staging']);
    expect(plan.typedConfirmation?.text).toBe('Shop production');
    await expect(bulk.getByRole('status')).toHaveText('Logged out of 2 panels.');
    await checkScreen(page, 'red-log-out-bulk-done');
    // The window's own question was not asked as well: one confirmation, in main.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(confirmations.plans).toHaveLength(1);
    expect((await app.core.listPanels()).filter((panel) => panel.signedIn)).toEqual([]);
  } finally {
    await other.close();
  }
});
