import { checkScreen } from './screens.ts';
import { expect, test } from './fixtures.ts';

/**
 * Preferences keep what was typed: Done saves every valid change, a refused value keeps the
 * dialog open at its field, and Esc with changes asks (keep editing, discard, or save). One Save
 * button, in view at 900x600 and 1280x800.
 */

test('Done saves what was typed; Esc with changes asks; one Save button, always in view', async ({ page, launch }) => {
  const app = await launch(page);
  const opener = page.getByRole('button', { name: 'Preferences' });
  await opener.click();
  const preferences = page.getByRole('dialog', { name: 'Preferences' });
  // Typed, then Done: saved, without Enter or a Save click.
  await preferences.getByLabel('Default email').fill('ops@example.com');
  await preferences.getByLabel('Request timeout').fill('30');
  await checkScreen(page, 'preferences-01-typed');
  await preferences.getByRole('button', { name: 'Done' }).click();
  await expect(preferences).toBeHidden();
  let settings = (await app.core.getAppStatus()).settings;
  expect([settings.defaultEmail, settings.requestTimeoutSeconds]).toEqual(['ops@example.com', 30]);

  // One Save button for the whole dialog, in view with Done at both window sizes.
  await opener.click();
  const save = preferences.getByRole('button', { name: /^Save/ });
  await expect(save).toHaveCount(1);
  for (const viewport of [
    { width: 900, height: 600 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(save, `Save in view at ${viewport.width}x${viewport.height}`).toBeInViewport();
    await expect(preferences.getByRole('button', { name: 'Done' })).toBeInViewport();
  }
  await page.setViewportSize({ width: 900, height: 600 });

  // Esc with a change asks; Keep editing keeps the typed value.
  await preferences.getByLabel('Default email').fill('night@example.com');
  await page.keyboard.press('Escape');
  const question = page.getByRole('dialog', { name: 'Save your changes to Preferences?' });
  await expect(question).toContainText('Default email');
  await expect(question.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await checkScreen(page, 'preferences-02-esc-asks');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, 'preferences-03-esc-asks-full-hd');
  await page.setViewportSize({ width: 900, height: 600 });
  await question.getByRole('button', { name: 'Keep editing' }).click();
  await expect(question).toBeHidden();
  await expect(preferences.getByLabel('Default email')).toHaveValue('night@example.com');
  // Esc again, and Save from the question.
  await page.keyboard.press('Escape');
  await question.getByRole('button', { name: 'Save' }).click();
  await expect(preferences).toBeHidden();
  expect((await app.core.getAppStatus()).settings.defaultEmail).toBe('night@example.com');

  // A value main refuses: Done keeps the dialog open at that field and saves nothing.
  await opener.click();
  await preferences.getByLabel('Default email').fill('not-an-email');
  await preferences.getByLabel('Check interval').fill('15');
  await preferences.getByRole('button', { name: 'Done' }).click();
  await expect(preferences.getByLabel('Default email')).toHaveAccessibleDescription(/Default email must look like name@example.com/);
  await expect(preferences).toBeVisible();
  await expect(preferences.getByLabel('Default email'), 'the cursor goes where the fix goes, in view').toBeFocused();
  await expect(preferences.getByLabel('Default email')).toBeInViewport();
  await checkScreen(page, 'preferences-04-done-refused');
  settings = (await app.core.getAppStatus()).settings;
  expect([settings.defaultEmail, settings.checkIntervalMinutes]).toEqual(['night@example.com', 5]);
  // Esc, Discard: closed, nothing saved; nothing typed is asked about when nothing changed.
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Save your changes to Preferences?' }).getByRole('button', { name: 'Discard changes' }).click();
  await expect(preferences).toBeHidden();
  await expect(opener).toBeFocused();
  expect((await app.core.getAppStatus()).settings.checkIntervalMinutes).toBe(5);
  await opener.click();
  await expect(preferences.getByLabel('Check interval')).toHaveValue('5');
  await page.keyboard.press('Escape');
  await expect(preferences).toBeHidden();
});
