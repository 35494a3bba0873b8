import { expect, test } from '@playwright/test';
import type { WritePlan } from '../../shared/write-plan.ts';
import { startRendererServer } from './app-harness.ts';
import { confirmationPages } from './confirmation-page.ts';
import { checkScreen } from './screens.ts';

/** A plan as main builds it for a restart across three panels, one of them production, with one service left out. */
function restartPlan(services: number): WritePlan {
  const panel = (index: number, production: boolean) => ({
    panelId: `p${index}`,
    name: production ? 'acme-prod' : `client-${index} <img src=x onerror="document.title='owned'">`,
    address: `https://panel-${index}.example.com`,
    production,
    generation: 'Easypanel 2.33+',
    account: index === 2 ? 'an API token' : 'ops@acme.example',
    requests: Array.from({ length: services }, (_, service) => ({
      label: `restart web-${service} in shop`,
      request: 'POST /api/restartAppService',
    })),
  });
  return {
    id: 'plan-1',
    title: `Restart ${services * 3} services on 3 panels`,
    detail: 'A restart stops and starts each service; if an answer does not come, its outcome is unknown: look at the service’s state.',
    confirmLabel: 'Restart',
    panels: [panel(1, true), panel(2, false), panel(3, false)],
    leftOut: [{ panelName: 'client-4', label: 'restart db in shop', why: 'a database has no restart' }],
    typedConfirmation: { text: 'acme-prod', why: 'acme-prod is a production panel: type its name to confirm.' },
  };
}

test('main’s confirmation shows every request under its panel, as text; a production panel needs its name typed', async ({ browser }) => {
  const renderer = await startRendererServer();
  const pages = await confirmationPages(browser, renderer.origin);
  try {
    const verdict = pages.confirmWrite(restartPlan(4));
    const page = await pages.next();
    await expect(page.getByRole('heading', { name: 'Restart 12 services on 3 panels' })).toBeVisible();
    await expect(page.getByText('12 requests to 3 panels, sent once each and never again by themselves.')).toBeVisible();
    const region = page.getByRole('region', { name: 'What will be sent' });
    await expect(region.locator('li').filter({ hasText: 'restart web-0 in shop' })).toHaveCount(3);
    await expect(region.getByText('POST /api/restartAppService').first()).toBeVisible();
    await expect(region.getByText('production', { exact: true })).toHaveCount(1);
    // Each panel says which account its requests go as.
    await expect(region.getByText('as ops@acme.example', { exact: true })).toHaveCount(2);
    await expect(region.getByText('as an API token', { exact: true })).toHaveCount(1);
    await expect(region.getByText('client-4: restart db in shop: a database has no restart')).toBeVisible();
    // A panel's name is text, never markup: no image element, no script run.
    await expect(region.getByText('client-2 <img src=x onerror="document.title=\'owned\'">')).toBeVisible();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.title()).toBe('Confirm – Paneldeck');

    const confirm = page.getByRole('button', { name: 'Restart' });
    const typed = page.getByLabel('Type acme-prod to confirm');
    await expect(typed).toBeFocused();
    await expect(confirm).toBeDisabled();
    await typed.fill('acme-pro');
    await expect(confirm).toBeDisabled();
    await typed.press('Enter');
    await typed.fill('acme-prod');
    await expect(confirm).toBeEnabled();
    await checkScreen(page, 'write-confirmation');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, 'write-confirmation-full-hd');
    await confirm.click();
    expect(await verdict).toBe(true);
  } finally {
    await pages.close();
    await renderer.close();
  }
});

test('Cancel, Escape or closing the confirmation answer no; a plan without a production panel confirms at once', async ({ browser }) => {
  const renderer = await startRendererServer();
  const pages = await confirmationPages(browser, renderer.origin);
  try {
    const cancelled = pages.confirmWrite(restartPlan(1));
    await (await pages.next()).getByRole('button', { name: 'Cancel' }).click();
    expect(await cancelled).toBe(false);

    const escaped = pages.confirmWrite(restartPlan(1));
    const escaping = await pages.next();
    // Keys count once the plan is shown (the page asks main for it first).
    await expect(escaping.getByRole('heading', { name: 'Restart 3 services on 3 panels' })).toBeVisible();
    await escaping.keyboard.press('Escape');
    expect(await escaped).toBe(false);

    const closed = pages.confirmWrite(restartPlan(1));
    await (await pages.next()).close();
    expect(await closed).toBe(false);

    const plain = { ...restartPlan(1), typedConfirmation: null, panels: restartPlan(1).panels.slice(1) };
    const confirmed = pages.confirmWrite(plain);
    const page = await pages.next();
    await expect(page.getByRole('button', { name: 'Restart' })).toBeFocused();
    await page.keyboard.press('Enter');
    expect(await confirmed).toBe(true);
  } finally {
    await pages.close();
    await renderer.close();
  }
});
