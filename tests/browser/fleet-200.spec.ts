import type { Page } from '@playwright/test';
import type { Core } from '../../electron/core/index.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, onlyServices } from '../support/signed-in-core.ts';
import { answerInMain, expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * Issue 24's "done when", as an operator meets it: 200 reference panels of the three Easypanel
 * generations, logged in with one form's worth of credentials and checked once. The table layout
 * shows each panel's version and load, All services shows all 600 services, a service made to
 * crash raises one alert (and not again at the next check), and a restart of one app on the
 * twelve panels of one client runs from one confirmation and reports each.
 */

const FLEET = 200;
const CLIENT = 12;
/** Each generation's version, as the reference panel reports it by default. */
const VERSION = { trpc: '2.28.1', rpc: '2.32.2', public: '2.33.4' } as const;

/** Panel i: "Acme 01".."Acme 12" (the client), then "Panel 013".."Panel 200"; generation i mod 3. */
const nameOf = (index: number) =>
  index < CLIENT ? `Acme ${String(index + 1).padStart(2, '0')}` : `Panel ${String(index + 1).padStart(3, '0')}`;

async function buildFleet(core: Core): Promise<{ servers: ReferencePanel[]; ids: string[] }> {
  const servers = await Promise.all(
    Array.from({ length: FLEET }, (_, index) => startReferencePanel({ style: EASYPANEL_GENERATIONS[index % 3]! })),
  );
  const ids: string[] = [];
  for (const [index, server] of servers.entries()) {
    onlyServices(
      server,
      { projectName: 'shop', name: 'web', type: 'app' },
      { projectName: 'shop', name: 'db', type: 'postgres' },
      { projectName: 'blog', name: 'files', type: 'box' },
    );
    server.serviceActions.setDeployTime(0);
    ids.push((await core.addPanel({ address: server.url, name: nameOf(index) })).id);
  }
  const results = await core.logInPanels(ids, {
    email: DEMO_USER.email,
    password: DEMO_USER.password,
    rememberMe: true,
    sendOverPlainHttp: ids,
  });
  expect(results.filter((result) => result.outcome === 'signedIn')).toHaveLength(FLEET);
  // One pass, as the background check makes: sessions, versions, the state and the services.
  await core.checkPanels();
  return { servers, ids };
}

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const services = (page: Page) => page.getByRole('region', { name: 'All services', exact: true });

test('200 panels in three generations: versions and load on the panel list, every service in one view, one alert for a crash, a restart on twelve panels', async ({
  page,
  launch,
  confirmations,
}) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  const { servers, ids } = await buildFleet(app.core);
  try {
    // The table layout: each panel's version (its generation's) and its load, read by the check.
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    const table = panelList(page).getByRole('grid', { name: 'Panel table' });
    const search = panelList(page).getByRole('searchbox', { name: 'Find panels' });
    for (const [index, style] of EASYPANEL_GENERATIONS.entries()) {
      await search.fill(nameOf(index));
      const row = table.locator('.fleet-row').filter({ hasText: nameOf(index) });
      await expect(row.locator('.col-version')).toHaveText(VERSION[style]);
      await expect(row.locator('.col-disk')).toHaveText(/\d+%/);
      await expect(row.locator('.col-memory')).toHaveText(/\d+%/);
    }
    await search.fill('version:2.32');
    await expect(
      panelList(page)
        .getByRole('status')
        .filter({ hasText: /of 200/ }),
    ).toHaveText('67 of 200 panels');
    await search.fill('');
    await checkScreenBothSizes(page, 'fleet-200-01-panel-list');

    // Every service of every panel, in one view.
    await panelList(page).getByRole('button', { name: 'All services', exact: true }).click();
    await expect(services(page).getByRole('list', { name: 'Services by state' })).toContainText('600 services on 200 panels');

    // A crash: one alert at the next check, and no second one at the check after.
    servers[7]!.services.crashService('shop', 'web');
    await app.core.checkPanels();
    await app.core.checkPanels();
    const down = (await app.core.listAlerts()).filter((alert) => alert.kind === 'serviceDown');
    expect(down.map((alert) => [alert.panelId, alert.message])).toEqual([[ids[7], expect.stringContaining('shop/web')]]);
    await expect(services(page).getByRole('list', { name: 'Services by state' })).toContainText('1 down');

    // A restart of web on the client's twelve panels, from one confirmation.
    const find = services(page).getByRole('searchbox', { name: 'Search services of every panel' });
    await find.fill('acme web');
    await services(page)
      .getByRole('checkbox', { name: `Select all ${CLIENT} shown` })
      .check();
    const bar = services(page).getByRole('group', { name: 'Actions on the services selected' });
    await expect(bar).toContainText(`${CLIENT} services selected`);
    await bar.getByRole('button', { name: 'Restart' }).click();
    // Main's confirmation lists every panel (the window asks nothing), each with its one request.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await answerInMain(confirmations, {
      title: `Restart ${CLIENT} services on ${CLIENT} panels`,
      inspect: async (asked, plan) => {
        expect(plan.panels.map((panel) => panel.name).sort()).toEqual(Array.from({ length: CLIENT }, (_, index) => nameOf(index)).sort());
        const sent = asked.getByRole('region', { name: 'What will be sent' });
        await sent.evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
        await expect(sent).toContainText(nameOf(CLIENT - 1));
      },
    });
    const summary = services(page).locator('.fleet-run');
    await expect(summary).toContainText(`Restart of ${CLIENT} services on ${CLIENT} panels: ${CLIENT} done`);
    await checkScreenBothSizes(page, 'fleet-200-02-restart-twelve');
    // Each panel of the client was asked once; no other panel was.
    const restarts = servers.map((server) => server.requests.filter((request) => /restart/i.test(request.path)).length);
    expect(restarts.slice(0, CLIENT)).toEqual(Array.from({ length: CLIENT }, () => 1));
    expect(restarts.slice(CLIENT).every((count) => count === 0)).toBe(true);
    const activity = await app.core.listActivity();
    expect(activity.entries.filter((entry) => entry.what.action === 'restart' && entry.outcome === 'ok')).toHaveLength(CLIENT);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
