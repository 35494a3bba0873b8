import assert from 'node:assert/strict';
import { createServer as createTcpServer } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { CertificateRow } from '../../shared/certificates.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, coreWithEvents, onlyServices } from '../support/signed-in-core.ts';
import { type SiteAuthority, type SitesServer, siteAuthority, sitesServer } from '../support/site-certificates.ts';

/**
 * `listCertificates` against reference panels of the three Easypanel generations whose app
 * services have domains, each domain's certificate served by a loopback TLS server that picks it
 * by SNI: the rows with their days left and problems (an ended one, one for another name, a port
 * nothing answers on, a domain without HTTPS), no byte sent on any connection after its handshake,
 * and the day's read kept until a refresh.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

/** Each host's certificate: the name it is valid for and its days. */
const SITES = {
  'soon.example.test': { name: 'soon.example.test', days: 5 },
  'later.example.test': { name: 'later.example.test', days: 60 },
  'ended.example.test': { name: 'ended.example.test', days: -1 },
  'wrong.example.test': { name: 'other.example.test', days: 60 },
} as const;
const CLOSED_HOST = 'closed.example.test';

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let authority: SiteAuthority;
let sites: SitesServer;
let closedPort: number;
const panels = new Map<string, { id: string; panel: ReferencePanel }>();

/** A port nothing listens on: one just let go. */
async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const domain = (host: string, https = true) => ({ host, https, port: 80, path: '/' });

before(async () => {
  authority = await siteAuthority();
  // The authority is trusted as a public one is by the system: only the faults planted are problems.
  setDefaultCACertificates([...getCACertificates('default'), authority.authority]);
  const pairs = new Map<string, { key: string; cert: string }>();
  for (const [host, site] of Object.entries(SITES)) pairs.set(host, await authority.sign(site));
  sites = await sitesServer(pairs);
  closedPort = await freePort();
  dir = await tempDir();
  ({ core } = coreWithEvents(dir.path, {
    resolveDomain: (host) => ({ address: '127.0.0.1', port: host === CLOSED_HOST ? closedPort : sites.port }),
  }));
  for (const style of EASYPANEL_GENERATIONS) {
    const panel = await startReferencePanel({ style });
    onlyServices(
      panel,
      { projectName: 'shop', name: 'web', type: 'app' },
      { projectName: 'shop', name: 'api', type: 'app' },
      { projectName: 'shop', name: 'stack', type: 'compose' },
      { projectName: 'shop', name: 'db', type: 'postgres' },
    );
    panel.services.setDomains('shop', 'web', [domain('soon.example.test'), domain('later.example.test'), domain('Later.example.test')]);
    panel.services.setDomains('shop', 'api', [
      domain('ended.example.test'),
      domain('wrong.example.test'),
      domain(CLOSED_HOST),
      domain('plain.example.test', false),
    ]);
    const { id } = await core.addPanel({ address: panel.url, name: `Panel ${style}` });
    await core.logIn(id, credentials);
    panel.requests.splice(0);
    panels.set(style, { id, panel });
  }
});
after(async () => {
  await Promise.all([...panels.values()].map(({ panel }) => panel.close()));
  await sites?.close();
  await authority?.cleanup();
  await dir?.cleanup();
});

const rowOf = (rows: CertificateRow[], panelId: string, host: string) => rows.find((row) => row.panelId === panelId && row.host === host);

describe('the certificates of the fleet', () => {
  let rows: CertificateRow[];
  before(async () => {
    rows = await core.listCertificates();
  });

  test('one row per domain of every app service of every panel, in three generations; compose and databases are not asked', () => {
    for (const [style, { id, panel }] of panels) {
      const hosts = rows.filter((row) => row.panelId === id).map((row) => `${row.serviceName} ${row.host}`);
      assert.deepEqual(
        hosts.sort(),
        [
          'api closed.example.test',
          'api ended.example.test',
          'api plain.example.test',
          'api wrong.example.test',
          'web later.example.test',
          'web soon.example.test',
        ],
        style,
      );
      const inspected = panel.requests.filter(({ path }) => /inspect/i.test(path)).map(({ path }) => path);
      assert.equal(inspected.length, 2, `${style}: the two apps' settings, no other service's: ${inspected.join(', ')}`);
      assert.ok(
        inspected.every((path) => !/stack|db/.test(path)),
        style,
      );
    }
  });

  test('days left and the end read from each certificate; the ones in order say nothing is wrong', () => {
    for (const { id } of panels.values()) {
      const soon = rowOf(rows, id, 'soon.example.test');
      // Made a moment ago for 5 days: 4 whole days and some hours left.
      assert.equal(soon?.daysLeft, 4);
      assert.equal(soon?.problem, null);
      assert.ok(Math.abs(Date.parse(soon?.validTo ?? '') - (Date.now() + 5 * 86_400_000)) < 3_600_000, soon?.validTo ?? 'no end');
      assert.equal(rowOf(rows, id, 'later.example.test')?.daysLeft, 59);
      assert.equal(rowOf(rows, id, 'later.example.test')?.problem, null);
    }
  });

  test('the problems in words: ended, another name, nothing answering, no HTTPS', () => {
    for (const { id } of panels.values()) {
      const ended = rowOf(rows, id, 'ended.example.test');
      assert.equal(ended?.daysLeft, -1);
      assert.match(ended?.problem ?? '', /has expired/);
      const wrong = rowOf(rows, id, 'wrong.example.test');
      assert.equal(wrong?.problem, 'The certificate is not valid for wrong.example.test.');
      assert.equal(wrong?.daysLeft, 59, 'its end is still read');
      const closed = rowOf(rows, id, CLOSED_HOST);
      assert.equal(closed?.validTo, null);
      assert.equal(closed?.problem, `Nothing answers on port ${closedPort} at 127.0.0.1`);
      assert.match(rowOf(rows, id, 'plain.example.test')?.problem ?? '', /without HTTPS/);
    }
  });

  test('a handshake alone: each host named by SNI, read once for the fleet, and not one byte sent after the handshake', async () => {
    await sites.allClosed();
    assert.deepEqual(
      [...sites.servernames].sort(),
      ['ended.example.test', 'later.example.test', 'soon.example.test', 'wrong.example.test'],
      'each host once, though three panels list it',
    );
    assert.equal(sites.bytesAfterHandshake(), 0);
  });

  test("the day's read is kept: asked again, no panel and no website is asked; a refresh reads them all again", async () => {
    const handshakes = sites.servernames.length;
    const requests = [...panels.values()].map(({ panel }) => panel.requests.length);
    assert.deepEqual(await core.listCertificates(), rows);
    assert.equal(sites.servernames.length, handshakes);
    assert.deepEqual(
      [...panels.values()].map(({ panel }) => panel.requests.length),
      requests,
    );
    const { panel } = panels.get('public')!;
    panel.services.setDomains('shop', 'web', [domain('soon.example.test')]);
    const refreshed = await core.listCertificates({ refresh: true });
    assert.equal(sites.servernames.length, handshakes + 4);
    assert.equal(refreshed.filter((row) => row.panelId === panels.get('public')!.id && row.serviceName === 'web').length, 1);
    await sites.allClosed();
    assert.equal(sites.bytesAfterHandshake(), 0);
  });

  test('a panel signed out has no rows', async () => {
    const { id } = panels.get('trpc')!;
    await core.logOut(id);
    const left = await core.listCertificates();
    assert.equal(
      left.some((row) => row.panelId === id),
      false,
    );
    assert.ok(left.length > 0);
  });
});

describe('a certificate read that cannot finish', () => {
  test('a server that never answers the handshake is a problem once the timeout passes; a panel that cannot be read is one row saying why', async () => {
    // Reads the connection (so that it hears the client close it), answers nothing: a handshake without an end.
    const silent = createTcpServer((socket) => socket.on('error', () => undefined).resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const own = await tempDir();
    const { panel: live } = panels.get('public')!;
    const broken = await startReferencePanel({ style: 'rpc' });
    try {
      const { core: quick } = coreWithEvents(own.path, {
        timeoutMs: 400,
        resolveDomain: () => ({ address: '127.0.0.1', port: silentPort }),
      });
      for (const [panel, name] of [
        [live, 'Live'],
        [broken, 'Broken'],
      ] as const) {
        const { id } = await quick.addPanel({ address: panel.url, name });
        await quick.logIn(id, credentials);
      }
      const brokenId = (await quick.listPanels()).find((one) => one.name === 'Broken')!.id;
      broken.setFault('listProjectsAndServices', { kind: 'status', status: 500 });
      const read = await quick.listCertificates();
      const soon = read.find((row) => row.host === 'soon.example.test');
      assert.equal(soon?.validTo, null);
      assert.equal(soon?.problem, 'No TLS answer within 0.4 s');
      const failed = read.filter((row) => row.panelId === brokenId);
      assert.equal(failed.length, 1);
      assert.equal(failed[0]?.host, '');
      assert.match(failed[0]?.problem ?? '', /^Its services could not be read: /);
    } finally {
      await broken.close();
      await new Promise((resolve) => silent.close(resolve));
      await own.cleanup();
    }
  });
});

describe('the alerts of the certificates read', () => {
  test('an ending or ended certificate and a failed handshake or a wrong name each raise one alert per domain; held, unknown and cleared as reads find them', async () => {
    const own = await tempDir();
    const panel = await startReferencePanel({ style: 'public' });
    try {
      // One keyring for both runs of the app: the second reads the first's tokens.
      const encryption = testEncryption();
      const { core: alerting, events } = coreWithEvents(own.path, {
        encryption,
        resolveDomain: (host) => ({ address: '127.0.0.1', port: host === CLOSED_HOST ? closedPort : sites.port }),
      });
      onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'api', type: 'app' });
      panel.services.setDomains('shop', 'web', [domain('soon.example.test'), domain('later.example.test')]);
      panel.services.setDomains('shop', 'api', [
        domain('ended.example.test'),
        domain('wrong.example.test'),
        domain(CLOSED_HOST),
        domain('plain.example.test', false),
      ]);
      const { id } = await alerting.addPanel({ address: panel.url, name: 'Shop' });
      await alerting.logIn(id, credentials);
      const open = async () =>
        (await alerting.listAlerts())
          .filter((alert) => alert.resolvedAt === null)
          .map((alert) => `${alert.kind} ${alert.service} ${alert.host}`)
          .sort();
      const raised = () => events.filter((event) => event.type === 'alertRaised').length;

      await alerting.listCertificates();
      assert.deepEqual(await open(), [
        'certificateExpiring shop/api ended.example.test',
        'certificateExpiring shop/web soon.example.test',
        `certificateFailed shop/api ${CLOSED_HOST}`,
        'certificateFailed shop/api wrong.example.test',
      ]);
      const messages = (await alerting.listAlerts()).map((alert) => alert.message).sort();
      assert.deepEqual(messages, [
        `The certificate of ${CLOSED_HOST} (shop/api on Shop): Nothing answers on port ${closedPort} at 127.0.0.1`,
        'The certificate of ended.example.test (shop/api on Shop) ended 1 day ago.',
        'The certificate of soon.example.test (shop/web on Shop) ends in 4 days.',
        'The certificate of wrong.example.test (shop/api on Shop): The certificate is not valid for wrong.example.test.',
      ]);
      assert.ok((await alerting.listAlerts()).every((alert) => alert.tab === 'services'));
      assert.equal(raised(), 4);

      // Read again, nothing changed: nothing raised again.
      await alerting.listCertificates({ refresh: true });
      assert.equal(raised(), 4);

      // The domains cannot be read: nothing is known, nothing resolved.
      panel.setFault('inspectAppService', { kind: 'status', status: 500 });
      await alerting.listCertificates({ refresh: true });
      assert.equal((await open()).length, 4);
      panel.setFault('inspectAppService', null);

      // The soon one left the service (renewed elsewhere, or the domain removed): its alert is resolved, the others hold.
      panel.services.setDomains('shop', 'web', [domain('later.example.test')]);
      await alerting.listCertificates({ refresh: true });
      assert.deepEqual(await open(), [
        'certificateExpiring shop/api ended.example.test',
        `certificateFailed shop/api ${CLOSED_HOST}`,
        'certificateFailed shop/api wrong.example.test',
      ]);
      const resolved = events.flatMap((event) => (event.type === 'alertChanged' ? [event.alert] : []));
      assert.deepEqual(
        resolved.map((alert) => alert.host),
        ['soon.example.test'],
      );

      // The Preferences' days move the threshold: 60 takes in the one with 59 days left.
      await alerting.updateSettings({ certificateAlertDays: 60 });
      await alerting.listCertificates({ refresh: true });
      assert.ok((await open()).includes('certificateExpiring shop/web later.example.test'));
      assert.equal(raised(), 5);

      // Kept on disk: a start shows the day's read without a handshake or a request.
      const handshakes = sites.servernames.length;
      const requests = panel.requests.length;
      await alerting.flush();
      const { core: restarted } = coreWithEvents(own.path, {
        encryption,
        resolveDomain: (host) => ({ address: '127.0.0.1', port: host === CLOSED_HOST ? closedPort : sites.port }),
      });
      assert.deepEqual((await restarted.listCertificates()).map((row) => row.host).sort(), [
        CLOSED_HOST,
        'ended.example.test',
        'later.example.test',
        'plain.example.test',
        'wrong.example.test',
      ]);
      assert.equal(sites.servernames.length, handshakes);
      assert.equal(panel.requests.length, requests);
    } finally {
      await panel.close();
      await own.cleanup();
    }
  });
});
