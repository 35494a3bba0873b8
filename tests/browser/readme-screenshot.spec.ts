import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { checkScreen } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import type { PanelColour } from '../../shared/labels.ts';
import type { Core } from '../../electron/core/index.ts';

/**
 * The README's picture (docs/screenshot.png): the panel list in its table layout at the suite's
 * 900x600, a fleet of reference panels in mixed states. Each run checks the screen it shows (and
 * scans it with axe, as every screen); only `PANELDECK_README_SCREENSHOT=1` writes it over the
 * README's copy, so an ordinary test run never changes a file of the repository.
 */

/** What a panel of the picture is made to be. */
type Role = 'ok' | 'services down' | 'disk' | 'unreachable' | 'expired' | 'signed out';

/** The fleet, in the order it is added: a client per group, a production panel red. */
const FLEET: readonly { name: string; group: string; role: Role; colour?: PanelColour }[] = [
  { name: 'acme-shop', group: 'Acme', role: 'ok', colour: 'red' },
  { name: 'acme-api', group: 'Acme', role: 'services down', colour: 'red' },
  { name: 'acme-staging', group: 'Acme', role: 'ok' },
  { name: 'acme-reports', group: 'Acme', role: 'disk' },
  { name: 'globex-web', group: 'Globex', role: 'ok', colour: 'red' },
  { name: 'globex-eu', group: 'Globex', role: 'unreachable' },
  { name: 'globex-us', group: 'Globex', role: 'ok' },
  { name: 'globex-dev', group: 'Globex', role: 'signed out' },
  { name: 'initech-crm', group: 'Initech', role: 'ok', colour: 'red' },
  { name: 'initech-mail', group: 'Initech', role: 'expired' },
  { name: 'initech-wiki', group: 'Initech', role: 'ok' },
  { name: 'initech-hr', group: 'Initech', role: 'ok' },
  { name: 'umbrella-lab', group: 'Umbrella', role: 'ok' },
  { name: 'umbrella-ci', group: 'Umbrella', role: 'ok' },
  { name: 'umbrella-blog', group: 'Umbrella', role: 'ok' },
  { name: 'umbrella-docs', group: 'Umbrella', role: 'ok' },
];

/** Adds the fleet to `core`, each panel set up as its role says, then checks it once as the background would. */
async function buildFleet(core: Core): Promise<ReferencePanel[]> {
  const servers: ReferencePanel[] = [];
  for (const { name, group, role, colour } of FLEET) {
    // The demo's three projects of four services, two of them down (demo-services.ts): up again but where some must be down.
    const server = await startReferencePanel({ style: 'public', demoProjects: 3 });
    servers.push(server);
    if (role !== 'services down') {
      for (const { projectName, name: service, replicas } of server.services.services())
        if (replicas && replicas.actual < replicas.desired) server.services.recoverService(projectName, service);
    }
    const { id } = await core.addPanel({ address: server.url, name });
    await core.updatePanels([id], { group, ...(colour && { colour }) });
    if (role === 'signed out') continue;
    await core.logIn(id, demo);
    if (role === 'disk') server.services.setSystemLoad({ disk: { usedGb: 93, totalGb: 100 } });
    else if (role === 'expired') server.expireAllTokens();
    else if (role === 'unreachable') await server.close();
  }
  await core.checkPanels();
  return servers;
}

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });

test('the README screenshot: the panel list as a table, a fleet in mixed states, at 900x600', async ({ page, launch }) => {
  // Sixteen reference panels started and checked: slow on a loaded machine, never stuck.
  test.setTimeout(180_000);
  const app = await launch(page);
  const servers = await buildFleet(app.core);
  try {
    await panelList(page).getByRole('button', { name: 'Table', exact: true }).click();
    const table = panelList(page).getByRole('grid', { name: 'Panel table' });
    await expect(table).toBeVisible();
    const health = panelList(page).getByLabel('Fleet health');
    await expect(health).toContainText('2 services down');
    await expect(health).toContainText('1 disk over 90%');
    // Worst first: the panel that stopped answering, then the expired session.
    const rows = table.locator('.fleet-row');
    await expect(rows.nth(0).locator('.col-reason')).toContainText('Unreachable');
    await expect(rows.nth(1).locator('.col-reason')).toContainText('Session expired');
    await expect(panelList(page).getByRole('button', { name: /Needs attention/ })).toHaveText('Needs attention (4)');
    // No check under way: the picture shows the fleet as checked.
    await expect(panelList(page).getByRole('progressbar', { name: 'Checking panels' })).toHaveCount(0);

    // Beside the table, a production panel's server at a glance (its Overview), read afresh.
    await rows.filter({ hasText: 'acme-shop' }).locator('.col-name').click();
    const main = page.getByRole('main');
    await main.getByRole('button', { name: 'Overview', exact: true }).click();
    await expect(main.getByRole('heading', { name: 'acme-shop' })).toBeVisible();
    await expect(main).toContainText('Up for');
    await checkScreen(page, '90-readme-screenshot');
    if (process.env.PANELDECK_README_SCREENSHOT === '1') {
      await page.screenshot({ path: join(import.meta.dirname, '..', '..', 'docs', 'screenshot.png') });
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
