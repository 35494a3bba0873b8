import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_USER } from '../support/reference-panel/server.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * The Activity view: every write to a panel with its outcome, newest first, at the log's bound of
 * 10,000 entries (only the rows in view are drawn), refreshed by main's `activityChanged` when a
 * log out at a panel is recorded, filtered by the panel shown and a search.
 */

const OUTCOMES = ['ok', 'failed', 'unknown', 'ok'] as const;

/** 10,000 entries of other panels, as a long-used Paneldeck leaves them. */
function seedActivity(dataDir: string): void {
  const lines: string[] = [];
  const base = Date.now() - 10_000 * 60_000;
  for (let n = 0; n < 10_000; n++) {
    const outcome = OUTCOMES[n % OUTCOMES.length]!;
    const at = new Date(base + n * 60_000).toISOString();
    lines.push(
      JSON.stringify({
        id: `seed-${n}`,
        at,
        panelId: `00000000-0000-4000-8000-${String(n % 7).padStart(12, '0')}`,
        panelName: `Shop ${n % 7}`,
        panelAddress: `https://panel-${n % 7}.example.com`,
        what: { action: n % 3 === 0 ? 'restart' : 'deploy', projectName: 'shop', serviceName: `web-${n % 11}` },
        outcome,
        message:
          outcome === 'failed'
            ? 'The panel answered HTTP 500: build failed at step 3.'
            : outcome === 'unknown'
              ? 'Paneldeck stopped before the panel answered; check the service.'
              : null,
        finishedAt: outcome === 'unknown' ? null : at,
      }),
    );
  }
  writeFileSync(join(dataDir, 'activity.jsonl'), `${lines.join('\n')}\n`, { mode: 0o600 });
}

test('the Activity view lists 10,000 entries drawing only the rows in view, hears a new log out (the oldest dropped), and filters', async ({
  page,
  launch,
  dataDir,
  panelServer,
}) => {
  seedActivity(dataDir);
  const app = await launch(page);
  const panel = await app.core.addPanel({ address: panelServer.url, name: 'Billing' });
  await app.core.logIn(panel.id, { email: DEMO_USER.email, password: DEMO_USER.password });
  await page.getByRole('button', { name: 'Activity' }).click();
  const view = page.getByRole('region', { name: 'Activity' });
  await expect(view.getByRole('status')).toHaveText('10,000 entries');
  const rows = view.getByRole('listitem');
  expect(await rows.count()).toBeLessThan(60);

  // A log out at the panel while the view is open: main's event brings it in, on top.
  await app.core.logOut(panel.id);
  await expect(rows.first()).toContainText('Log out');
  // At the bound: the oldest entry made room for it.
  await expect(view.getByRole('status')).toHaveText('10,000 entries');
  // This reference panel has no log-out route: the entry says the panel's answer either way.
  await expect(rows.first()).toContainText(/Done|Failed/);
  await expect(rows.first()).toContainText('Billing');
  await checkScreenBothSizes(page, 'activity-01-list');

  // The search: every word, in panel, action, outcome and message.
  await view.getByRole('searchbox', { name: 'Search the activity' }).fill('failed web-3');
  await expect(rows.first()).toContainText('Failed');
  await expect(rows.first()).toContainText('web-3');
  await checkScreenBothSizes(page, 'activity-02-search');
  await view.getByRole('searchbox', { name: 'Search the activity' }).fill('');

  // One panel: its log in and its log out.
  await view.getByRole('combobox', { name: 'Panel' }).selectOption({ label: 'Billing' });
  await expect(view.getByRole('status')).toHaveText('2 of 10,000 entries');

  // Scrolled to the end: the oldest entry is drawn, still with few rows in the DOM.
  await view.getByRole('combobox', { name: 'Panel' }).selectOption('');
  await view.locator('.activity-list').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  // The two oldest made room for Billing's log in and log out.
  await expect(rows.last()).toContainText('Shop 2');
  expect(await rows.count()).toBeLessThan(60);
  await checkScreenBothSizes(page, 'activity-03-end');

  // Back to the panel.
  await view.getByRole('button', { name: 'Back to the panel' }).click();
  await expect(view).toBeHidden();
});
