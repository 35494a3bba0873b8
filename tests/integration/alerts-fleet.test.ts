import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import { judgePanel } from '../../renderer/ui/panel-state.ts';
import type { Alert } from '../../shared/alerts.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { coreWithEvents, EASYPANEL_GENERATIONS, onlyServices } from '../support/signed-in-core.ts';

/**
 * Issue 31's "done when", against 200 reference panels of the three generations over loopback with
 * real files: Paneldeck quits; while it is closed two services crash and one panel stops
 * answering; at the next start the first check raises exactly those three, the start summary names
 * them, and a second check raises nothing more; brought back, the three resolve. A panel whose
 * task stats are garbage is never OK, never "0 down".
 */

const FLEET = 200;
const CRASHED = [5, 77] as const;
const SILENT = 150;
const GARBAGE = 42;

let dir: Awaited<ReturnType<typeof tempDir>>;
let servers: ReferencePanel[] = [];
const ids: string[] = [];
const encryption = testEncryption();

before(async () => {
  dir = await tempDir();
  servers = await Promise.all(
    Array.from({ length: FLEET }, (_, index) => startReferencePanel({ style: EASYPANEL_GENERATIONS[index % 3]! })),
  );
  for (const server of servers)
    onlyServices(server, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'db', type: 'postgres' });
});
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await dir.cleanup();
});

const open = (alerts: readonly Alert[]) => alerts.filter((alert) => alert.resolvedAt === null);
const named = (alerts: readonly Alert[]) =>
  alerts.map((alert) => `${alert.kind} ${ids.indexOf(alert.panelId)} ${alert.service ?? ''}`.trim()).sort();

async function raisedBy(running: { core: Core; events: PanelEvent[] }): Promise<Alert[]> {
  const from = running.events.length;
  await running.core.checkPanels();
  return running.events.slice(from).flatMap((event) => (event.type === 'alertRaised' ? [event.alert] : []));
}

test('200 panels: what changed while Paneldeck was closed is raised once at the next start and named in the summary; brought back, it resolves', async () => {
  const first = coreWithEvents(dir.path, { encryption, timeoutMs: 5000 });
  for (const [index, server] of servers.entries())
    ids.push((await first.core.addPanel({ address: server.url, name: `Panel ${index}` })).id);
  const signedIn = await first.core.logInPanels(ids, {
    email: DEMO_USER.email,
    password: DEMO_USER.password,
    rememberMe: true,
    sendOverPlainHttp: ids,
  });
  assert.equal(signedIn.filter((result) => result.outcome === 'signedIn').length, FLEET);
  assert.deepEqual(await raisedBy(first), [], 'the first check ever is the baseline');
  await first.core.flush();

  // While Paneldeck is closed: two services crash, one panel stops answering.
  for (const index of CRASHED) servers[index]!.services.crashService('shop', 'web');
  servers[SILENT]!.setFault('getSession', { kind: 'drop-connection' });

  const second = coreWithEvents(dir.path, { encryption, timeoutMs: 5000 });
  const raised = await raisedBy(second);
  const expected = [`serviceDown ${CRASHED[0]} shop/web`, `serviceDown ${CRASHED[1]} shop/web`, `unreachable ${SILENT}`].sort();
  assert.deepEqual(named(raised), expected);
  assert.deepEqual(named((await second.core.getStartSummary()).alerts), expected, 'the start summary names exactly those');
  assert.deepEqual(named(open(await second.core.listAlerts())), expected, 'the Alerts view has exactly those open');
  assert.deepEqual(await raisedBy(second), [], 'a second check raises nothing more');

  // Brought back: each of the three resolves at the next check, and nothing else is raised.
  for (const index of CRASHED) servers[index]!.services.recoverService('shop', 'web');
  servers[SILENT]!.setFault('getSession', null);
  assert.deepEqual(await raisedBy(second), []);
  const alerts = await second.core.listAlerts();
  assert.deepEqual(open(alerts), [], 'no alert left open');
  assert.deepEqual(named(alerts.filter((alert) => alert.resolvedAt !== null)), expected);

  // A panel answering garbage task stats: never OK, never "0 down".
  servers[GARBAGE]!.setFault('getDockerTaskStats', { kind: 'invalid-json' });
  await second.core.checkPanels([ids[GARBAGE]!]);
  const health = (await second.core.getFleetState()).find((one) => one.panelId === ids[GARBAGE]);
  assert.equal(health?.servicesDown, null);
  assert.ok(health?.problem, 'it says why the state is unknown');
  const listed = (await second.core.listPanels()).find((panel) => panel.id === ids[GARBAGE]);
  assert.ok(listed);
  assert.equal(judgePanel(listed, health).word, 'State unknown', 'the window never calls it OK');
  await second.core.flush();
});
