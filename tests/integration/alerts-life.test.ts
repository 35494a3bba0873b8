import assert from 'node:assert/strict';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { Alert } from '../../shared/alerts.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { rejectsWith, tempDir, testEncryption, type TestEncryption } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { coreWithEvents, onlyServices, openSignedIn } from '../support/signed-in-core.ts';
import { certificateFingerprint, selfSignedCertificate } from '../support/tls-certificate.ts';

/**
 * Alerts across a restart and through their life, against real reference panels over loopback
 * with real files: what changed while Paneldeck was closed is raised at the first check after the
 * start (once), a cleared condition resolves its alert, an acknowledged alert stays quiet, and a
 * changed certificate and an HTML page each alert once and resolve at a proper answer.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let encryption: TestEncryption;
let panel: ReferencePanel;
beforeEach(async () => {
  dir = await tempDir();
  // One keyring for every core of a test: a new core on the same folder reads the same tokens.
  encryption = testEncryption();
  panel = await startReferencePanel({ style: 'public' });
  panel.services.setSystemLoad({ disk: { usedGb: 10, totalGb: 100 } });
  onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'db', type: 'postgres' });
});
afterEach(async () => {
  await panel.close();
  await dir.cleanup();
});

interface Running {
  core: Core;
  events: PanelEvent[];
}

/** Checks the panel and answers the alert events of that check: raised and changed. */
async function check(running: Running, id: string): Promise<{ raised: Alert[]; changed: Alert[] }> {
  const from = running.events.length;
  await running.core.checkPanels([id]);
  const events = running.events.slice(from);
  return {
    raised: events.flatMap((event) => (event.type === 'alertRaised' ? [event.alert] : [])),
    changed: events.flatMap((event) => (event.type === 'alertChanged' ? [event.alert] : [])),
  };
}

const kinds = (alerts: readonly Alert[]) => alerts.map((alert) => alert.kind);

describe('since you last looked', () => {
  test('a crash while the core was closed: one alert at the first check after the start, none at the second; recovery resolves it', async () => {
    const first = await openSignedIn(dir.path, panel, { encryption });
    assert.deepEqual((await check(first, first.id)).raised, [], 'a panel never observed is a baseline');
    const baseline = (await first.core.listPanels())[0]!.lastCheck!.at;
    await first.core.flush();

    panel.services.crashService('shop', 'web');
    const second = coreWithEvents(dir.path, { encryption });
    const found = await check(second, first.id);
    assert.deepEqual(kinds(found.raised), ['serviceDown']);
    assert.equal(found.raised[0]!.service, 'shop/web');
    assert.match(found.raised[0]!.message, /^shop\/web on .+ is down\.$/);
    const summary = await second.core.getStartSummary();
    assert.equal(summary.comparedPanels, 1);
    assert.deepEqual(
      summary.alerts.map((alert) => alert.id),
      [found.raised[0]!.id],
    );
    assert.ok(summary.since !== null && Date.parse(summary.since) >= Date.parse(baseline), `${summary.since} from the last run`);
    assert.deepEqual(await check(second, first.id), { raised: [], changed: [] }, 'the second check raises nothing more');

    panel.services.recoverService('shop', 'web');
    const recovered = await check(second, first.id);
    assert.deepEqual(recovered.raised, []);
    assert.deepEqual(
      recovered.changed.map((alert) => [alert.id, alert.resolvedAt !== null]),
      [[found.raised[0]!.id, true]],
    );
    assert.notEqual((await second.core.listAlerts())[0]!.resolvedAt, null);
    assert.equal(
      (await second.core.getStartSummary()).alerts[0]!.resolvedAt,
      recovered.changed[0]!.resolvedAt,
      'the summary shows it as it is now',
    );
    // Down again: a new alert, the resolved one left as it was.
    panel.services.crashService('shop', 'web');
    assert.deepEqual(kinds((await check(second, first.id)).raised), ['serviceDown']);
    assert.equal((await second.core.listAlerts()).length, 2);
  });

  test('a panel that stopped answering while the core was closed: one alert at the first check after the start', async () => {
    const first = await openSignedIn(dir.path, panel, { encryption });
    await check(first, first.id);
    await first.core.flush();
    await panel.close();
    const second = coreWithEvents(dir.path, { encryption });
    assert.deepEqual(kinds((await check(second, first.id)).raised), ['unreachable']);
    assert.deepEqual((await check(second, first.id)).raised, []);
    assert.deepEqual(kinds((await second.core.getStartSummary()).alerts), ['unreachable']);
  });

  test('a panel upgraded while the core was closed is named once, with both versions', async () => {
    panel.setVersion('2.33.4');
    const first = await openSignedIn(dir.path, panel, { encryption });
    await check(first, first.id);
    await first.core.flush();
    panel.setVersion('2.34.0');
    // The next morning: the version is read again once its period (an hour or more) has passed.
    const hoursLater = 3 * 60 * 60_000;
    const second = coreWithEvents(dir.path, { encryption, now: () => new Date(Date.now() + hoursLater) });
    await check(second, first.id);
    const { versionChanges } = await second.core.getStartSummary();
    assert.deepEqual(
      versionChanges.map(({ panelId, from, to }) => [panelId, from, to]),
      [[first.id, '2.33.4', '2.34.0']],
    );
    await check(second, first.id);
    assert.equal((await second.core.getStartSummary()).versionChanges.length, 1, 'only the first check after the start counts');
  });

  test("a first check that tells nothing (rate limited) keeps the last run's observation and time for the next one", async () => {
    const first = await openSignedIn(dir.path, panel, { encryption });
    await check(first, first.id);
    const baseline = (await first.core.listPanels())[0]!.lastCheck!.at;
    await first.core.flush();
    panel.services.crashService('shop', 'web');
    panel.setFault('getSession', { kind: 'rate-limited', retryAfterSeconds: 1 });
    const restartedAt = new Date().toISOString();
    const second = coreWithEvents(dir.path, { encryption });
    assert.deepEqual((await check(second, first.id)).raised, []);
    assert.equal((await second.core.getStartSummary()).comparedPanels, 0);
    panel.setFault('getSession', null);
    assert.deepEqual(kinds((await check(second, first.id)).raised), ['serviceDown']);
    const summary = await second.core.getStartSummary();
    assert.equal(summary.comparedPanels, 1);
    assert.equal(summary.alerts.length, 1);
    // Seen by the last run (after its check began, before this run started), not by the refused check.
    assert.ok(summary.since !== null && summary.since >= baseline && summary.since < restartedAt, `${summary.since}: the last run's`);
  });

  test('no saved observation: the first check is a silent baseline and the summary is empty', async () => {
    panel.services.crashService('shop', 'web');
    const first = await openSignedIn(dir.path, panel, { encryption });
    assert.deepEqual((await check(first, first.id)).raised, []);
    assert.deepEqual(await first.core.getStartSummary(), { since: null, comparedPanels: 0, alerts: [], versionChanges: [] });
  });
});

describe('acknowledged, bad answers', () => {
  test('an acknowledged alert stays quiet while its condition holds, and still resolves when it clears', async () => {
    const running = await openSignedIn(dir.path, panel, { encryption });
    await check(running, running.id);
    panel.services.crashService('shop', 'db');
    const [raised] = (await check(running, running.id)).raised;
    assert.equal(raised?.kind, 'serviceDown');
    const from = running.events.length;
    const acknowledged = await running.core.acknowledgeAlert(raised.id);
    assert.notEqual(acknowledged.acknowledgedAt, null);
    assert.deepEqual(
      running.events.slice(from).map((event) => event.type),
      ['alertChanged'],
    );
    for (let i = 0; i < 3; i++) assert.deepEqual(await check(running, running.id), { raised: [], changed: [] });
    await rejectsWith(running.core.acknowledgeAlert('1-1'), 'NOT_FOUND');
    await rejectsWith(running.core.acknowledgeAlert('not an id'), 'INVALID_INPUT');
    panel.services.recoverService('shop', 'db');
    const [resolved] = (await check(running, running.id)).changed;
    assert.equal(resolved?.acknowledgedAt, acknowledged.acknowledgedAt);
    assert.notEqual(resolved?.resolvedAt, null);
  });

  test('a session-ending alert resolves at the first check that reads a session ending later (a new log in)', async () => {
    const running = await openSignedIn(dir.path, panel, { encryption });
    await check(running, running.id);
    await running.core.sessionEnding(running.id, new Date(Date.now() + 5 * 60_000).toISOString());
    const [warned] = await running.core.listAlerts();
    assert.equal(warned?.kind, 'sessionEnding');
    assert.equal(warned.resolvedAt, null);
    // The reference panel's sessions last 30 days: the one read now ends long after the warning.
    await running.core.logIn(running.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    const { changed } = await check(running, running.id);
    assert.deepEqual(
      changed.map((alert) => [alert.id, alert.resolvedAt !== null]),
      [[warned.id, true]],
    );
  });

  test('an HTML page in place of the API alerts once and resolves at the first proper answer', async () => {
    const running = await openSignedIn(dir.path, panel, { encryption });
    await check(running, running.id);
    panel.setFault('getSession', { kind: 'html-page' });
    const raised = (await check(running, running.id)).raised;
    assert.deepEqual(kinds(raised), ['badAnswer']);
    assert.deepEqual((await check(running, running.id)).raised, []);
    panel.setFault('getSession', null);
    const back = await check(running, running.id);
    assert.deepEqual(
      back.changed.map((alert) => [alert.id, alert.resolvedAt !== null]),
      [[raised[0]!.id, true]],
    );
  });
});

describe('a changed certificate', () => {
  let tlsPanel: ReferencePanel;
  let first: { key: string; cert: string };
  let second: { key: string; cert: string };
  before(async () => {
    first = await selfSignedCertificate();
    second = await selfSignedCertificate({ commonName: 'renewed.paneldeck.test' });
  });
  beforeEach(async () => (tlsPanel = await startReferencePanel({ tls: first })));
  afterEach(() => tlsPanel.close());

  test('alerts once while the pin does not match, and resolves once the new certificate is trusted', async () => {
    const running = coreWithEvents(dir.path, { encryption });
    const { id } = await running.core.addPanel({ address: tlsPanel.url });
    const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
    // Trust on first use: the panel presents its certificate once, then it can be pinned.
    await rejectsWith(running.core.logIn(id, credentials), 'CERTIFICATE_UNTRUSTED');
    await running.core.trustCertificate(id, { sha256: certificateFingerprint(first.cert) });
    await running.core.logIn(id, credentials);
    await check(running, id);
    await tlsPanel.setCertificate(second);
    const raised = (await check(running, id)).raised;
    assert.deepEqual(kinds(raised), ['certificateChanged']);
    assert.match(raised[0]!.message, /no longer matches/);
    assert.deepEqual((await check(running, id)).raised, []);
    await running.core.trustCertificate(id, { sha256: certificateFingerprint(second.cert) });
    const back = await check(running, id);
    assert.deepEqual(back.raised, []);
    assert.deepEqual(
      back.changed.map((alert) => alert.kind),
      ['certificateChanged'],
    );
  });
});
