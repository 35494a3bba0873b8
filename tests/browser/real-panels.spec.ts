import { checkScreen } from './screens.ts';
import { addPanel, demo, expect, logIn, test } from './fixtures.ts';
import { startReferencePanel } from '../support/reference-panel/server.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';

test('an Easypanel 2.30 (tRPC) panel: the log in finds the tRPC API by itself, the session shows unwrapped, settings say so', async ({
  page,
  launch,
}) => {
  const panelServer = await startReferencePanel({ style: 'trpc' });
  try {
    await launch(page);
    await addPanel(page, panelServer.url, 'Legacy');
    await logIn(page);
    const summary = page.locator('dl.summary');
    await expect(summary).toContainText('usr_1001');
    await expect(summary).toContainText(demo.email);
    // The session itself, not its { result: { data: { json } } } envelope.
    const tree = page.getByRole('list', { name: 'The session as the panel returned it' });
    await expect(tree).toContainText('userId');
    await expect(tree).not.toContainText('result');
    await checkScreen(page, '30-trpc-session');

    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByLabel('Generation')).toHaveValue('trpc');
    await expect(page.getByLabel('Generation')).toHaveAccessibleDescription(/speaks the API of Easypanel 2\.30 and earlier \(tRPC\)/);
    await expect(page.getByLabel('Session path')).toHaveValue('/trpc/auth.getSession');
    await checkScreen(page, '31-trpc-settings');
  } finally {
    await panelServer.close();
  }
});

test('a self-signed panel: the certificate to compare, trusted for this panel, then a changed certificate refused until trusted again', async ({
  page,
  launch,
}) => {
  const first = await selfSignedCertificate();
  const second = await selfSignedCertificate({ commonName: 'renewed.paneldeck.test' });
  const panelServer = await startReferencePanel({ tls: first, style: 'public' });
  try {
    await launch(page);
    await addPanel(page, panelServer.url, 'Internal');
    await logIn(page);
    const prompt = page.getByRole('alert').filter({ hasText: 'Certificate not trusted' });
    await expect(prompt).toContainText(certificateFingerprint(first.cert));
    await expect(prompt).toContainText('Itself (self-signed)');
    await expect(prompt).toContainText('did not send your password or token');
    expect(panelServer.requests).toEqual([]);
    await checkScreen(page, '32-certificate-trust-prompt');

    // Trusting it sends the kept password over the now-trusted connection: one click, logged in.
    await prompt.getByRole('button', { name: 'Trust this certificate for this panel' }).click();
    await expect(page.locator('dl.summary')).toContainText('usr_1001');

    await panelServer.setCertificate(second);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const changed = page.getByRole('alert').filter({ hasText: 'certificate changed' });
    await expect(changed).toContainText(certificateFingerprint(first.cert));
    await expect(changed).toContainText(certificateFingerprint(second.cert));
    await expect(page.getByRole('navigation', { name: 'Panels' })).toContainText('Unreachable');
    await checkScreen(page, '33-certificate-changed');
    const sent = panelServer.requests.length;

    await changed.getByRole('button', { name: 'Trust the new certificate for this panel' }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(panelServer.requests.length).toBe(sent + 1);

    await page.getByRole('button', { name: 'Settings' }).click();
    const trusted = page.getByRole('region', { name: 'Trusted certificate' });
    await expect(trusted).toContainText(certificateFingerprint(second.cert));
    await checkScreen(page, '34-trusted-certificate-settings');
    await trusted.getByRole('button', { name: 'Forget this certificate' }).click();
    await expect(page.getByRole('region', { name: 'Trusted certificate' })).toHaveCount(0);
  } finally {
    await panelServer.close();
  }
});
