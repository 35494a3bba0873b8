import type { Locator, Page } from '@playwright/test';
import { DEMO_USER, startReferencePanel } from '../support/reference-panel/server.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * The window's one confirmation (renderer/ui/confirm-dialog.tsx), as each of its callers asks it
 * (changes to Paneldeck's own list), and main's confirmation of a write beside it: each opens on its
 * safe choice or the field to type in, Esc goes back with nothing done, and where a name must be
 * typed the action waits for it (the button, and Enter in the field) and then Enter confirms.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

/** Opens on its safe choice, and Esc closes it without doing anything. */
async function opensOnCancelAndEscapes(page: Page, dialog: Locator): Promise<void> {
  await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}

test('one confirmation for a panel, several panels and a service: focus, Esc and the typed name behave alike', async ({
  page,
  launch,
  confirmations,
}) => {
  const server = await startReferencePanel({ style: 'public' });
  try {
    server.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    const app = await launch(page);
    const { id } = await app.core.addPanel({ address: server.url, name: 'Shop production' });
    await app.core.updatePanel(id, { colour: 'red' });
    await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    await app.core.addPanel({ address: 'staging.example.com', name: 'Staging' });
    await expect(nav(page).getByRole('treeitem')).toHaveCount(2);

    // A panel's Remove (its settings): plain.
    await nav(page)
      .getByRole('treeitem', { name: /Staging/ })
      .click();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Remove panel…' }).click();
    await opensOnCancelAndEscapes(page, page.getByRole('dialog', { name: 'Remove Staging?' }));
    expect((await app.core.listPanels()).length).toBe(2);

    // Several panels' Remove (the bulk view): plain, naming them.
    await nav(page).getByRole('tree').focus();
    await page.keyboard.press('Control+a');
    await page.getByRole('region', { name: '2 panels selected' }).getByRole('button', { name: 'Remove 2 panels…' }).click();
    const removeBoth = page.getByRole('dialog', { name: 'Remove 2 panels?' });
    await expect(removeBoth).toContainText('Shop production, Staging');
    await checkScreenBothSizes(page, 'confirm-01-bulk-remove');
    await opensOnCancelAndEscapes(page, removeBoth);
    expect((await app.core.listPanels()).length).toBe(2);

    // A stop on the red panel (the Services tab): main's own confirmation, where the panel's name
    // is typed first; its keys behave as the window's (Esc is no, Enter in the field is yes).
    await nav(page)
      .getByRole('treeitem', { name: /Shop production/ })
      .click();
    await page.getByRole('button', { name: 'Services', exact: true }).click();
    const table = page.getByRole('table', { name: 'Services' });
    await table.getByRole('button', { name: 'Actions for shop/web' }).click();
    await page.getByRole('menuitem', { name: 'Stop…' }).click();
    const escaped = await confirmations.next();
    await expect(escaped.getByRole('heading', { name: 'Stop shop/web on Shop production' })).toBeVisible();
    await expect(escaped.getByLabel('Type Shop production to confirm')).toBeFocused();
    await escaped.keyboard.press('Escape');
    await expect(page.locator('.window-notice')).toHaveText(/Stop not sent: it was not confirmed\./);
    await table.getByRole('button', { name: 'Actions for shop/web' }).click();
    await page.getByRole('menuitem', { name: 'Stop…' }).click();
    const stop = await confirmations.next();
    const name = stop.getByLabel('Type Shop production to confirm');
    await name.fill('Shop');
    await name.press('Enter');
    await expect(stop.getByRole('button', { name: 'Stop', exact: true })).toBeDisabled();
    expect(server.requests.filter((request) => request.path === '/api/stopAppService')).toHaveLength(0);
    // Spaces around the name do not count, as in every typed confirmation.
    await name.fill(' Shop production ');
    await expect(stop.getByRole('button', { name: 'Stop', exact: true })).toBeEnabled();
    await checkScreenBothSizes(stop, 'confirm-02-typed-name');
    await name.press('Enter');
    await expect(page.locator('.window-notice')).toHaveText(/Stopped shop\/web on Shop production\./);
    expect(server.requests.filter((request) => request.path === '/api/stopAppService')).toHaveLength(1);
  } finally {
    await server.close();
  }
});
