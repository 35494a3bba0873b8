import type { Page } from '@playwright/test';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';
import { checkScreenBothSizes } from './screens.ts';
import { demo, expect, test } from './fixtures.ts';

/**
 * "Log in to N panels": 12 reference panels selected together (one signed in already), one
 * dialog, its progress, and the result list with the panels to finish, one finished by keyboard.
 */

const CODE = '864209';
const ROLES = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'code', 'code', 'certificate', 'wrong', 'wrong', 'signed in'] as const;

const panelList = (page: Page) => page.getByRole('navigation', { name: 'Panels' });
const row = (page: Page, name: RegExp) => panelList(page).getByRole('treeitem', { name });

const shot = checkScreenBothSizes;

test('several panels: one dialog, its progress (with Cancel shown), then every outcome and the panels to finish, by keyboard', async ({
  page,
  launch,
}) => {
  await page.setViewportSize({ width: 900, height: 600 });
  const app = await launch(page);
  const tls = await selfSignedCertificate();
  const servers: ReferencePanel[] = [];
  try {
    for (const [index, role] of ROLES.entries()) {
      const user =
        role === 'code'
          ? { ...DEMO_USER, twoFactorCode: CODE }
          : role === 'wrong'
            ? { ...DEMO_USER, password: 'this-panel-has-another' }
            : DEMO_USER;
      const server = await startReferencePanel({ users: [user], ...(role === 'certificate' ? { tls } : {}) });
      servers.push(server);
      const name = `Client ${String(index + 1).padStart(2, '0')}`;
      const { id } = await app.core.addPanel({ address: server.url, name });
      if (role === 'signed in') await app.core.logIn(id, demo);
    }
    // Slow panels and two at a time: the progress stays on screen long enough to be seen.
    for (const server of servers) server.setFault('login', { kind: 'latency', ms: 400 });
    await app.core.updateSettings({ checkConcurrency: 2 });

    await row(page, /^Client 01/).click();
    // The list draws only the rows near its view: scrolled down, the last one is there to click.
    await page.mouse.wheel(0, 2000);
    await row(page, /^Client 12/).click({ modifiers: ['Shift'] });
    await expect(page.getByRole('heading', { level: 1, name: '12 panels selected' })).toBeVisible();

    // The row menu offers it too, naming how many.
    await row(page, /^Client 03/).click({ button: 'right' });
    await expect(page.getByRole('menuitem', { name: 'Log in to 11 panels…' })).toBeVisible();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Log in to 11 panels…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to 11 panels' });
    await expect(dialog.getByLabel('Email')).toHaveValue(DEMO_USER.email);
    await expect(dialog.getByLabel('Keep me signed in')).toBeChecked();
    await expect(dialog.getByLabel('Also log in again to 1 signed-in panel')).not.toBeChecked();
    await expect(dialog.getByLabel('Password')).toBeFocused();
    await shot(page, '80-fleet-login-form');

    await page.keyboard.type(DEMO_USER.password);
    await page.keyboard.press('Enter');
    const progress = page.getByRole('dialog', { name: 'Logging in to 11 panels' });
    await expect(progress.getByRole('status')).toContainText(/\d+ of 11 done/);
    // Once panels are done (some signed in), the title still names the 11 it was sent to, not those still signed out.
    await expect.poll(async () => (await app.core.listPanels()).filter((panel) => panel.signedIn).length).toBeGreaterThan(1);
    await expect(progress.getByRole('status')).toContainText(/([1-9]|10) of 11 done/);
    await shot(page, '81-fleet-login-progress');

    const done = page.getByRole('dialog', { name: 'Log in: done' });
    await expect(done).toBeVisible({ timeout: 20_000 });
    const outcomes = done.getByRole('list', { name: 'Outcomes' });
    await expect(outcomes).toContainText('6 signed in');
    await expect(outcomes).toContainText('2 need a two-factor code');
    await expect(outcomes).toContainText('1 need a certificate trusted');
    await expect(outcomes).toContainText('2 refused the email or password');
    // The certificate is reviewed in its own list; the rows to finish one by one are the other four.
    await expect(done.getByRole('heading', { name: 'Certificates to review (1)' })).toBeVisible();
    await expect(done.getByRole('heading', { name: 'To finish (4)' })).toBeVisible();
    await shot(page, '82-fleet-login-results');

    // The first to finish has the keyboard: Enter opens its code field, the code and Enter send it.
    const first = done.getByRole('button', { name: /Client 07/ });
    await expect(first).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(done.getByLabel('Authentication code')).toBeFocused();
    await page.keyboard.type(CODE);
    await shot(page, '83-fleet-login-finish-code');
    await page.keyboard.press('Enter');
    await expect(done.getByRole('heading', { name: 'To finish (3)' })).toBeVisible();
    await expect(outcomes).toContainText('7 signed in');
    // Codes are a queue: the next panel needing one is open, its field has the keyboard.
    const next = done.locator('li').filter({ has: page.getByRole('button', { name: /Client 08/ }) });
    await expect(next.getByLabel('Authentication code')).toBeFocused();
    await page.keyboard.type(CODE);
    await page.keyboard.press('Enter');
    await expect(outcomes).toContainText('8 signed in');
    // The certificates met are reviewed together: panel, fingerprint, issuer, dates; none trusted until selected.
    const review = done.getByRole('table', { name: 'Certificates to review' });
    await expect(review).toContainText('Client 09');
    await expect(review).toContainText('Itself (self-signed)');
    await expect(review).toContainText(certificateFingerprint(tls.cert).slice(0, 20));
    await expect(done.getByRole('button', { name: 'Select the certificates to trust' })).toBeDisabled();
    await review.getByRole('checkbox', { name: 'Select all 1' }).check();
    await shot(page, '84-fleet-login-finish-certificate');
    await done.getByRole('button', { name: 'Trust 1 certificate and log in' }).click();
    await expect(outcomes).toContainText('9 signed in');
    await expect(review).toBeHidden();

    // The two refused: the form again for them only. The password they refused is not sent to them twice.
    const refused = servers.slice(9, 11);
    const logInsSeen = () => refused.map((server) => server.requests.filter((request) => /login/i.test(request.path)).length);
    expect(logInsSeen()).toEqual([1, 1]);
    // Finished by hand, a row does not send the password its panel refused either.
    await done.getByRole('button', { name: /Client 10/ }).click();
    await done.getByLabel('Password for Client 10').fill(DEMO_USER.password);
    await page.keyboard.press('Enter');
    await expect(done).toContainText('Client 10 refused this password already: type another.');
    const before = logInsSeen();
    expect(before).toEqual([1, 1]);
    await done.getByRole('button', { name: 'Log in again to the 2 refused, with each group’s own password…' }).click();
    const again = page.getByRole('dialog', { name: 'Log in to 2 panels' });
    await expect(again.getByLabel('Email', { exact: true })).toHaveValue(DEMO_USER.email);
    await again.getByLabel('Password', { exact: true }).fill(DEMO_USER.password);
    await page.keyboard.press('Enter');
    await expect(again).toContainText('Each of these panels refused this email and password already: type another.');
    expect(logInsSeen()).toEqual(before);
    await shot(page, '87-fleet-login-refused-not-resent');
    await again.getByLabel('Password', { exact: true }).fill('this-panel-has-another');
    await page.keyboard.press('Enter');
    // The results are the first run's with these two replaced: 11 panels, all signed in.
    await expect(outcomes).toHaveText('11 signed in');
    expect(logInsSeen()).toEqual([2, 2]);

    await done.getByRole('button', { name: 'Done' }).click();
    await expect(done).toBeHidden();
    const signedIn = (await app.core.listPanels()).filter((panel) => panel.signedIn).length;
    expect(signedIn).toBe(12);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});

test('imported panels with no email of their own: the email the fleet used is offered; Enter with a field empty says which, sends nothing', async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  const servers = await Promise.all([0, 1, 2].map(() => startReferencePanel()));
  try {
    const ids: string[] = [];
    for (const [index, server] of servers.entries())
      ids.push((await app.core.addPanel({ address: server.url, name: `Shop ${index + 1}` })).id);
    await app.core.logIn(ids[0]!, demo);
    // The two still signed out have never been logged in to: no email of their own.
    await row(page, /^Shop 2/).click();
    await row(page, /^Shop 3/).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'Log in to 2 panels…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to 2 panels' });
    await expect(dialog.getByLabel('Email')).toHaveValue(DEMO_USER.email);
    await expect(dialog.getByLabel('Password')).toBeFocused();
    // Enter with no password: the form says so at the field, in its words; nothing is sent.
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('Type the password, then press Enter.')).toBeVisible();
    await dialog.getByLabel('Email').fill('');
    await dialog.getByLabel('Password').fill(DEMO_USER.password);
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('Type the email to log in with: the same for every panel here.')).toBeVisible();
    await expect(dialog.getByLabel('Email')).toBeFocused();
    await shot(page, '85-fleet-login-email-missing');
    const logIns = () => servers.slice(1).flatMap((server) => server.requests.filter((request) => request.method === 'POST')).length;
    expect(logIns()).toBe(0);
    await page.keyboard.type(DEMO_USER.email);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Log in: done' }).getByRole('list', { name: 'Outcomes' })).toContainText('2 signed in');
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});

test("by group: each client's panels get their own email and password, once each; a group left empty is sent nothing", async ({
  page,
  launch,
}) => {
  const app = await launch(page);
  const FLEET = [
    { name: 'Acme 1', group: 'Acme', password: 'acme-pass-1' },
    { name: 'Acme 2', group: 'Acme', password: 'acme-pass-1' },
    { name: 'Globex 1', group: 'Globex', password: 'globex-pass-2' },
    { name: 'Globex 2', group: 'Globex', password: 'globex-pass-2' },
    { name: 'Loose 1', group: null, password: DEMO_USER.password },
  ];
  const servers = await Promise.all(FLEET.map(({ password }) => startReferencePanel({ users: [{ ...DEMO_USER, password }] })));
  try {
    for (const [index, { name, group }] of FLEET.entries()) {
      const { id } = await app.core.addPanel({ address: servers[index]!.url, name });
      if (group) await app.core.updatePanels([id], { group });
    }
    await row(page, /^Acme 1/).click();
    await row(page, /^Loose 1/).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'Log in to 5 panels…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to 5 panels' });
    await dialog.getByLabel('Each group has its own email and password (3 groups)').check();
    for (const group of ['Acme', 'Globex']) await dialog.getByLabel(`Email for ${group}`).fill(DEMO_USER.email);
    await dialog.getByLabel('Password for Acme').fill('acme-pass-1');
    await dialog.getByLabel('Password for Globex').fill('globex-pass-2');
    await shot(page, '86-fleet-login-by-group');
    // The button counts the panels that will get a log in: the group left empty is not among them.
    await expect(dialog.getByRole('button', { name: 'Log in to 4 panels' })).toBeVisible();
    await page.keyboard.press('Enter');
    const done = page.getByRole('dialog', { name: 'Log in: done' });
    await expect(done.getByRole('list', { name: 'Outcomes' })).toContainText('4 signed in');
    await expect(done.getByRole('list', { name: 'Outcomes' })).not.toContainText('refused');
    const logIns = servers.map((server) => server.requests.filter((request) => request.method === 'POST').length);
    // Each panel of a group given a password got one log in; the group left empty got none.
    expect(logIns).toEqual([1, 1, 1, 1, 0]);
    const signedIn = (await app.core.listPanels()).filter((panel) => panel.signedIn).map((panel) => panel.name);
    expect(signedIn.sort()).toEqual(['Acme 1', 'Acme 2', 'Globex 1', 'Globex 2']);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
