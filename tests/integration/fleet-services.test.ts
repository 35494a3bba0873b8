import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { PanelServices } from '../../shared/fleet-services.ts';
import { tempDir } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, coreWithEvents } from '../support/signed-in-core.ts';

/**
 * `getFleetServices` and the `fleetServicesChanged` event against reference panels of the three
 * Easypanel generations over loopback: the services each check's state read kept (no request of
 * its own), the same states as a panel's Services tab, a crash shown down at the next check, a
 * failed read kept as the problem, and `gone` when a panel is removed, signed out or moved.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
/** The demo's three projects of four services: two down, one stopped, one disabled (demo-services.ts). */
const DEMO_STATES = { running: 8, down: 2, stopped: 1, disabled: 1 };

interface Member {
  id: string;
  panel: ReferencePanel;
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let events: PanelEvent[];
let members: Member[];
beforeEach(async () => {
  dir = await tempDir();
  ({ core, events } = coreWithEvents(dir.path));
  members = [];
  for (const style of EASYPANEL_GENERATIONS) {
    const panel = await startReferencePanel({ style, demoProjects: 3 });
    const { id } = await core.addPanel({ address: panel.url, name: `Panel ${style}` });
    await core.logIn(id, credentials);
    members.push({ id, panel });
  }
});
afterEach(async () => {
  await Promise.all(members.map(({ panel }) => panel.close()));
  await dir.cleanup();
});

const statesOf = (panel: PanelServices | undefined) => {
  const counts: Record<string, number> = {};
  for (const { state } of panel?.services ?? []) counts[state] = (counts[state] ?? 0) + 1;
  return counts;
};
const kept = async (id: string) => (await core.getFleetServices()).find((panel) => panel.panelId === id);
/** What the window heard, once the batches are out: the panels told anew, and those gone. */
async function told(): Promise<{ panels: PanelServices[]; gone: string[] }> {
  await core.flush();
  const changes = events.flatMap((event) => (event.type === 'fleetServicesChanged' ? [event] : []));
  return { panels: changes.flatMap((change) => change.panels), gone: changes.flatMap((change) => change.gone) };
}

describe('the fleet services', () => {
  test('after a check in three generations: every service with its type, state and replicas, as the Services tab reads them; no request of its own', async () => {
    assert.deepEqual(await core.getFleetServices(), [], 'nothing until the first check');
    await core.checkPanels();
    const requestsBefore = members.map(({ panel }) => panel.requests.length);
    const fleet = await core.getFleetServices();
    assert.deepEqual(
      members.map(({ panel }) => panel.requests.length),
      requestsBefore,
      'getFleetServices asks no panel',
    );
    assert.deepEqual(
      fleet.map(({ panelId }) => panelId),
      members.map(({ id }) => id),
      'in the order of the panel list',
    );
    for (const { id, panel } of members) {
      const panelServices = fleet.find((one) => one.panelId === id);
      assert.deepEqual(statesOf(panelServices), DEMO_STATES, panel.style);
      assert.equal(panelServices?.problem, null);
      assert.equal(panelServices?.truncated, false);
      assert.ok(Date.parse(panelServices?.readAt ?? '') > 0);
      const tab = await core.listServices(id);
      assert.deepEqual(
        panelServices?.services,
        tab.services.map((summary) => ({ ...summary, cpuPercent: null, memoryMb: null })),
        `${panel.style}: the same services, types, states and replicas as listServices`,
      );
    }
    assert.deepEqual(new Set((await told()).panels.map(({ panelId }) => panelId)), new Set(members.map(({ id }) => id)));
  });

  test('a crashed service shows down at the next check; a service added shows from listServices without a check', async () => {
    const [, , member] = members;
    assert.ok(member);
    await core.checkPanels([member.id]);
    member.panel.services.crashService('shop', 'web');
    // What earlier reads sent is out before the events are looked at afresh.
    await core.flush();
    events.length = 0;
    await core.checkPanels([member.id]);
    const web = (await kept(member.id))?.services.find(({ projectName, name }) => projectName === 'shop' && name === 'web');
    assert.deepEqual([web?.type, web?.state, web?.replicas], ['app', 'down', { actual: 0, desired: 1 }]);
    assert.equal(
      (await told()).panels.find(({ panelId }) => panelId === member.id)?.services.filter(({ state }) => state === 'down').length,
      3,
    );
    member.panel.services.addService({ projectName: 'shop', name: 'worker', type: 'app' });
    await core.listServices(member.id);
    const worker = (await kept(member.id))?.services.find(({ name }) => name === 'worker');
    assert.deepEqual([worker?.type, worker?.state], ['app', 'running']);
  });

  test('a task stats read that fails keeps the services last read and says why', async () => {
    const [member] = members;
    assert.ok(member);
    await core.checkPanels([member.id]);
    const before = await kept(member.id);
    member.panel.setFault('getDockerTaskStats', { kind: 'server-error' });
    await core.checkPanels([member.id]);
    const after = await kept(member.id);
    assert.deepEqual(after?.services, before?.services);
    assert.equal(after?.readAt, before?.readAt);
    assert.ok(after?.problem);
    assert.ok(Date.parse(after.problem.at) >= Date.parse(before?.readAt ?? ''));
  });

  test('gone when the panel is removed, signed out, refused (401) or moved; never shown while signed out', async () => {
    await core.checkPanels();
    const [removed, loggedOut, refused] = members;
    assert.ok(removed && loggedOut && refused);
    await core.removePanel(removed.id);
    await core.logOut(loggedOut.id);
    refused.panel.expireAllTokens();
    await core.checkPanels([refused.id]);
    assert.deepEqual(await core.getFleetServices(), []);
    assert.deepEqual(new Set((await told()).gone), new Set([removed.id, loggedOut.id, refused.id]));

    // A new address forgets them too (the sign-in was the old address's).
    await core.logIn(refused.id, credentials);
    await core.checkPanels([refused.id]);
    assert.ok(await kept(refused.id));
    // What earlier reads sent is out before the events are looked at afresh.
    await core.flush();
    events.length = 0;
    const other = await startReferencePanel({ style: 'public', demoProjects: 1 });
    members.push({ id: refused.id, panel: other });
    await core.updatePanel(refused.id, { address: other.url });
    assert.equal(await kept(refused.id), undefined);
    assert.deepEqual((await told()).gone, [refused.id]);
  });
});
