import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { onlyServices } from '../support/signed-in-core.ts';
import { siteAuthority, sitesServer } from '../support/site-certificates.ts';
import { expect, test } from './fixtures.ts';
import { checkScreenThreeSizes } from './screens.ts';

/**
 * The Certificates view: every domain of the fleet's app services with its certificate, read by
 * the real core from loopback TLS servers behind two reference panels; problems first, then the
 * fewest days left, those within 14 days marked; the search; Refresh reads them again.
 */

/** Each host and its certificate's name and days: two end soon, one ended, one is for another name. */
const SITES = {
  'shop.example.test': { name: 'shop.example.test', days: 5 },
  'api.example.test': { name: 'api.example.test', days: 12 },
  'blog.example.test': { name: 'blog.example.test', days: 60 },
  'docs.example.test': { name: 'docs.example.test', days: 89 },
  'old.example.test': { name: 'old.example.test', days: -1 },
  'promo.example.test': { name: 'landing.example.test', days: 40 },
} as const;

const domain = (host: string) => ({ host, https: true, port: 80, path: '/' });

test('the Certificates view: problems first, then the fewest days left, the soon ones marked; search; Refresh reads again', async ({
  page,
  launch,
}) => {
  const authority = await siteAuthority();
  const trusted = getCACertificates('default');
  // Trusted as a public authority is: only the faults planted are problems.
  setDefaultCACertificates([...trusted, authority.authority]);
  const pairs = new Map<string, { key: string; cert: string }>();
  for (const [host, site] of Object.entries(SITES)) pairs.set(host, await authority.sign(site));
  const sites = await sitesServer(pairs);
  const panels: ReferencePanel[] = [];
  try {
    const billing = await startReferencePanel({ style: 'public' });
    const storefront = await startReferencePanel({ style: 'trpc' });
    panels.push(billing, storefront);
    onlyServices(billing, { projectName: 'billing', name: 'web', type: 'app' }, { projectName: 'billing', name: 'db', type: 'postgres' });
    billing.services.setDomains('billing', 'web', [domain('shop.example.test'), domain('old.example.test'), domain('docs.example.test')]);
    onlyServices(storefront, { projectName: 'store', name: 'front', type: 'app' }, { projectName: 'store', name: 'api', type: 'app' });
    storefront.services.setDomains('store', 'front', [domain('blog.example.test'), domain('promo.example.test')]);
    storefront.services.setDomains('store', 'api', [domain('api.example.test')]);

    const app = await launch(page, { core: { resolveDomain: () => ({ address: '127.0.0.1', port: sites.port }) } });
    for (const [panel, name] of [
      [billing, 'Billing'],
      [storefront, 'Storefront'],
    ] as const) {
      const { id } = await app.core.addPanel({ address: panel.url, name });
      await app.core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password });
    }

    // From the list's footer.
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Certificates', exact: true }).click();
    const view = page.getByRole('region', { name: 'Certificates', exact: true });
    await expect(view.getByRole('status')).toHaveText('6 certificates, 2 ending within 14 days, 2 with a problem');
    const hosts = view.locator('tbody tr.certificate-row td.certificate-host');
    await expect(hosts).toHaveText([
      'old.example.test',
      'promo.example.test',
      'shop.example.test',
      'api.example.test',
      'blog.example.test',
      'docs.example.test',
    ]);
    await expect(view.getByRole('note').first()).toContainText('has expired');
    await expect(view.getByRole('note').nth(1)).toHaveText('The certificate is not valid for promo.example.test.');
    const soon = view.locator('tr.certificate-soon');
    await expect(soon).toHaveCount(2);
    await expect(soon.first().locator('td.certificate-days')).toHaveText('4 dayssoon');
    await expect(view.locator('tr', { hasText: 'blog.example.test' }).locator('td.certificate-service')).toHaveText('store/front');
    await checkScreenThreeSizes(page, 'certificates');

    await view.getByRole('searchbox', { name: 'Search the certificates' }).fill('storefront api');
    await expect(hosts).toHaveText(['api.example.test']);
    await expect(view.getByRole('status')).toHaveText('1 of 6 certificates, 2 ending within 14 days, 2 with a problem');
    await view.getByRole('searchbox', { name: 'Search the certificates' }).fill('');

    // Domains taken away at the panel go at the next Refresh, not before: the day's read is kept.
    billing.services.setDomains('billing', 'web', [domain('shop.example.test')]);
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Certificates', exact: true }).click();
    await page.getByRole('navigation', { name: 'Panels' }).getByRole('button', { name: 'Certificates', exact: true }).click();
    await expect(view.getByRole('status')).toHaveText('6 certificates, 2 ending within 14 days, 2 with a problem');
    await view.getByRole('button', { name: 'Refresh' }).click();
    await expect(view.getByRole('status')).toHaveText('4 certificates, 2 ending within 14 days, 1 with a problem');
    await sites.allClosed();
    expect(sites.bytesAfterHandshake()).toBe(0);
  } finally {
    setDefaultCACertificates(trusted);
    await Promise.all(panels.map((panel) => panel.close()));
    await sites.close();
    await authority.cleanup();
  }
});
