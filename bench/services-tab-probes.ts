import type { Page } from '@playwright/test';
import { longestTask } from './bench-page.ts';

/**
 * What bench/services-tab.ts measures inside the page: a scroll of the table to its end, and the
 * selection (all 2,000, one row out, the confirmation of an action on all of them). The page
 * functions use nothing from this module but types.
 */

/** Scrolls the table to its end, a step a frame; the longest frame and the stretch it took. */
export async function scrollTable(): Promise<{ start: number; end: number; longestFrame: number; atBottom: boolean }> {
  const scroller = document.querySelector<HTMLElement>('.service-scroller');
  if (!scroller) throw new Error('no table');
  const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
  const step = Math.max(scroller.clientHeight / 2, (scroller.scrollHeight - scroller.clientHeight) / 200);
  const start = performance.now();
  let last = start;
  let longestFrame = 0;
  for (let count = 0; scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1 && count < 1000; count++) {
    scroller.scrollTop += step;
    const at = await frame();
    longestFrame = Math.max(longestFrame, at - last);
    last = at;
  }
  return { start, end: performance.now(), longestFrame, atBottom: scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1 };
}

/** How long a step took from the test's side (a round trip included), and the longest task meanwhile. */
export interface Timed {
  ms: number;
  task: number;
}

async function timed(page: Page, act: () => Promise<unknown>, done: () => Promise<unknown>): Promise<Timed> {
  const before = await page.evaluate(() => performance.now());
  await act();
  await done();
  const after = await page.evaluate(() => performance.now());
  await page.waitForTimeout(100);
  return { ms: after - before, task: await page.evaluate(longestTask, { from: before, to: after }) };
}

/** The action bar's count reaches `n` ("2,000 services selected:"). */
const counted = (page: Page, n: number) =>
  page.waitForFunction(
    (n) => document.querySelector('.service-action-count')?.textContent?.startsWith(`${n.toLocaleString('en')} service`),
    n,
  );

/**
 * Every service selected (Ctrl+A in the table), one row taken out again (its checkbox), and the
 * confirmation of a deploy on all of them opened (and closed): the rows are memoised, so a click
 * draws again only the row it changed.
 */
export async function measureSelection(page: Page, count: number): Promise<{ all: Timed; one: Timed; confirm: Timed }> {
  await page.getByRole('searchbox', { name: /Search services/ }).fill('');
  await page.waitForFunction((n) => document.querySelector('.service-table')?.getAttribute('aria-rowcount') === String(n + 1), count);
  const rows = page.locator('.service-table tbody tr');
  await rows.first().locator('input').focus();
  const all = await timed(
    page,
    () => page.keyboard.press('Control+a'),
    () => counted(page, count),
  );
  const one = await timed(
    page,
    () => rows.nth(2).locator('input').click(),
    () => counted(page, count - 1),
  );
  const bar = page.getByRole('group', { name: 'Actions on the services selected' });
  // The window asks nothing itself: the click hands the items to main, whose confirmation asks
  // (the bench's main never answers), and the run's bar shows meanwhile.
  const confirm = await timed(
    page,
    () => bar.getByRole('button', { name: 'Deploy' }).click(),
    () => page.locator('.fleet-run progress').waitFor(),
  );
  return { all, one, confirm };
}
