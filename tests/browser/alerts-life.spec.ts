import type { ReferencePanel } from '../support/reference-panel/server.ts';
import { DEMO_USER, startReferencePanel } from '../support/reference-panel/server.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * Since you last looked, and the life of an alert, in the window: a first run sees three healthy
 * panels; while Paneldeck is closed two panels lose services and one stops answering; the first
 * check of the next run raises each once and the window sums them up in one place at the top. In
 * the Alerts view an alert is acknowledged and one resolves: open, acknowledged and resolved, each
 * headed.
 */

/** The services of a panel that run, as the reference panel seeds them. */
const running = (panel: ReferencePanel) => panel.services.services().filter((service) => service.enabled && service.replicas?.actual);

test('since you last looked: the faults of the night in one notice; the Alerts view groups open, acknowledged and resolved', async ({
  browser,
  page,
  launch,
}) => {
  const panels = await Promise.all([1, 2, 3].map(() => startReferencePanel({ style: 'public', demoProjects: 1 })));
  try {
    const first = await launch(page);
    const ids: string[] = [];
    for (const [n, panel] of panels.entries()) {
      const { id } = await first.core.addPanel({ address: panel.url, name: `acme-prod-0${n + 1}` });
      await first.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
      ids.push(id);
    }
    await first.core.checkPanels();
    await expect(page.getByRole('region', { name: /Since you last looked/ })).toHaveCount(0);
    await first.core.flush();
    await page.close();

    // Overnight: two services of the first panel and one of the second go down; the third stops answering.
    const [webOne, dbOne] = running(panels[0]!);
    panels[0]!.services.crashService(webOne!.projectName, webOne!.name);
    panels[0]!.services.crashService(dbOne!.projectName, dbOne!.name);
    const [webTwo] = running(panels[1]!);
    panels[1]!.services.crashService(webTwo!.projectName, webTwo!.name);
    await panels[2]!.close();

    const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
    const morning = await context.newPage();
    const app = await launch(morning, { encryption: first.encryption });
    await app.core.checkPanels();
    const summary = morning.getByRole('region', { name: /Since you last looked/ });
    await expect(summary).toContainText('3 services went down on 2 panels');
    await expect(summary).toContainText('1 panel stopped answering');
    await expect(summary.getByRole('button', { name: 'Open acme-prod-03 at Session' })).toBeVisible();
    await checkScreenBothSizes(morning, 'alerts-life-01-since-you-last-looked');

    // A second check raises nothing more.
    const raised = app.events.filter((event) => event.type === 'alertRaised').length;
    await app.core.checkPanels();
    expect(app.events.filter((event) => event.type === 'alertRaised').length).toBe(raised);

    await summary.getByRole('button', { name: 'Open Alerts' }).click();
    const view = morning.getByRole('region', { name: 'Alerts', exact: true });
    await expect(view.getByRole('status')).toHaveText('4 alerts');
    await expect(view.getByRole('heading', { name: 'Open (4)' })).toBeVisible();
    // Acknowledged: the panel that stopped answering is known; one service came back.
    const unreachable = view.getByRole('listitem').filter({ hasText: 'acme-prod-03 stopped answering' });
    await unreachable.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(view.getByRole('heading', { name: 'Acknowledged (1)' })).toBeVisible();
    await expect(unreachable).toContainText('acknowledged');
    panels[1]!.services.recoverService(webTwo!.projectName, webTwo!.name);
    await app.core.checkPanels([ids[1]!]);
    await expect(view.getByRole('heading', { name: 'Resolved (1)' })).toBeVisible();
    await expect(view.getByRole('heading', { name: 'Open (2)' })).toBeVisible();
    const resolved = view.getByRole('listitem').filter({ hasText: `${webTwo!.projectName}/${webTwo!.name} on acme-prod-02` });
    await expect(resolved).toContainText('resolved');
    await expect(resolved.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
    await checkScreenBothSizes(morning, 'alerts-life-02-open-acknowledged-resolved');

    await summary.getByRole('button', { name: 'Dismiss' }).click();
    await expect(summary).toHaveCount(0);
    await context.close();
  } finally {
    await Promise.all(panels.slice(0, 2).map((panel) => panel.close()));
  }
});
