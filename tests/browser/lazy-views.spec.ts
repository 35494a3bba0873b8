import type { Page, Route } from '@playwright/test';
import type { AppUnderTest } from './app-harness.ts';
import { expect, test } from './fixtures.ts';

/**
 * The views left out of the first bundle (docs/architecture.md, "What loads at start"): one whose
 * code does not arrive says so and what to do, the rest of the window working on; and the palette,
 * typed into before its code has arrived, loses nothing.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

/** The page errors a file that did not load makes, exactly these: the browser's and the app's own line. */
function dropLoadFailureErrors(app: AppUnderTest, chunk: RegExp): void {
  const expected = (error: string) =>
    /^Failed to load resource: net::ERR_FAILED$/.test(error) ||
    error === 'A view failed to render: ViewLoadFailure' ||
    (chunk.test(error) && /Failed to fetch dynamically imported module/.test(error));
  const kept = app.pageErrors.filter((error) => !expected(error));
  app.pageErrors.splice(0, app.pageErrors.length, ...kept);
}

test('a view whose code does not load says so, offers a reload, and the reload brings the view', async ({ page, launch }) => {
  const chunk = /\/assets\/backups-view-[\w-]+\.js$/;
  // Both fetches fail: the warm-up's after the first screen, and the first opening's.
  let refused = 0;
  await page.route(chunk, (route) => {
    refused++;
    return route.abort('failed');
  });
  const app = await launch(page);
  await app.core.addPanel({ address: 'one.example.com', name: 'One' });
  await expect(nav(page).getByRole('treeitem', { name: /One/ })).toBeVisible();

  await nav(page).getByRole('button', { name: 'Backups', exact: true }).click();
  const failure = page.getByRole('alert').filter({ hasText: 'Paneldeck could not load the backups view' });
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('Reload the window to load it again');
  await expect(failure).toContainText('Reason: TypeError: Failed to fetch dynamically imported module');
  expect(refused).toBeGreaterThan(0);
  // The rest of the window works on: another view opens (its code did arrive).
  await nav(page).getByRole('button', { name: 'Activity', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Activity' })).toBeVisible();
  await nav(page).getByRole('button', { name: 'Backups', exact: true }).click();
  await expect(failure).toBeVisible();
  dropLoadFailureErrors(app, chunk);

  // The files are back (say, the update finished): the reload loads the view.
  await page.unroute(chunk);
  await Promise.all([page.waitForEvent('load'), failure.getByRole('button', { name: 'Reload the window' }).click()]);
  await expect(nav(page).getByRole('treeitem', { name: /One/ })).toBeVisible();
  await nav(page).getByRole('button', { name: 'Backups', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Backups', exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'could not load' })).toHaveCount(0);
});

test('a dialog whose code does not load says so in a dialog, which Esc closes', async ({ page, launch }) => {
  const chunk = /\/assets\/preferences-dialog-[\w-]+\.js$/;
  await page.route(chunk, (route) => route.abort('failed'));
  const app = await launch(page);
  await expect(page.getByRole('heading', { name: 'Add your first panel' })).toBeVisible();
  await nav(page).getByRole('button', { name: 'Preferences' }).click();
  const dialog = page.getByRole('dialog', { name: 'This dialog could not be opened' });
  await expect(dialog.getByRole('alert')).toContainText('Paneldeck could not load the preferences');
  await expect(dialog.getByRole('button', { name: 'Reload the window' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Back to the window as it was, its buttons working.
  await expect(nav(page).getByRole('button', { name: 'Preferences' })).toBeFocused();
  dropLoadFailureErrors(app, chunk);
});

test('Ctrl+K and typing at once: what is typed and Enter, before the palette has loaded, are kept and acted on', async ({
  page,
  launch,
}, testInfo) => {
  const target = testInfo.outputPath('exported-panels.json');
  // The palette's code is held back until the keys have been typed into its stand-in.
  const held: Route[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const chunk = /\/assets\/command-palette-[\w-]+\.js$/;
  await page.route(chunk, async (route) => {
    held.push(route);
    await released;
    await route.continue();
  });
  const app = await launch(page, { core: { chooseExportFile: async () => target } });
  await app.core.addPanel({ address: 'one.example.com', name: 'One' });
  await expect(nav(page).getByRole('treeitem', { name: /One/ })).toBeVisible();

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette.getByRole('textbox', { name: 'Jump to a panel or run a command' })).toBeFocused();
  await page.keyboard.type('export');
  await page.keyboard.press('Enter');
  // Nothing ran yet: the palette is still on its way.
  expect(held.length).toBeGreaterThan(0);
  await expect(palette).toBeVisible();
  release();
  await expect(page.getByRole('status').filter({ hasText: 'Exported 1 panel to' })).toContainText(target);
  await expect(palette).toBeHidden();

  // Opened again, it is the palette itself at once, with its lists.
  await page.keyboard.press('Control+k');
  await expect(palette.getByRole('combobox', { name: 'Jump to a panel or run a command' })).toBeFocused();
  await page.keyboard.type('one');
  await expect(palette.getByRole('option', { name: /One/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
});
