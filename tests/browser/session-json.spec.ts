import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ReferencePanel } from '../support/reference-panel/server.ts';
import { checkScreen, screenshotDir } from './screens.ts';
import { addPanel, demo, expect, logIn, test } from './fixtures.ts';

/** Signs in to the reference panel, which then answers getSession with `body`. */
async function showSession(page: Page, panelServer: ReferencePanel, body: unknown): Promise<Locator> {
  panelServer.setSessionBody(body);
  await addPanel(page, panelServer.url, 'Production');
  await logIn(page);
  const data = page.getByRole('region', { name: 'Everything the panel returned' });
  await expect(data).toBeVisible();
  await expect(page.locator('.session-view')).toHaveAttribute('aria-busy', 'false');
  return data;
}

const rows = (page: Page) => page.getByRole('list', { name: 'The session as the panel returned it' }).locator(':scope > li');

/** `{ level: 1, next: { level: 2, next: … { bottom } } }`, `levels` objects above the bottom one. */
function deepSession(levels: number): unknown {
  let node: unknown = { bottom: 'the deepest value' };
  for (let level = levels; level >= 1; level--) node = { level, next: node };
  return node;
}

test('depth 1,000: levels open on demand, Expand all reaches the bottom, the DOM stays flat', async ({ page, launch, panelServer }) => {
  await launch(page);
  const data = await showSession(page, panelServer, deepSession(1000));
  await expect(data).toContainText('2,001 values in all, 1,001 levels deep');
  // Two levels open to start with: the root and its "next"; the third is closed.
  const toggles = data.locator('button.json-toggle');
  await expect(toggles).toHaveCount(3);
  await expect(toggles.nth(2)).toHaveAttribute('aria-expanded', 'false');
  for (let opened = 0; opened < 14; opened++) {
    // Locators are lazy: `last()` would be the level this click reveals, so name it by place.
    const deepest = toggles.nth(2 + opened);
    await deepest.click();
    await expect(deepest).toHaveAttribute('aria-expanded', 'true');
  }
  await expect(toggles).toHaveCount(3 + 14);
  await expect(data).not.toContainText('the deepest value');
  // Past the indent limit, rows stop moving right and say their level instead.
  await expect(rows(page).last().locator('.json-level')).toHaveText('17');
  await rows(page).last().scrollIntoViewIfNeeded();
  await checkScreen(page, 'session-json-deep');

  await data.getByRole('button', { name: 'Expand all' }).click();
  const bottom = data.getByText('"the deepest value"');
  await expect(bottom).toBeVisible();
  await expect(toggles).toHaveCount(1001);
  // One list, however deep the answer: rows are siblings, the level is an attribute.
  const bottomRow = rows(page).filter({ hasText: 'the deepest value' });
  await expect(bottomRow).toHaveAttribute('aria-level', '1002');
  await expect(bottomRow.locator('.json-level')).toHaveText('1,002');
  const domDepth = await page.evaluate(() => {
    let deepest = 0;
    for (const element of Array.from(document.querySelectorAll('.json-rows *'))) {
      let depth = 0;
      for (let node: Element | null = element; node && !node.classList.contains('json-rows'); node = node.parentElement) depth++;
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  });
  expect(domDepth).toBeLessThan(8);
  await bottom.scrollIntoViewIfNeeded();
  // A plain screenshot: axe-core over these 2,000 rows takes minutes, and the screen above
  // already scanned every kind of row this one has.
  await page.screenshot({ path: join(screenshotDir, 'session-json-deep-expanded.png') });

  await data.getByRole('button', { name: 'Collapse all' }).click();
  await expect(rows(page)).toHaveCount(3);
});

test('10,000 keys: a page of rows at a time, then a thousand more; Copy as JSON copies them all', async ({ page, launch, panelServer }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await launch(page);
  const body = Object.fromEntries(
    Array.from({ length: 10_000 }, (_, index) => [`item-${String(index).padStart(5, '0')}`, index % 3 === 0 ? `value ${index}` : index]),
  );
  const data = await showSession(page, panelServer, body);
  await expect(data).toContainText('10,000 values in all, 1 level deep');
  // The root, the first 100 keys and the row that offers more.
  await expect(rows(page)).toHaveCount(102);
  await expect(data).toContainText('Showing 100 of 10,000.');
  await data.getByRole('button', { name: 'Show 100 more' }).scrollIntoViewIfNeeded();
  await checkScreen(page, 'session-json-10k-keys');

  await data.getByRole('button', { name: 'Show 100 more' }).click();
  await expect(rows(page)).toHaveCount(202);
  await expect(data).toContainText('item-00199: 199');
  await expect(data).not.toContainText('item-00200');
  // Too many to show at once without holding the window: a thousand at a time instead.
  await expect(data.getByRole('button', { name: /^Show all/ })).toHaveCount(0);
  await data.getByRole('button', { name: 'Show 1,000 more' }).click();
  await expect(rows(page)).toHaveCount(1_202);
  await expect(data).toContainText('item-01199: 1199');
  await expect(data).not.toContainText('item-01200');

  await page.context().grantPermissions(['clipboard-read'], { origin: new URL(page.url()).origin });
  await data.getByRole('button', { name: 'Copy as JSON' }).click();
  await expect(data.getByText('Copied (secret values stay masked).')).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as Record<string, unknown>;
  expect(Object.keys(copied)).toHaveLength(10_000);
  expect(copied['item-09999']).toBe('value 9999');
});

test('a 1 MiB string shows its start and size until Show all; the summary line stays short', async ({ page, launch, panelServer }) => {
  await launch(page);
  const blob = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(30_000).slice(0, 1024 * 1024);
  const data = await showSession(page, panelServer, {
    user: { email: 'big@example.com', displayName: `Operator ${'n'.repeat(5000)}` },
    blob,
  });
  const summaryName = page.locator('dl.summary dd').nth(1);
  await expect(summaryName).toContainText('Operator nnn');
  expect((await summaryName.textContent())?.length).toBeLessThanOrEqual(200);

  const blobRow = rows(page).filter({ hasText: 'blob:' });
  await expect(blobRow).toContainText('(1,048,576 characters, 1.0 MiB)');
  expect((await blobRow.textContent())?.length).toBeLessThan(1200);
  await blobRow.getByRole('button', { name: 'Show all' }).scrollIntoViewIfNeeded();
  await checkScreen(page, 'session-json-long-string');

  await blobRow.getByRole('button', { name: 'Show all' }).click();
  await expect(blobRow.getByRole('button', { name: 'Show less' })).toBeVisible();
  expect((await blobRow.textContent())?.length).toBeGreaterThan(1024 * 1024);
  await blobRow.getByRole('button', { name: 'Show less' }).click();
  await expect(blobRow.getByRole('button', { name: 'Show all' })).toBeVisible();

  await page.context().grantPermissions(['clipboard-read'], { origin: new URL(page.url()).origin });
  await data.getByRole('button', { name: 'Copy as JSON' }).click();
  await expect(data.getByText('Copied (secret values stay masked).')).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { blob: string };
  expect(copied.blob).toBe(blob);
});

test('an array of objects at the top: a page of closed objects, secrets masked, open branches kept on Refresh', async ({
  page,
  launch,
  panelServer,
}) => {
  await launch(page);
  const users = Array.from({ length: 250 }, (_, index) => ({
    id: index,
    email: `user${index}@example.com`,
    roles: ['admin', 'billing'],
    active: index % 2 === 0,
    apiToken: `secret-${index}`,
    tags: [],
  }));
  const data = await showSession(page, panelServer, users);
  await expect(page.locator('dl.summary')).toHaveCount(0);
  await expect(data).toContainText('[250 items]');
  // A long list starts as a list: the root open, its first 100 objects closed, a row offering more.
  await expect(rows(page)).toHaveCount(102);
  const fifth = data.getByRole('button', { name: '4 {6 keys}', exact: true });
  await expect(fifth).toHaveAttribute('aria-expanded', 'false');
  await fifth.click();
  await expect(fifth).toHaveAttribute('aria-expanded', 'true');
  await expect(data).toContainText('email: "user4@example.com"');
  await expect(data).toContainText('apiToken: •••••••• (hidden)');
  await expect(data).toContainText('tags: []');
  await expect(data).not.toContainText('secret-4');
  const roles = data.getByRole('button', { name: 'roles [2 items]' });
  await expect(roles).toHaveAttribute('aria-expanded', 'false');
  await roles.click();
  await expect(data).toContainText('1: "billing"');
  const fourth = data.getByRole('button', { name: '3 {6 keys}', exact: true });
  await fourth.click();
  await expect(fourth).toHaveAttribute('aria-expanded', 'true');
  await fourth.click();
  await expect(fourth).toHaveAttribute('aria-expanded', 'false');
  await fifth.scrollIntoViewIfNeeded();
  await checkScreen(page, 'session-json-array-of-objects');

  // A refreshed answer is a new value: the same branches stay open, and closed ones closed.
  const before = await rows(page).count();
  await page.locator('.session-view').getByRole('button', { name: 'Refresh' }).click();
  await expect(page.locator('.session-view')).toHaveAttribute('aria-busy', 'false');
  await expect(fifth).toHaveAttribute('aria-expanded', 'true');
  await expect(fourth).toHaveAttribute('aria-expanded', 'false');
  await expect(data).toContainText('1: "billing"');
  await expect(rows(page)).toHaveCount(before);
  await data.getByRole('button', { name: 'Show 100 more' }).click();
  await expect(data.getByRole('button', { name: '199 {6 keys}', exact: true })).toBeVisible();
});

test('a null session shows as null with a plain note, and no summary', async ({ page, launch, panelServer }) => {
  await launch(page);
  const data = await showSession(page, panelServer, null);
  await expect(data).toContainText('A single null, not an object: the panel sent no details.');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toHaveText('null');
  await expect(page.locator('dl.summary')).toHaveCount(0);
  await expect(data.getByRole('button', { name: 'Expand all' })).toHaveCount(0);
  await checkScreen(page, 'session-json-null');
});

test('numbers at the edges read as JSON writes them', async ({ page, launch, panelServer }) => {
  await launch(page);
  await showSession(page, panelServer, {
    largest: Number.MAX_VALUE,
    huge: 1e308,
    smallest: 5e-324,
    negativeZero: -0,
    maxSafe: Number.MAX_SAFE_INTEGER,
    beyondSafe: 2 ** 53 + 2,
    exponent: 1e21,
    tiny: 1e-7,
    negative: -1.5e-10,
    zero: 0,
    quoted: 'say "hi"\nnext line',
    flags: [true, false, null],
    nothing: {},
  });
  for (const line of [
    'largest: 1.7976931348623157e+308',
    'huge: 1e+308',
    'smallest: 5e-324',
    'negativeZero: 0',
    'maxSafe: 9007199254740991',
    'beyondSafe: 9007199254740994',
    'exponent: 1e+21',
    'tiny: 1e-7',
    'negative: -1.5e-10',
    'zero: 0',
    'quoted: "say \\"hi\\"\\nnext line"',
    '2: null',
    'nothing: {}',
  ]) {
    await expect.poll(() => rows(page).allTextContents()).toContain(line);
  }
  await checkScreen(page, 'session-json-numbers');
});

test('a view that fails to render says why and offers Try again; the panel list and other panels keep working', async ({
  page,
  launch,
  panelServer,
}) => {
  let breakSession = true;
  const app = await launch(page, {
    tamperAnswer: (channel, answer) => {
      const envelope = answer as { ok: boolean; value?: object };
      if (!breakSession || channel !== 'panelApi:getSession' || !envelope.ok) return answer;
      // A time main never sends: formatting it throws while the session view renders.
      return { ...envelope, value: { ...envelope.value, checkedAt: 'not a date' } };
    },
  });
  await addPanel(page, panelServer.url, 'Production');
  await addPanel(page, 'panel.example.com', 'Staging');
  const panelList = page.getByRole('navigation', { name: 'Panels' });
  await panelList.getByRole('treeitem', { name: /Production/ }).click();
  await logIn(page);
  const failure = page.getByRole('alert').filter({ hasText: 'This view could not be shown' });
  await expect(failure).toContainText('Reason: RangeError: Invalid time value');
  // Only the panel's body gave way: its header and tabs are still there.
  await expect(page.getByRole('heading', { name: 'Production', level: 1 })).toBeVisible();
  await checkScreen(page, 'session-json-view-failed');

  await panelList.getByRole('treeitem', { name: /Staging/ }).click();
  await expect(page.getByRole('form', { name: 'Log in to Staging' })).toBeVisible();
  await expect(failure).toHaveCount(0);
  await panelList.getByRole('treeitem', { name: /Production/ }).click();
  await expect(failure).toBeVisible();

  breakSession = false;
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('dl.summary')).toContainText(demo.email);
  await expect(failure).toHaveCount(0);

  // Each error a boundary catches goes to the console by its name only (main.tsx's onCaughtError),
  // never its message. They are expected here, so the fixture's no-errors check skips them.
  expect(app.pageErrors.length).toBeGreaterThan(0);
  for (const error of app.pageErrors) expect(error).toBe('A view failed to render: RangeError');
  app.pageErrors.length = 0;
});

test('an Easypanel session: the user id, when it began and ends, and the account logged in with, since it holds no email', async ({
  page,
  launch,
  panelServer,
}) => {
  await launch(page);
  const now = Date.now();
  await showSession(page, panelServer, {
    id: 'sess_9f2c',
    createdAt: new Date(now - 2 * 3600_000).toISOString(),
    userId: 'usr_1001',
    expiresAt: new Date(now + 29 * 24 * 3600_000).toISOString(),
    demoMode: false,
  });
  const summary = page.locator('.summary');
  await expect(summary.locator('.summary-row', { hasText: 'User' })).toContainText('usr_1001');
  await expect(summary.locator('.summary-row', { hasText: 'Signed in as' })).toContainText(demo.email);
  await expect(summary.locator('.summary-row', { hasText: 'Session began' })).toContainText('2 h ago');
  await expect(summary.locator('.summary-row', { hasText: 'Expires' })).toContainText('in 28 days');
  await checkScreen(page, 'session-easypanel');
});

test('the counts above the tree agree with it: five keys are five values in all, not six', async ({ page, launch, panelServer }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await launch(page);
  const data = await showSession(page, panelServer, { id: 'sess_1', userId: 'usr_1', role: 'admin', demoMode: false, plan: null });
  await expect(rows(page).first()).toContainText('{5 keys}');
  await expect(data.locator('.json-stats')).toHaveText('5 values in all, 1 level deep');
  await checkScreen(page, 'session-json-counts-agree-1920x1080');
  await page.setViewportSize({ width: 900, height: 600 });
  await checkScreen(page, 'session-json-counts-agree-900x600');
});
