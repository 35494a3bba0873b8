import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';
import { addPanel, logIn } from '../browser/ui-steps.ts';
import { launchApp, skipWithoutElectron } from './launch.ts';

/**
 * Trust on first use over Chromium's network stack, where the verify proc sees a host name only:
 * a certificate trusted for one panel is never accepted for another panel on the same host, and a
 * changed pin takes effect at once (each pin has its own partition, so no cached verdict of an
 * old pin applies). The browser suite cannot test this: there the core's Node fetch decides.
 */
skipWithoutElectron();

let own: { key: string; cert: string };
let other: { key: string; cert: string };
let first: ReferencePanel;
let second: ReferencePanel;
let folder: string;
let opened: ElectronApplication | null = null;

test.beforeAll(async () => {
  own = await selfSignedCertificate();
  other = await selfSignedCertificate({ commonName: 'other.paneldeck.test' });
  first = await startReferencePanel({ tls: own, style: 'public' });
  second = await startReferencePanel({ tls: other, style: 'public' });
  folder = await mkdtemp(join(tmpdir(), 'paneldeck-electron-certificates-'));
});
test.afterAll(async () => {
  await Promise.all([first, second].map((server) => server?.close()));
  if (folder) await rm(folder, { recursive: true, force: true });
});
test.afterEach(async () => {
  await opened?.close();
  opened = null;
});

const list = (window: Page) => window.getByRole('navigation', { name: 'Panels' });

/** Logs in to the selected panel, trusting the certificate it presents when asked. */
async function logInTrusting(window: Page, sha256: string): Promise<void> {
  await logIn(window);
  const prompt = window.getByRole('alert').filter({ hasText: 'Certificate not trusted' });
  await expect(prompt).toContainText(sha256);
  await prompt.getByRole('button', { name: 'Trust this certificate for this panel' }).click();
  await expect(window.locator('dl.summary')).toBeVisible();
}

test('a certificate trusted for one panel is refused for another panel on the same host, also after a pin changes', async () => {
  const { app, window } = await launchApp(join(folder, 'pins'));
  opened = app;
  // Both panels are on 127.0.0.1, on two ports: Chromium's verify proc sees the same host name.
  await addPanel(window, first.url, 'Own');
  await logInTrusting(window, certificateFingerprint(own.cert));
  await addPanel(window, second.url, 'Other');
  await logInTrusting(window, certificateFingerprint(other.cert));

  // The first panel's server now presents the certificate trusted for the second panel only.
  await first.setCertificate(other);
  const sent = first.requests.length;
  await list(window).getByRole('treeitem', { name: /Own/ }).click();
  await window.getByRole('button', { name: 'Refresh' }).click();
  const changed = window.getByRole('alert').filter({ hasText: 'certificate changed' });
  await expect(changed).toContainText(certificateFingerprint(own.cert));
  await expect(changed).toContainText(certificateFingerprint(other.cert));
  expect(first.requests.length).toBe(sent);

  // Trusting the new certificate for this panel takes effect at once; forgetting it too.
  await changed.getByRole('button', { name: 'Trust the new certificate for this panel' }).click();
  await expect(window.getByRole('alert')).toHaveCount(0);
  expect(first.requests.length).toBe(sent + 1);
  await first.setCertificate(own);
  await window.getByRole('button', { name: 'Refresh' }).click();
  await expect(window.getByRole('alert').filter({ hasText: 'certificate changed' })).toBeVisible();
  expect(first.requests.length).toBe(sent + 1);
});
