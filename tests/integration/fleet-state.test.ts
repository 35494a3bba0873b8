import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { LIST_EVERY_READS } from '../../electron/core/checks/fleet-state.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { PanelHealth } from '../../shared/fleet-state.ts';
import { tempDir, testEncryption, type TestEncryption, waitUntil } from '../support/helpers.ts';
import {
  DEMO_USER,
  type PanelStyle,
  type ReferencePanel,
  type RequestEvent,
  startReferencePanel,
} from '../support/reference-panel/server.ts';

/**
 * The state a check reads beside each session (task stats, system stats, the service list when
 * due), against reference panels of every Easypanel generation over loopback, with real files:
 * the pass's one bound as the servers see it, a hostile or slow panel never holding back the
 * others, a crash counted at the next check, the state kept across a restart, and failures kept
 * as the state's problem without failing the check. No assertion is about wall-clock time: the
 * slow panel is cut by the request deadline, and the test asserts the order results arrive in.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const STYLES: readonly Exclude<PanelStyle, 'simple'>[] = ['trpc', 'rpc', 'public'];
/** The demo's three projects of four services: two down, one stopped, one disabled (demo-services.ts). */
const DEMO_COUNTS = { running: 8, down: 2, stopped: 1, disabled: 1 };

/** Requests in flight across every server that reports to it: what the operator's panels see. */
class ServerLoad {
  inFlight = 0;
  peak = 0;
  readonly observe = (event: RequestEvent): void => {
    if (event.phase === 'arrived') this.peak = Math.max(this.peak, ++this.inFlight);
    else this.inFlight--;
  };
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let encryption: TestEncryption;
let events: PanelEvent[];
let panels: ReferencePanel[];
beforeEach(async () => {
  dir = await tempDir();
  encryption = testEncryption();
  events = [];
  panels = [];
});
afterEach(async () => {
  await Promise.all(panels.map((panel) => panel.close()));
  await dir.cleanup();
});

function start(timeoutMs = 5000): Core {
  return createCore({ dataDir: dir.path, encryption, timeoutMs, emit: (event) => events.push(event) });
}

/** Reference panels, one of each generation in turn, added and signed in. */
async function fleet(
  core: Core,
  count: number,
  observer?: (event: RequestEvent) => void,
): Promise<{ id: string; panel: ReferencePanel }[]> {
  const added: { id: string; panel: ReferencePanel }[] = [];
  for (let index = 0; index < count; index++) {
    const panel = await startReferencePanel({ style: STYLES[index % STYLES.length], demoProjects: 3, observer });
    panels.push(panel);
    const { id } = await core.addPanel({ address: panel.url, name: `Panel ${index}` });
    await core.logIn(id, credentials);
    added.push({ id, panel });
  }
  return added;
}

/** The last of `count` panels of `fleet`: with 3, an Easypanel 2.33 one. */
async function lastOf(core: Core, count: number): Promise<{ id: string; panel: ReferencePanel }> {
  const members = await fleet(core, count);
  const last = members.at(-1);
  assert.ok(last);
  return last;
}

async function healthOf(core: Core, id: string): Promise<PanelHealth | undefined> {
  return (await core.getFleetState()).find((health) => health.panelId === id);
}

const stateReads = (panel: ReferencePanel, route: string) => panel.requests.filter((request) => request.path.includes(route)).length;

describe('the check reads the state', () => {
  test('in the same bounded pass: never more requests in flight at the servers than the bound, each panel read whole', async () => {
    const core = start();
    const load = new ServerLoad();
    const members = await fleet(core, 9, load.observe);
    await core.updateSettings({ checkConcurrency: 3 });
    // Slow enough that the slots overlap: without the bound, all nine panels would be read at once.
    for (const { panel } of members)
      for (const route of ['getSession', 'getDockerTaskStats', 'getSystemStats', 'listProjectsAndServices'] as const)
        panel.setFault(route, { kind: 'latency', ms: 20 });
    load.peak = load.inFlight;
    const checks = await core.checkPanels();
    assert.deepEqual(
      checks.map((check) => check.ok),
      members.map(() => true),
    );
    assert.ok(load.peak <= 3, `at most 3 requests in flight at the servers, saw ${load.peak}`);
    assert.ok(load.peak >= 2, `the pass ran panels side by side (saw ${load.peak})`);
    const state = await core.getFleetState();
    assert.equal(state.length, members.length);
    for (const { id, panel } of members) {
      const health = state.find((one) => one.panelId === id);
      assert.deepEqual(health?.services, DEMO_COUNTS, panel.style);
      assert.equal(health?.servicesDown, 2);
      assert.equal(health?.cpuPercent, 12.5);
      assert.deepEqual(health?.disk, { usedGb: 31.2, totalGb: 78.63 });
      assert.equal(health?.version, panel.version());
      assert.equal(health?.problem, null);
      assert.equal(stateReads(panel, 'listProjectsAndServices'), 1, 'the first check lists the services');
    }
    await core.flush();
    const told = events.flatMap((event) => (event.type === 'fleetStateChanged' ? event.panels : []));
    assert.deepEqual(new Set(told.map((health) => health.panelId)), new Set(members.map(({ id }) => id)));
  });

  test("a panel's slow or hostile state answer never holds back another panel's result", async () => {
    const core = start(3000);
    const [slow, hostile, ...others] = await fleet(core, 5);
    assert.ok(slow && hostile);
    await core.updateSettings({ checkConcurrency: 2 });
    slow.panel.setFault('getDockerTaskStats', { kind: 'never-ending-body' });
    hostile.panel.services.setRawAnswer(
      'getDockerTaskStats',
      JSON.parse('{"__proto__": {"actual": 0, "desired": 1}, "shop_web": {"actual": "many", "desired": -1}, "a": [1]}'),
    );
    hostile.panel.setFault('getSystemStats', { kind: 'huge-body', bytes: 6 * 1024 * 1024 });
    const order: string[] = [];
    const noted = async <T>(name: string, work: Promise<T>): Promise<T> => {
      const value = await work;
      order.push(name);
      return value;
    };
    const slowCheck = noted('slow', core.checkPanels([slow.id]));
    const otherChecks = noted('others', core.checkPanels([hostile.id, ...others.map(({ id }) => id)]));
    const [[slowResult], rest] = await Promise.all([slowCheck, otherChecks]);
    // The slow panel held one slot until its deadline; the other four went through the other.
    assert.deepEqual(order, ['others', 'slow']);
    assert.ok(rest.every((check) => check.ok));
    assert.equal(slowResult?.ok, true, 'a state read that timed out leaves the check ok');
    const slowHealth = await healthOf(core, slow.id);
    assert.equal(slowHealth?.services, null);
    assert.match(slowHealth?.problem?.code ?? '', /TIMEOUT|NETWORK/);
    assert.equal(slowHealth?.cpuPercent, null, 'a panel that stopped answering is not asked for more');
    const hostileHealth = await healthOf(core, hostile.id);
    // Task stats that are no counts of tasks are not understood: not known, never "0 down" (issue 31).
    assert.equal(hostileHealth?.problem?.code, 'BAD_RESPONSE');
    assert.match(hostileHealth?.problem?.message ?? '', /task stats were not understood/);
    assert.equal(hostileHealth?.cpuPercent, null);
    assert.equal(hostileHealth?.servicesDown, null);
    for (const { id } of others) assert.equal((await healthOf(core, id))?.servicesDown, 2);
  });

  test('a crash shows as servicesDown at the next check; a new service has the list read again', async () => {
    const core = start();
    const { id, panel } = await lastOf(core, 3);
    assert.equal(panel.style, 'public');
    await core.checkPanels([id]);
    assert.equal((await healthOf(core, id))?.servicesDown, 2);
    panel.services.crashService('shop', 'web');
    await core.checkPanels([id]);
    assert.equal((await healthOf(core, id))?.servicesDown, 3);
    assert.equal(stateReads(panel, 'listProjectsAndServices'), 1, 'the kept list serves the next checks');
    panel.services.addService({ projectName: 'shop', name: 'worker', type: 'app', replicas: { actual: 0, desired: 2 } });
    await core.checkPanels([id]);
    assert.equal(stateReads(panel, 'listProjectsAndServices'), 2, 'a service the list lacks has it read again');
    const health = await healthOf(core, id);
    assert.deepEqual(health?.services, { ...DEMO_COUNTS, down: 4, running: 7 });
    for (let check = 0; check < LIST_EVERY_READS; check++) await core.checkPanels([id]);
    assert.equal(stateReads(panel, 'listProjectsAndServices'), 3, `and at every ${LIST_EVERY_READS}th read`);
  });

  test('the state survives a restart, marked with when it was read', async () => {
    const first = start();
    const members = await fleet(first, 3);
    await first.checkPanels();
    const before = await first.getFleetState();
    assert.equal(before.length, 3);
    await first.flush();
    const second = start();
    assert.deepEqual(await second.getFleetState(), before);
    for (const health of before) assert.ok(Date.parse(health.readAt) > 0);
    // Removing a panel forgets its state.
    await second.removePanel(members[0]!.id);
    assert.equal((await second.getFleetState()).length, 2);
  });

  test('a state read that fails leaves the check ok, keeps the last figures and says why', async () => {
    const core = start();
    const { id, panel } = await lastOf(core, 1);
    await core.checkPanels([id]);
    const read = await healthOf(core, id);
    panel.setFault('getDockerTaskStats', { kind: 'server-error' });
    panel.setFault('getSystemStats', { kind: 'status', status: 404 });
    const [check] = await core.checkPanels([id]);
    assert.equal(check?.ok, true);
    const [listed] = await core.listPanels();
    assert.equal(listed?.lastCheck?.ok, true);
    const failed = await healthOf(core, id);
    assert.equal(failed?.readAt, read?.readAt, 'the figures are those of the last read that worked');
    assert.equal(failed?.cpuPercent, read?.cpuPercent);
    assert.deepEqual(failed?.disk, read?.disk);
    // What runs now is not known: the old count is not kept as if it were (issue 31).
    assert.equal(failed?.services, null);
    assert.equal(failed?.servicesDown, null);
    assert.equal(failed?.problem?.code, 'SERVER_ERROR');
    assert.ok((failed?.problem?.message.length ?? 0) <= 300);
    // One part failing: the other part is read, the failed one unknown.
    panel.setFault('getSystemStats', null);
    await core.checkPanels([id]);
    const part = await healthOf(core, id);
    assert.notEqual(part?.readAt, read?.readAt);
    assert.equal(part?.services, null);
    assert.equal(part?.cpuPercent, 12.5);
    assert.equal(part?.problem?.code, 'SERVER_ERROR');
  });

  test('a panel without the state routes is not asked for its state again at every check', async () => {
    const core = start();
    const panel = await startReferencePanel();
    panels.push(panel);
    const { id } = await core.addPanel({ address: panel.url });
    await core.logIn(id, credentials);
    const [first] = await core.checkPanels([id]);
    assert.equal(first?.ok, true);
    const health = await healthOf(core, id);
    assert.equal(health?.problem?.code, 'BAD_RESPONSE');
    const before = panel.requests.length;
    const [second] = await core.checkPanels([id]);
    assert.equal(second?.ok, true);
    assert.deepEqual(
      panel.requests.slice(before).map((request) => request.path),
      ['/api/getSession'],
    );
    assert.deepEqual(await healthOf(core, id), health);
  });

  test('Cancel stops a state read under way: the session read stands, nothing of the state is kept', async () => {
    const core = start(60_000);
    const { id, panel } = await lastOf(core, 1);
    panel.setFault('getDockerTaskStats', { kind: 'never-ending-body' });
    const checking = core.checkPanels([id]);
    await waitUntil(() => panel.requests.some((request) => request.path.includes('getDockerTaskStats')), 10_000);
    await core.cancelChecks();
    const [check] = await checking;
    assert.equal(check?.ok, true);
    assert.equal(await healthOf(core, id), undefined);
    assert.equal(panel.requests.filter((request) => request.path.includes('SystemStats')).length, 0);
  });

  test('a 401 on a state read ends the sign-in, as a session read does', async () => {
    const core = start();
    const { id, panel } = await lastOf(core, 1);
    panel.setFault('getSystemStats', { kind: 'status', status: 401 });
    const [check] = await core.checkPanels([id]);
    assert.equal(check?.ok, false);
    assert.equal(check?.ok === false && check.error.code, 'UNAUTHORIZED');
    const [listed] = await core.listPanels();
    assert.equal(listed?.signedIn, false);
    assert.equal(listed?.signedOutReason?.code, 'UNAUTHORIZED');
  });
});
