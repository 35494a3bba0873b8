import type { Locator, Page } from '@playwright/test';
import type { Core } from '../../electron/core/index.ts';
import type { ReferencePanel } from '../support/reference-panel/server.ts';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, onlyServices } from '../support/signed-in-core.ts';
import { answerInMain, demo, expect, test } from './fixtures.ts';
import { checkScreenBothSizes, checkScreenThreeSizes } from './screens.ts';

/**
 * The fleet's Services view against reference panels of the three Easypanel generations (tRPC,
 * RPC, 2.33): every service of every signed-in panel in one table, grouped by panel (a panel that
 * stopped answering says so on its heading), by project and by state; search and the state
 * filter; a selection across panels; one confirmation listing them by panel with a typed name for
 * the red panel; each row's result with the panel's words for a failure; a run cancelled while
 * deploys are held, which starts nothing more.
 */

/** Six panels, two of each generation; "Acme prod" is red (production); "Hooli" stops answering after the first read. */
const FLEET = [
  { name: 'Acme prod', colour: 'red' as const, group: 'Acme' },
  { name: 'Acme staging', group: 'Acme' },
  { name: 'Globex' },
  { name: 'Initech' },
  { name: 'Umbrella' },
  { name: 'Hooli' },
];
const APPS = ['web', 'api', 'worker', 'admin'];

interface Member {
  id: string;
  name: string;
  server: ReferencePanel;
}

async function buildFleet(core: Core): Promise<Member[]> {
  const members: Member[] = [];
  for (const [index, { name, colour, group }] of FLEET.entries()) {
    const server = await startReferencePanel({ style: EASYPANEL_GENERATIONS[index % 3]! });
    const { id } = await core.addPanel({ address: server.url, name });
    if (colour || group) await core.updatePanels([id], { ...(colour && { colour }), ...(group && { group }) });
    await core.logIn(id, demo);
    onlyServices(
      server,
      ...APPS.map((app) => ({ projectName: 'shop', name: app, type: 'app' as const })),
      { projectName: 'shop', name: 'db', type: 'postgres' as const },
      { projectName: 'blog', name: 'files', type: 'box' as const },
    );
    server.serviceActions.setDeployTime(0);
    members.push({ id, name, server });
  }
  members[1]!.server.services.crashService('shop', 'api');
  members[3]!.server.services.crashService('shop', 'worker');
  members[4]!.server.services.setEnabled('shop', 'db', false);
  // One pass reads every panel's services, as the background check does; then Hooli stops answering.
  await core.checkPanels();
  await members[5]!.server.close();
  await core.checkPanels();
  return members;
}

const view = (page: Page) => page.getByRole('region', { name: 'All services', exact: true });
const table = (page: Page) => view(page).getByRole('table', { name: 'Services of every panel' });
const headings = (page: Page) => table(page).locator('tr.fleet-group-row');
const serviceRow = (page: Page, panel: string, project: string, name: string): Locator =>
  table(page)
    .locator('tbody tr:not(.fleet-group-row)')
    .filter({ has: page.getByRole('checkbox', { name: `Select ${panel}: ${project}/${name}` }) });

test('the fleet Services view: three groupings, search and filter, a selection across panels, one confirmation, results per row, cancel', async ({
  page,
  launch,
  confirmations,
}) => {
  // Six reference panels, three runs and a dozen axe scans: slow on a busy machine, never stuck.
  test.setTimeout(300_000);
  const app = await launch(page);
  const members = await buildFleet(app.core);
  try {
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'All services', exact: true }).click();
    const counts = view(page).getByRole('list', { name: 'Services by state' });
    await expect(counts).toContainText('36 services on 6 panels');
    await expect(counts).toContainText('2 down');
    await expect(counts).toContainText('1 disabled');

    // By panel (the default): each panel's heading; Hooli's last read failed and says why.
    await expect(headings(page).first()).toContainText('Acme prod');
    await expect(headings(page).filter({ hasText: 'Hooli' })).toContainText('State unknown');
    await expect(serviceRow(page, 'Acme staging', 'shop', 'api')).toContainText('Down');
    // Virtualised: never every row at once, whatever the fleet.
    expect(await table(page).locator('tbody tr').count()).toBeLessThan(42);
    await checkScreenThreeSizes(page, 'fleet-services-01-by-panel');

    // By project, then by state (attention first); the choice is kept with the panel list's settings.
    const grouping = view(page).getByRole('group', { name: 'Group by' });
    await grouping.getByRole('button', { name: 'Project' }).click();
    await expect(headings(page).first()).toContainText('blog');
    await expect(view(page).getByText("1 panel's last read failed, so its rows are as read before")).toBeVisible();
    await checkScreenBothSizes(page, 'fleet-services-02-by-project');
    await grouping.getByRole('button', { name: 'State' }).click();
    await expect(headings(page).first()).toContainText('Down · 2 down');
    await expect(headings(page).nth(1)).toContainText('Disabled');
    await checkScreenBothSizes(page, 'fleet-services-03-by-state');
    // By the panel's group (a client): Acme's two panels under one heading, the panels with none last.
    await grouping.getByRole('button', { name: 'Group', exact: true }).click();
    await expect(headings(page).first()).toContainText('Acme · 1 down');
    await expect(headings(page).nth(1)).toContainText('No group');
    // The heading spans the whole row, to the menu's column (a group has no column of its own to leave out).
    const headingBox = (await headings(page).first().locator('td').last().boundingBox())!;
    const rowBox = (await table(page).locator('thead tr').boundingBox())!;
    expect(Math.abs(headingBox.x + headingBox.width - (rowBox.x + rowBox.width))).toBeLessThan(2);
    await checkScreenBothSizes(page, 'fleet-services-03b-by-group');
    await grouping.getByRole('button', { name: 'Panel' }).click();

    // Search and filter: the words over panel, project, service, type and state; the filter by state.
    const search = view(page).getByRole('searchbox', { name: 'Search services of every panel' });
    await search.fill('acme shop');
    await view(page).getByRole('combobox', { name: 'State' }).selectOption('down');
    await expect(view(page).getByRole('status').filter({ hasText: 'shown' })).toHaveText('1 shown');
    await expect(serviceRow(page, 'Acme staging', 'shop', 'api')).toBeVisible();
    await checkScreenBothSizes(page, 'fleet-services-04-search-filter');
    await view(page).getByRole('combobox', { name: 'State' }).selectOption('all');

    // A selection across panels: click, Ctrl+click, Space on a checkbox, Esc; then every "web" shown.
    await serviceRow(page, 'Acme prod', 'shop', 'web').click();
    await serviceRow(page, 'Acme staging', 'shop', 'admin').click({ modifiers: ['Control'] });
    const bar = view(page).getByRole('group', { name: 'Actions on the services selected' });
    await expect(bar).toContainText('2 services selected');
    // The keyboard from a row's checkbox: Down to the next service, Space takes it in.
    await serviceRow(page, 'Acme staging', 'shop', 'admin').getByRole('checkbox').focus();
    await page.keyboard.press('ArrowDown');
    await expect(serviceRow(page, 'Acme staging', 'shop', 'api').getByRole('checkbox')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(bar).toContainText('3 services selected');
    await page.keyboard.press('Escape');
    await expect(bar).toBeHidden();
    await search.fill('web');
    await table(page).getByRole('checkbox', { name: 'Select all 6 shown' }).check();
    await expect(bar).toContainText('6 services selected');

    // A deploy of web on six panels: Globex's build fails in the panel's words; Hooli does not answer.
    members[2]!.server.serviceActions.failDeploys('shop', 'web', { message: 'npm ERR! missing script: build' });
    await bar.getByRole('button', { name: 'Deploy' }).click();
    // The window asks nothing; main's confirmation lists every request by panel, says Hooli is left
    // out (main reads each panel for the plan, and Hooli does not answer) and, with a red panel
    // among them, asks for its name.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await answerInMain(confirmations, {
      title: 'Deploy 5 services on 5 panels',
      inspect: async (asked, plan) => {
        const sent = asked.getByRole('region', { name: 'What will be sent' });
        await expect(sent).toContainText('Acme prod');
        await expect(sent.locator('.left-out')).toContainText('Hooli');
        expect(plan.typedConfirmation?.text).toBe('Acme prod');
        await checkScreenBothSizes(asked, 'fleet-services-05-confirm-typed');
      },
    });
    const summary = view(page).locator('.fleet-run');
    await expect(summary).toContainText('Deploy of 6 services on 6 panels: 4 done, 2 failed');
    await expect(summary).toContainText(/Globex: shop\/web failed: .*npm ERR! missing script: build/);
    await expect(summary).toContainText('Hooli: shop/web failed: Not sent');
    await expect(serviceRow(page, 'Acme prod', 'shop', 'web')).toContainText('Deploy done');
    await expect(serviceRow(page, 'Globex', 'shop', 'web')).toContainText('Deploy failed');
    await checkScreenBothSizes(page, 'fleet-services-06-results');
    await summary.getByRole('button', { name: 'Dismiss' }).click();

    // A deploy of every app on the five panels that answer, held by the panels: Cancel stops what has not started.
    members[2]!.server.serviceActions.failDeploys('shop', 'web', null);
    const releases = members.slice(0, 5).map(({ server }) => server.serviceActions.holdDeploys());
    await search.fill('app');
    await table(page).getByRole('checkbox', { name: 'Select all 24 shown' }).check();
    await table(page).getByRole('checkbox', { name: 'Select the 4 of Hooli' }).uncheck();
    await expect(bar).toContainText('20 services selected');
    await bar.getByRole('button', { name: 'Deploy' }).click();
    await answerInMain(confirmations, { title: 'Deploy 20 services on 5 panels' });
    const progress = view(page).locator('.fleet-run');
    await expect(progress).toContainText('0 of 20 ended');
    await expect(progress).toContainText('Cancel stops the services not started yet');
    await checkScreenBothSizes(page, 'fleet-services-07-progress');
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await expect(progress).toContainText('Cancelling');
    for (const release of releases) release();
    await expect(progress).toContainText('Deploy of 20 services on 5 panels: 8 done, 12 cancelled before being sent');
    await expect(table(page).getByText('Deploy not sent').first()).toBeVisible();
    await checkScreenBothSizes(page, 'fleet-services-08-cancelled');
  } finally {
    await Promise.all(members.slice(0, 5).map(({ server }) => server.close()));
  }
});

test('the empty states say what to do: no panel signed in, then not read since start', async ({ page, launch }) => {
  const app = await launch(page);
  const server = await startReferencePanel({ style: 'public', demoProjects: 1 });
  try {
    const { id } = await app.core.addPanel({ address: server.url, name: 'Billing' });
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'All services', exact: true }).click();
    await expect(view(page)).toContainText('No panel is signed in.');
    await app.core.logIn(id, demo);
    await expect(view(page)).toContainText('have not been read since Paneldeck started. Check all reads them');
    await view(page).getByRole('button', { name: 'Check all' }).click();
    await expect(table(page)).toBeVisible();
    await expect(headings(page).first()).toContainText('Billing');
  } finally {
    await server.close();
  }
});

test('Check all is offered only where a read helps: never to a panel whose last check got no answer', async ({ page, launch }) => {
  const app = await launch(page);
  const billing = await startReferencePanel({ style: 'public', demoProjects: 1 });
  const gone = await startReferencePanel({ style: 'public', demoProjects: 1 });
  try {
    const read = await app.core.addPanel({ address: billing.url, name: 'Billing' });
    const unanswered = await app.core.addPanel({ address: gone.url, name: 'Gone' });
    await app.core.logIn(read.id, demo);
    await app.core.logIn(unanswered.id, demo);
    // Gone stops answering before its services were ever read: its check finds it unreachable.
    await gone.close();
    await app.core.checkPanels();
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'All services', exact: true }).click();
    await expect(headings(page).first()).toContainText('Billing');
    await expect(view(page)).toContainText('Gone did not answer its last check: its services show here once it answers.');
    await expect(view(page)).not.toContainText('Check all reads them');
    await expect(view(page).getByRole('button', { name: 'Check all' })).toHaveCount(0);
    await checkScreenBothSizes(page, 'fleet-services-10-unanswered');

    // Only Gone signed in: the empty state says why, with no Check all either.
    await app.core.logOut(read.id);
    await expect(view(page)).toContainText('Gone did not answer its last check');
    await expect(view(page)).not.toContainText('Check all reads them');
    await expect(view(page).getByRole('button', { name: 'Check all' })).toHaveCount(0);
  } finally {
    await billing.close();
  }
});

/** The rendered width of a column's heading in the services table. */
const columnWidth = async (page: Page, name: string) =>
  (await table(page).getByRole('columnheader', { name, exact: true }).boundingBox())?.width ?? 0;

test('the project and service names stay readable at every width and layout; grouped by panel, no Panel column', async ({
  page,
  launch,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  const members = await buildFleet(app.core);
  try {
    const widths: string[] = [];
    const measure = async (where: string) => {
      await expect(table(page).locator('tbody tr').first()).toBeVisible();
      const project = await columnWidth(page, 'Project');
      const service = await columnWidth(page, 'Service');
      widths.push(`${where}: project ${Math.round(project)} px, service ${Math.round(service)} px`);
      return Math.min(project, service);
    };
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'All services', exact: true }).click();
    // Grouped by panel (the default), the headings name the panel: no column repeats it.
    await expect(headings(page).first()).toContainText('Acme prod');
    await expect(table(page).getByRole('columnheader', { name: 'Panel', exact: true })).toBeHidden();
    expect(await measure('list 1280'), widths.join('; ')).toBeGreaterThanOrEqual(80);
    await view(page).getByRole('group', { name: 'Group by' }).getByRole('button', { name: 'State' }).click();
    await expect(table(page).getByRole('columnheader', { name: 'Panel', exact: true })).toBeVisible();
    expect(await measure('list 1280, by state'), widths.join('; ')).toBeGreaterThanOrEqual(80);
    // The table layout, where the view sits beside the panel table.
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Table', exact: true }).click();
    await expect.poll(async () => (await app.core.getAppStatus()).settings.panelList.layout).toBe('table');
    expect(await measure('table 1280'), widths.join('; ')).toBeGreaterThanOrEqual(60);
    await page.setViewportSize({ width: 900, height: 600 });
    expect(await measure('table 900'), widths.join('; ')).toBeGreaterThanOrEqual(60);
    await checkScreenBothSizes(page, 'fleet-services-05-names-readable');
  } finally {
    await Promise.all(members.map((member) => member.server.close()));
  }
});
