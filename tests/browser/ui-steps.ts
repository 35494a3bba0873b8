import { expect, type Page } from '@playwright/test';
import { DEMO_USER } from '../support/reference-panel/server.ts';

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
