import assert from 'node:assert/strict';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { after, before, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { backupGroups } from '../../renderer/backups/backup-rows.ts';
import { certificateRows } from '../../renderer/certificates/certificate-rows.ts';
import { tempDir, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { coreWithEvents, EASYPANEL_GENERATIONS, onlyServices } from '../support/signed-in-core.ts';
import { type SiteAuthority, type SitesServer, siteAuthority, sitesServer } from '../support/site-certificates.ts';

/**
 * Issue 32's "done when" for the reads across the fleet, at its size: 200 signed-in reference
 * panels of the three generations, each with an app served on its own domain and a postgres.
 * The Backups view (its rows as the window builds them) names the 20 unprotected databases and the
 * 20 whose last run failed last night, those first; the Certificates view lists the 10 domains
 * expiring within 14 days, and the certificates read raises one alert for each; a running build on
 * one panel is cancelled. The upgrade run's half is tests/integration/upgrade-fleet.test.ts.
 */

const PANELS = 200;
const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
/** Every tenth panel's database has no schedule; every tenth (another) has one whose last run failed; every twentieth's domain ends soon. */
const unprotected = (index: number) => index % 10 === 0;
const failed = (index: number) => index % 10 === 5;
const endingSoon = (index: number) => index % 20 === 0;
const hostOf = (index: number) => `web-${index}.${endingSoon(index) ? 'soon' : 'later'}.fleet.test`;

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let events: PanelEvent[];
let authority: SiteAuthority;
let soonSites: SitesServer;
let laterSites: SitesServer;
const panels: ReferencePanel[] = [];
const ids: string[] = [];
const names = new Map<string, { name: string; group: string | null }>();

before(async () => {
  authority = await siteAuthority();
  setDefaultCACertificates([...getCACertificates('default'), authority.authority]);
  soonSites = await sitesServer(new Map([['soon', await authority.sign({ name: '*.soon.fleet.test', days: 5 })]]));
  laterSites = await sitesServer(new Map([['later', await authority.sign({ name: '*.later.fleet.test', days: 60 })]]));
  dir = await tempDir();
  ({ core, events } = coreWithEvents(dir.path, {
    resolveDomain: (host) => ({ address: '127.0.0.1', port: host.endsWith('.soon.fleet.test') ? soonSites.port : laterSites.port }),
  }));
  for (let index = 0; index < PANELS; index++) {
    const panel = await startReferencePanel({ style: EASYPANEL_GENERATIONS[index % 3]! });
    panels.push(panel);
    onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'db', type: 'postgres' });
    panel.services.setDomains('shop', 'web', [{ host: hostOf(index), https: true, port: 80, path: '/' }]);
    if (!unprotected(index)) {
      const schedule = panel.backups.addSchedule('database', 'shop', 'db', { id: `db-${index}` });
      panel.backups.recordRun(schedule, failed(index) ? 'error' : 'done');
    }
  }
  // Logged in ten at a time, as an operator's fleet log in is.
  for (let start = 0; start < PANELS; start += 10) {
    const batch = panels.slice(start, start + 10);
    const added = await Promise.all(
      batch.map(async (panel, offset) => {
        const name = `Client ${String(start + offset).padStart(3, '0')}`;
        const { id } = await core.addPanel({ address: panel.url, name });
        await core.logIn(id, credentials);
        names.set(id, { name, group: null });
        return id;
      }),
    );
    ids.push(...added);
  }
});
after(async () => {
  await Promise.all(panels.map((panel) => panel.close()));
  await soonSites?.close();
  await laterSites?.close();
  await authority?.cleanup();
  await dir?.cleanup();
});

const indexesWhere = (holds: (index: number) => boolean) => Array.from({ length: PANELS }, (_, index) => index).filter(holds);

test("the Backups view names the unprotected databases and last night's failures of 200 panels, those first", async () => {
  const read = await core.listBackups({ refresh: true });
  assert.equal(read.length, PANELS);
  assert.deepEqual(
    read.filter((panel) => panel.problem !== null).map((panel) => panel.problem),
    [],
  );
  const [group] = backupGroups(read, new Map([...names].map(([id, info]) => [id, { ...info, group: 'Clients' }])), 'group', '');
  assert.ok(group);
  const rows = group.rows;
  const kinds = rows.map((row) => row.rowKind);
  // 20 unprotected, then 20 failed, then the 160 in order; each names its panel.
  assert.deepEqual(kinds, [...Array(20).fill('unprotected'), ...Array(20).fill('failed'), ...Array(160).fill('scheduled')]);
  const named = (kind: string) =>
    rows.filter((row) => row.rowKind === kind).map((row) => `${row.panelName} ${row.projectName}/${row.serviceName}`);
  assert.deepEqual(
    named('unprotected'),
    indexesWhere(unprotected).map((index) => `Client ${String(index).padStart(3, '0')} shop/db`),
  );
  assert.deepEqual(
    named('failed'),
    indexesWhere(failed).map((index) => `Client ${String(index).padStart(3, '0')} shop/db`),
  );
  // The failures were last night's: each last run read with its time, within the day.
  for (const row of rows.filter((one) => one.rowKind === 'failed'))
    assert.ok(Date.now() - Date.parse(row.schedule?.lastRun?.at ?? '') < 24 * 60 * 60 * 1000, row.schedule?.lastRun?.at);
  const alerts = (await core.listAlerts()).filter((alert) => alert.kind === 'noBackup' || alert.kind === 'backupFailed');
  assert.equal(alerts.filter((alert) => alert.kind === 'noBackup').length, 20);
  assert.equal(alerts.filter((alert) => alert.kind === 'backupFailed').length, 20);
});

test('the Certificates view lists the domains expiring within 14 days, each raised once as an alert', async () => {
  const read = await core.listCertificates({ refresh: true });
  assert.equal(read.length, PANELS, 'one domain a panel');
  assert.deepEqual(
    read.filter((row) => row.problem !== null).map((row) => `${row.host}: ${row.problem}`),
    [],
  );
  const rows = certificateRows(read, new Map([...names].map(([id, info]) => [id, info.name])), 14);
  const soon = rows.filter((row) => row.soon).map((row) => row.host);
  assert.deepEqual(soon.toSorted(), indexesWhere(endingSoon).map(hostOf).sort(), 'the ten ending soon, and only they');
  assert.deepEqual(
    rows.slice(0, 10).map((row) => row.host),
    soon,
    'first',
  );
  const expiring = (await core.listAlerts()).filter((alert) => alert.kind === 'certificateExpiring');
  assert.deepEqual(expiring.map((alert) => alert.host).sort(), soon.toSorted());
  // Each host once, at the server its certificate is on.
  assert.equal(soonSites.servernames.length, 10);
  assert.equal(laterSites.servernames.length, 190);
});

test('a running build on one of the 200 is cancelled: killAction once, the build killed', async () => {
  const index = 7;
  const panel = panels[index]!;
  const id = ids[index]!;
  const release = panel.serviceActions.holdDeploys();
  // The panel's backup runs are actions too: the deploy is the one after them.
  const earlier = panel.serviceActions.actions().length;
  try {
    const deploy = core
      .runServiceAction(id, { projectName: 'shop', serviceName: 'web', action: 'deploy' })
      .catch((error: unknown) => error);
    await waitUntil(() => panel.serviceActions.actions().length > earlier);
    const [running] = (await core.listDeployments(id, { projectName: 'shop', serviceName: 'web' })).deployments;
    assert.equal(running?.status, 'running');
    const result = await core.cancelDeployment(id, running.id);
    assert.equal(result.outcome, 'done');
    await deploy;
    assert.equal(panel.serviceActions.action(running.id)?.status, 'killed');
    assert.equal(panel.requests.filter((request) => request.path.endsWith('killAction')).length, 1);
    const others = panels.filter((_, other) => other !== index);
    assert.ok(others.every((one) => one.requests.every((request) => !request.path.endsWith('killAction'))));
    assert.ok(events.some((event) => event.type === 'activityChanged' && event.panelId === id));
  } finally {
    release();
  }
});
