import type { Page } from '@playwright/test';
import { COMMANDS } from '../../shared/contract/commands.ts';
import { DEMO_USER, startReferencePanel } from '../support/reference-panel/server.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenBothSizes } from './screens.ts';

/**
 * Every view of the fleet is a command (shared/contract/commands.ts): the palette, the View menu
 * (main's runCommand) and its shortcut each show it in place of the panel, one view at a time, and
 * choosing the panel again shows the panel.
 */

const VIEWS = [
  { command: 'activity', heading: 'Activity' },
  { command: 'alerts', heading: 'Alerts' },
  { command: 'allServices', heading: 'All services' },
  { command: 'backups', heading: 'Backups' },
  { command: 'certificates', heading: 'Certificates' },
  { command: 'fleetConsole', heading: 'Console across panels' },
] as const;

const heading = (page: Page, name: string) => page.getByRole('main').getByRole('heading', { level: 1, name, exact: true });

test('each view of the fleet opens from the palette, from the menu and from its shortcut, one at a time', async ({ page, launch }) => {
  const server = await startReferencePanel({ style: 'public', demoProjects: 1 });
  try {
    const app = await launch(page);
    const { id } = await app.core.addPanel({ address: server.url, name: 'Billing' });
    await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    const panelHeading = page.getByRole('main').getByRole('heading', { name: 'Billing', exact: true });
    await expect(panelHeading).toBeVisible();

    // The palette lists every view among its commands, each with its shortcut.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    for (const { command } of VIEWS) {
      await expect(palette.getByRole('option', { name: new RegExp(`^${COMMANDS[command].title}`) })).toBeVisible();
      // In sight at 900x600 without scrolling: they were under eight other commands, below the list's edge.
      await expect(palette.getByRole('option', { name: new RegExp(`^${COMMANDS[command].title}`) })).toBeInViewport({ ratio: 1 });
    }
    // And the panel's own tabs, each one a view too.
    await page.keyboard.type('services of');
    await palette.getByRole('option', { name: /^Services of the panel/ }).click();
    await expect(page.getByRole('group', { name: 'Panel view' }).getByRole('button', { name: 'Services', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.keyboard.press('Control+k');
    // Down to the views, at the end of the list (Preferences after them).
    await palette.getByRole('option', { name: /^Fleet console/ }).scrollIntoViewIfNeeded();
    await checkScreenBothSizes(page, 'views-00-palette');
    await page.keyboard.press('Escape');

    for (const { command, heading: name } of VIEWS) {
      await page.keyboard.press('Control+k');
      await page.keyboard.type(COMMANDS[command].title);
      await palette.getByRole('option', { name: new RegExp(`^${COMMANDS[command].title}`) }).click();
      await expect(palette).toBeHidden();
      await expect(heading(page, name)).toBeVisible();
      // One view at a time: the panel and every other view gave way.
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(panelHeading).toBeHidden();
    }
    await checkScreenBothSizes(page, 'views-01-fleet-console-from-palette');

    // The View menu, as main hands its choice to the window; then back to the panel from the list.
    for (const { command, heading: name } of VIEWS) {
      await app.sendEvent({ type: 'runCommand', command });
      await expect(heading(page, name)).toBeVisible();
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveCount(1);
    }
    await page
      .getByRole('navigation', { name: 'Panels' })
      .getByRole('treeitem', { name: /Billing/ })
      .click();
    await expect(panelHeading).toBeVisible();

    // Each shortcut, from the panel's view and from another view.
    for (const { command, heading: name } of VIEWS) {
      const letter = COMMANDS[command].accelerator!.split('+').at(-1)!;
      await page.keyboard.press(`ControlOrMeta+Shift+${letter}`);
      await expect(heading(page, name)).toBeVisible();
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveCount(1);
    }
    // The panel list's button of the view shown says so, and takes the window back to the panel.
    const button = page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Fleet console', exact: true });
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await button.click();
    await expect(panelHeading).toBeVisible();
  } finally {
    await server.close();
  }
});
