import type { Page } from '@playwright/test';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import { onlyServices } from '../support/signed-in-core.ts';
import { checkScreenBothSizes } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';

/**
 * A panel row with services down names them, the first two, then how many more (issue 35: "1
 * service down" named none), and a click on those words opens the panel's Services tab, where
 * they are; a click elsewhere on the row opens the panel as before.
 */

const row = (page: Page, name: RegExp) => page.getByRole('navigation', { name: 'Panels' }).getByRole('treeitem', { name });
const tab = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

test('the row names the services down, "+N" past two, and a click on them opens the Services tab', async ({ page, launch }) => {
  const server = await startReferencePanel({ style: 'public' });
  try {
    const app = await launch(page);
    const { id } = await app.core.addPanel({ address: server.url, name: 'Shop' });
    await app.core.logIn(id, demo);
    onlyServices(server, ...['web', 'api', 'worker', 'admin'].map((name) => ({ projectName: 'shop', name, type: 'app' as const })));
    for (const name of ['web', 'api', 'worker']) server.services.crashService('shop', name);
    await app.core.checkPanels();

    const down = row(page, /Shop/).locator('.meta-state');
    await expect(down).toHaveText(/^(web|api|worker), (web|api|worker) \+1 down$/);
    await row(page, /Shop/).locator('.panel-item-name').click();
    await expect(tab(page, 'Session')).toHaveAttribute('aria-pressed', 'true');
    await down.click();
    await expect(tab(page, 'Services')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shop');
    await checkScreenBothSizes(page, 'row-services-down');
  } finally {
    await server.close();
  }
});
