import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, onlyServices } from '../support/signed-in-core.ts';
import { selfSignedCertificate } from '../support/tls-certificate.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenThreeSizes } from './screens.ts';

/**
 * Issue 35's first day, as the operator meets it: a pasted list of 200 reference panels (40
 * clients, three generations, 15 self-signed certificates, 10 two-factor accounts, 13 panels of
 * three clients with their own password) to all 200 signed in with their health on the table.
 * Every operator action is counted (a click, a key press that is not typing, one field filled):
 * the count is printed, and the test fails above 60.
 */

const FLEET = 200;
const MAX_ACTIONS = 60;
const CODE = '530917';
const CLIENT_PASSWORD = { 'Client 38': 'own-38-password', 'Client 39': 'own-39-password', 'Client 40': 'own-40-password' } as const;

/** 40 clients: 1 and 2 have six panels, 3..37 five, the three with their own password 4, 4 and 5 (13). */
function clientOf(index: number): string {
  const sizes = [6, 6, ...Array.from({ length: 35 }, () => 5), 4, 4, 5];
  let start = 0;
  for (const [client, size] of sizes.entries()) {
    if (index < start + size) return `Client ${String(client + 1).padStart(2, '0')}`;
    start += size;
  }
  throw new Error(`panel ${index} is past the fleet`);
}

/** Panels 3, 16, 29…: self-signed (15); panels 8, 27, 46…: two-factor (10); none of the two in clients 38–40. */
const isSelfSigned = (index: number) => index % 13 === 3 && index < 13 * 15;
const needsCode = (index: number) => index % 19 === 8 && index < 19 * 10;

/** Counts what the operator does, as the issue counts it. */
function actionCounter() {
  let actions = 0;
  return {
    act: async <T>(step: Promise<T>): Promise<T> => {
      actions += 1;
      return step;
    },
    get count() {
      return actions;
    },
  };
}

test('the first day: 200 pasted panels to all signed in with health on the table, in at most 60 actions', async ({ page, launch }) => {
  test.setTimeout(900_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await launch(page);
  const tls = await selfSignedCertificate();
  const servers: ReferencePanel[] = await Promise.all(
    Array.from({ length: FLEET }, (_, index) => {
      const client = clientOf(index);
      const password = CLIENT_PASSWORD[client as keyof typeof CLIENT_PASSWORD] ?? DEMO_USER.password;
      const user = { ...DEMO_USER, password, ...(needsCode(index) ? { twoFactorCode: CODE } : {}) };
      return startReferencePanel({
        style: EASYPANEL_GENERATIONS[index % 3]!,
        users: [user],
        ...(isSelfSigned(index) ? { tls } : {}),
      });
    }),
  );
  try {
    for (const server of servers) {
      onlyServices(server, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'db', type: 'postgres' });
    }
    const csv = ['name,address,group', ...servers.map((server, index) => `Panel ${index + 1},${server.url},${clientOf(index)}`)].join('\n');
    const counter = actionCounter();
    const act = counter.act;
    const started = Date.now();

    // The paste: the palette's Import, the list pasted, its preview, added.
    await act(page.keyboard.press('Control+k'));
    await act(page.keyboard.type('import'));
    await act(page.keyboard.press('Enter'));
    const importDialog = page.getByRole('dialog', { name: 'Import panels' });
    await act(importDialog.getByLabel('Or paste them here').fill(csv));
    await act(importDialog.getByRole('button', { name: 'Preview pasted text' }).click());
    await act(page.getByRole('dialog', { name: 'Import from pasted text' }).getByRole('button', { name: 'Add 200 panels' }).click());

    // The next step is offered in place; one email and password for all.
    await act(page.getByRole('button', { name: 'Log in to 200 imported panels…' }).click());
    const form = page.getByRole('dialog', { name: 'Log in to 200 panels' });
    await act(form.getByLabel('Email', { exact: true }).fill(DEMO_USER.email));
    await act(form.getByLabel('Password', { exact: true }).fill(DEMO_USER.password));
    await act(page.keyboard.press('Enter'));
    const done = page.getByRole('dialog', { name: 'Log in: done' });
    await expect(done).toBeVisible({ timeout: 300_000 });
    const outcomes = done.getByRole('list', { name: 'Outcomes' });
    await expect(outcomes).toContainText(`${FLEET - 15 - 10 - 13} signed in`);
    await expect(outcomes).toContainText('10 need a two-factor code');
    await expect(outcomes).toContainText('15 need a certificate trusted');
    await expect(outcomes).toContainText('13 refused the email or password');
    await checkScreenThreeSizes(page, '90-first-day-review');

    // The 15 certificates in one list, trusted by selection in one step.
    const review = done.getByRole('table', { name: 'Certificates to review' });
    await expect(review.getByRole('row')).toHaveCount(16);
    await act(review.getByRole('checkbox', { name: 'Select all 15' }).check());
    await act(done.getByRole('button', { name: 'Trust 15 certificates and log in' }).click());
    await expect(review).toBeHidden({ timeout: 120_000 });
    await expect(outcomes).toContainText(`${FLEET - 10 - 13} signed in`);

    // The 13 refused: the form again for them only, each client with its own password.
    await act(done.getByRole('button', { name: 'Log in again to the 13 refused, with each group’s own password…' }).click());
    const again = page.getByRole('dialog', { name: 'Log in to 13 panels' });
    await expect(again.getByLabel(/Each group has its own email and password/)).toBeChecked();
    for (const [client, password] of Object.entries(CLIENT_PASSWORD)) {
      await expect(again.getByLabel(`Email for ${client}`)).toHaveValue(DEMO_USER.email);
      await act(again.getByLabel(`Password for ${client}`).fill(password));
    }
    await act(page.keyboard.press('Enter'));
    await expect(outcomes).toContainText(`${FLEET - 10} signed in`, { timeout: 120_000 });
    await expect(outcomes).not.toContainText('refused');

    // The codes, one queue: Enter opens the first; a code and Enter send it and open the next.
    await expect(done.getByRole('heading', { name: 'To finish (10)' })).toBeVisible();
    await expect(done.locator('.fleet-finish-row').first()).toBeFocused();
    await act(page.keyboard.press('Enter'));
    for (let left = 10; left > 0; left -= 1) {
      const field = done.getByLabel('Authentication code');
      await expect(field).toBeFocused();
      if (left === 10) await checkScreenThreeSizes(page, '91-first-day-codes');
      await act(field.fill(CODE));
      await act(page.keyboard.press('Enter'));
      await expect(outcomes).toContainText(`${FLEET - left + 1} signed in`);
    }
    await act(done.getByRole('button', { name: 'Done' }).click());

    // Health on the table: one check of all, every panel's version and load read.
    const panelList = page.getByRole('navigation', { name: 'Panels' });
    await act(panelList.getByRole('button', { name: 'Table', exact: true }).click());
    await act(page.getByRole('button', { name: 'Check all', exact: true }).click());
    await expect
      .poll(async () => (await app.core.listPanels()).filter((panel) => panel.signedIn && panel.panelVersion !== null).length, {
        timeout: 300_000,
      })
      .toBe(FLEET);
    // The check is over when the table's health counts say all 200 are OK.
    await expect(panelList.getByRole('list', { name: 'Panels by state' })).toHaveText(`${FLEET} OK`, { timeout: 300_000 });
    await expect(panelList.getByRole('progressbar', { name: 'Checking panels' })).toBeHidden();
    const table = panelList.getByRole('grid', { name: 'Panel table' });
    await expect(table.locator('.fleet-row').first().locator('.col-version')).toHaveText(/^2\.\d+\.\d+$/);
    const seconds = Math.round((Date.now() - started) / 1000);
    await checkScreenThreeSizes(page, '92-first-day-table');

    console.log(`first day: ${counter.count} operator actions, ${seconds} s from the paste to all ${FLEET} signed in and checked`);
    expect((await app.core.listPanels()).filter((panel) => panel.signedIn)).toHaveLength(FLEET);
    expect(counter.count).toBeLessThanOrEqual(MAX_ACTIONS);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
});
