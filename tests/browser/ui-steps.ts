import { expect, type Locator, type Page } from '@playwright/test';
import type { Core } from '../../electron/core/index.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { DEMO_USER } from '../support/reference-panel/server.ts';
import type { ConfirmationPages } from './confirmation-page.ts';

/**
 * What an operator does in the window, step by step, for any page that shows it: the browser
 * suite's and the real app's (tests/electron/).
 */

export const demo = { email: DEMO_USER.email, password: DEMO_USER.password };

export async function addPanel(page: Page, address: string, name = ''): Promise<void> {
  await page.getByRole('button', { name: 'Add panel' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add panel' });
  await dialog.getByLabel('Address').fill(address);
  if (name) await dialog.getByLabel('Name (optional)').fill(name);
  await dialog.getByLabel('Address').press('Enter');
  await expect(dialog).toBeHidden();
}

export async function logIn(page: Page, password = demo.password, email = demo.email): Promise<void> {
  const form = page.getByRole('form', { name: /^Log in to/ });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

/**
 * A panel named `name` at `address`, added and signed in through the core (not the window),
 * chosen in the list and shown on its `tab`: where a spec of one tab starts.
 */
export async function openSignedInTab(
  page: Page,
  core: Pick<Core, 'addPanel' | 'logIn'>,
  address: string,
  tab: string,
  name = 'Shop',
): Promise<{ panelId: string }> {
  const panel = await core.addPanel({ address, name });
  await core.logIn(panel.id, demo);
  await page
    .getByRole('navigation', { name: 'Panels' })
    .getByRole('treeitem', { name: new RegExp(name) })
    .click();
  await page.getByRole('button', { name: tab, exact: true }).click();
  return { panelId: panel.id };
}

/**
 * In a tab's service picker (Logs, Deployments, in `view`): names Easypanel would refuse are said
 * before anything is asked; then `projectName` and `serviceName` are typed in, not yet sent.
 */
export async function fillServicePicker(view: Locator, submit: string, projectName: string, serviceName: string): Promise<void> {
  await view.getByLabel('Project').fill('Shop!');
  await view.getByLabel('Service').fill('');
  await view.getByRole('button', { name: submit }).click();
  await expect(view.getByText('A project name holds only lower-case letters')).toBeVisible();
  await expect(view.getByText('Enter the service name.')).toBeVisible();
  await view.getByLabel('Project').fill(projectName);
  await view.getByLabel('Service').fill(serviceName);
}

/**
 * Answers main's own confirmation of the next write (opened by the fixture's `confirmations`):
 * waits for the plan's heading (`title`, when given, must match), lets `inspect` look at the page,
 * types the production panel's phrase where the plan asks for one (`typed`; by default what the
 * plan asks), then confirms, or cancels with `cancel`. Returns the plan asked about and its page.
 */
export async function answerInMain(
  confirmations: ConfirmationPages,
  {
    title,
    typed,
    cancel = false,
    inspect,
  }: { title?: string | RegExp; typed?: string; cancel?: boolean; inspect?: (page: Page, plan: WritePlan) => Promise<void> } = {},
): Promise<{ plan: WritePlan; page: Page }> {
  const page = await confirmations.next();
  const plan = confirmations.plans.at(-1)!;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title ?? plan.title);
  await inspect?.(page, plan);
  if (cancel) {
    await page.getByRole('button', { name: 'Cancel' }).click();
    return { plan, page };
  }
  const asked = plan.typedConfirmation;
  if (asked) await page.getByLabel(`Type ${asked.text} to confirm`).fill(typed ?? asked.text);
  await page.getByRole('button', { name: plan.confirmLabel, exact: true }).click();
  return { plan, page };
}
