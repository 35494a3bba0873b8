import { expect, test } from './fixtures.ts';
import { checkScreen, checkScreenBothSizes, rendererContents } from './screens.ts';
import { fillServicePicker, openSignedInTab } from './ui-steps.ts';

/**
 * The Logs tab against the reference panel's log WebSocket: the last lines of a service, a live
 * follow up to 100,000 lines drawn only where in view, search and copy; the token never in the page.
 */

/** That the element is drawn inside the window's height, not below it. */
async function expectInWindow(page: import('@playwright/test').Page, element: import('@playwright/test').Locator) {
  await expect(element).toBeVisible();
  const box = await element.boundingBox();
  const height = page.viewportSize()!.height;
  expect(box && box.y + box.height <= height, `the line ends at y=${box ? box.y + box.height : '?'} in a window ${height} px high`).toBe(
    true,
  );
}

test('the Logs tab reads the last lines, follows to 100,000 lines drawing only the rows in view, searches and copies', async ({
  page,
  launch,
  panelServer,
}) => {
  test.setTimeout(120_000);
  panelServer.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  const levels = ['INFO', 'INFO', 'WARN', 'INFO', 'ERROR'];
  const entry = (n: number) =>
    `2026-11-25T09:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}Z ${levels[n % 5]} request ${n} GET /api/cart/${n % 97} ${n % 5 === 4 ? '500 upstream timed out' : '200'}`;
  panelServer.logs.write('shop', 'web', Array.from({ length: 10_000 }, (_, n) => entry(n + 1)).join('\n'));
  const app = await launch(page);
  await page.setViewportSize({ width: 900, height: 600 });
  await openSignedInTab(page, app.core, panelServer.url, 'Logs');
  const token = panelServer.issuedTokens().at(-1)!;
  const view = page.getByRole('region', { name: 'Logs' });

  // The names are checked before anything is asked (the screenshot shows them as the operator typed them).
  await fillServicePicker(view, 'Show log', 'Shop!', '');
  await view.getByRole('button', { name: 'Show log' }).click();
  await checkScreen(page, 'logs-01-names-checked');

  await fillServicePicker(view, 'Show log', 'shop', 'web');
  await view.getByLabel('Last').selectOption('10000');
  await view.getByRole('button', { name: 'Show log' }).click();
  const status = view.getByRole('status');
  await expect(status).toContainText('10,000 lines');
  const log = view.getByRole('log', { name: 'Log of shop/web' });
  // It opens at its newest line, inside the window (a 900x600 window once left it below, at y=619).
  await expect(log).toContainText('request 10000 GET');
  await expectInWindow(page, log.locator('.log-line', { hasText: 'request 10000 GET' }));
  await checkScreenBothSizes(page, 'logs-02-last-lines');
  await page.setViewportSize({ width: 900, height: 600 });

  // Follow: 90,000 more lines arrive live; the viewer holds 100,000 and draws a screenful.
  await view.getByRole('checkbox', { name: 'Follow' }).check();
  await expect(status).toContainText('following');
  await expect.poll(() => panelServer.logs.openSockets('shop', 'web')).toBe(1);
  for (let start = 10_000; start < 100_000; start += 10_000) {
    panelServer.logs.write('shop', 'web', Array.from({ length: 10_000 }, (_, n) => entry(start + n + 1)).join('\n'));
  }
  await expect(status).toContainText('100,000 lines', { timeout: 60_000 });
  await expect(log).toContainText('request 100000 GET');
  await expectInWindow(page, log.locator('.log-line', { hasText: 'request 100000 GET' }));
  expect(await log.locator('.log-line').count()).toBeLessThan(80);
  // Responsive with 100,000 lines: a search answers at once.
  const started = Date.now();
  await view.getByRole('searchbox', { name: 'Search the log' }).fill('error request 9999');
  await expect(status).toContainText('of 100,000 lines');
  const searchMs = Date.now() - started;
  console.log(`search over 100,000 lines shown in ${searchMs} ms`);
  await expect(log).toContainText('request 99999 GET /api/cart/89 500 upstream timed out');
  await checkScreenBothSizes(page, 'logs-03-following-search');

  await view.getByRole('button', { name: 'Copy' }).click();
  await expect(view.getByText(/Copied \d+ lines|The system refused the copy/)).toBeVisible();

  // Follow off: the panel's socket closes.
  await view.getByRole('checkbox', { name: 'Follow' }).uncheck();
  await expect.poll(() => panelServer.logs.openSockets()).toBe(0);
  // Leaving the tab while following also ends it.
  await view.getByRole('checkbox', { name: 'Follow' }).check();
  await expect.poll(() => panelServer.logs.openSockets()).toBe(1);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect.poll(() => panelServer.logs.openSockets()).toBe(0);

  expect(await rendererContents(page)).not.toContain(token);
  expect(JSON.stringify(app.answers)).not.toContain(token);
  expect(JSON.stringify(app.events)).not.toContain(token);
});

test('the Logs tab says why a read failed, in the panel’s words without the token', async ({ page, launch, panelServer }) => {
  panelServer.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  const app = await launch(page);
  await openSignedInTab(page, app.core, panelServer.url, 'Logs');
  const view = page.getByRole('region', { name: 'Logs' });
  await fillServicePicker(view, 'Show log', 'shop', 'api');
  await view.getByRole('button', { name: 'Show log' }).click();
  await expect(view.getByRole('alert')).toContainText('The panel has no log for this service');
  await checkScreenBothSizes(page, 'logs-04-no-such-service');
});
