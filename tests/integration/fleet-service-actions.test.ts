import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import { SERVICE_ACTIONS_AT_ONCE, SERVICE_ACTIONS_PER_PANEL } from '../../electron/core/services/all-services.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { ServiceActionItem } from '../../shared/fleet-services.ts';
import { rejectsWith, tempDir, waitUntil, writesOnly } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, type RequestEvent, startReferencePanel } from '../support/reference-panel/server.ts';
import { EASYPANEL_GENERATIONS, onlyServices, coreWithEvents } from '../support/signed-in-core.ts';

/**
 * `runServiceActions` against reference panels of the three Easypanel generations over loopback,
 * with real files. Items are kept in flight by the panels' own hold on deploys, never by sleeps:
 * every assertion is about what the servers counted, what was recorded and the order things
 * ended in, never about wall-clock time.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const APPS = ['web', 'api', 'worker', 'admin'] as const;

/** Requests in flight at every panel (and at each), as the servers see them. */
class ServerLoad {
  inFlight = 0;
  peak = 0;
  readonly byPanel = new Map<string, { inFlight: number; peak: number }>();
  observer(name: string): (event: RequestEvent) => void {
    const own = { inFlight: 0, peak: 0 };
    this.byPanel.set(name, own);
    return (event) => {
      const step = event.phase === 'arrived' ? 1 : -1;
      this.inFlight += step;
      own.inFlight += step;
      this.peak = Math.max(this.peak, this.inFlight);
      own.peak = Math.max(own.peak, own.inFlight);
    };
  }
}

interface Member {
  id: string;
  name: string;
  panel: ReferencePanel;
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let events: PanelEvent[];
let load: ServerLoad;
let members: Member[];
beforeEach(async () => {
  dir = await tempDir();
  ({ core, events } = coreWithEvents(dir.path));
  load = new ServerLoad();
  members = [];
});
afterEach(async () => {
  await Promise.all(members.map(({ panel }) => panel.close()));
  await dir.cleanup();
});

/** `count` panels, the three generations in turn, each with the four apps and a postgres in project shop, signed in. */
async function fleet(count: number): Promise<Member[]> {
  for (let index = 0; index < count; index++) {
    const name = `Panel ${index}`;
    const panel = await startReferencePanel({ style: EASYPANEL_GENERATIONS[index % 3], observer: load.observer(name) });
    const { id } = await core.addPanel({ address: panel.url, name });
    await core.logIn(id, credentials);
    onlyServices(panel, ...APPS.map((app) => ({ projectName: 'shop', name: app, type: 'app' as const })), {
      projectName: 'shop',
      name: 'db',
      type: 'postgres',
    });
    panel.serviceActions.setDeployTime(0);
    members.push({ id, name, panel });
  }
  return members;
}

const item = (member: Member, serviceName: string): ServiceActionItem => ({ panelId: member.id, projectName: 'shop', serviceName });
/** The write requests of `verb` the panel saw (any generation's path). */
const writes = (panel: ReferencePanel, verb: string) =>
  panel.requests.filter((request) => new RegExp(`${verb}(App|Postgres)?Service$`, 'i').test(request.path)).length;
const listReads = (panel: ReferencePanel) => panel.requests.filter((request) => request.path.includes('listProjectsAndServices')).length;
const deploysArrived = () => members.reduce((sum, { panel }) => sum + writes(panel, 'deploy'), 0);
/** `panel service phase` of each serviceActionChanged event, in the order sent. */
const phases = () =>
  events.flatMap((event) => {
    if (event.type !== 'serviceActionChanged') return [];
    const member = members.find(({ id }) => id === event.panelId);
    return [`${member?.name} ${event.serviceName} ${event.phase}`];
  });

describe('actions across panels', () => {
  test(`the bound as the panels count it: ${SERVICE_ACTIONS_AT_ONCE} in flight over the run, ${SERVICE_ACTIONS_PER_PANEL} per panel, each panel's list read once`, async () => {
    await fleet(6);
    const releases = members.map(({ panel }) => panel.serviceActions.holdDeploys());
    load.peak = load.inFlight;
    const asked = members.flatMap((member) => APPS.map((app) => item(member, app)));
    const run = core.runServiceActions(asked, 'deploy');
    await waitUntil(() => deploysArrived() === SERVICE_ACTIONS_AT_ONCE, 10_000);
    assert.equal(load.inFlight, SERVICE_ACTIONS_AT_ONCE, 'every slot holds a deploy the panel has not answered');
    for (const release of releases) release();
    const results = await run;
    assert.deepEqual(
      results.map(({ panelId, serviceName, outcome }) => [panelId, serviceName, outcome]),
      asked.map(({ panelId, serviceName }) => [panelId, serviceName, 'done']),
      'one result per item, in the order asked',
    );
    assert.equal(load.peak, SERVICE_ACTIONS_AT_ONCE);
    for (const { name, panel } of members) {
      assert.equal(load.byPanel.get(name)?.peak, SERVICE_ACTIONS_PER_PANEL, name);
      assert.equal(listReads(panel), 1, `${name}: its services read once for the run`);
      assert.equal(writes(panel, 'deploy'), APPS.length, `${name}: each deploy sent once`);
    }
  });

  test('a restart across twelve panels in three generations from one call: each reported, each in the activity log', async () => {
    await fleet(12);
    const asked = members.map((member) => item(member, 'web'));
    const results = await core.runServiceActions(asked, 'restart');
    assert.deepEqual(
      results.map(({ outcome, message, action }) => [outcome, message, action]),
      members.map(() => ['done', null, 'restart']),
    );
    const entries = writesOnly((await core.listActivity()).entries);
    assert.equal(entries.length, 12);
    for (const member of members) {
      assert.equal(writes(member.panel, 'restart'), 1, member.name);
      const entry = entries.find((one) => one.panelId === member.id);
      assert.deepEqual([entry?.what.action, entry?.what.serviceName, entry?.outcome], ['restart', 'web', 'ok']);
      assert.deepEqual(
        phases().filter((phase) => phase.startsWith(`${member.name} `)),
        [`${member.name} web sent`, `${member.name} web done`],
      );
    }
  });

  test('a cancelled run starts nothing more: what was sent finishes and is recorded, the rest answers cancelled, unrecorded', async () => {
    await fleet(6);
    const releases = members.map(({ panel }) => panel.serviceActions.holdDeploys());
    const asked = members.flatMap((member) => APPS.map((app) => item(member, app)));
    const run = core.runServiceActions(asked, 'deploy');
    await waitUntil(() => deploysArrived() === SERVICE_ACTIONS_AT_ONCE, 10_000);
    await core.cancelServiceActions();
    for (const release of releases) release();
    const results = await run;
    assert.equal(deploysArrived(), SERVICE_ACTIONS_AT_ONCE, 'nothing was sent after the cancel');
    const done = results.filter((result) => result.outcome === 'done');
    const cancelled = results.filter((result) => result.outcome === 'cancelled');
    assert.equal(done.length, SERVICE_ACTIONS_AT_ONCE);
    assert.equal(cancelled.length, asked.length - SERVICE_ACTIONS_AT_ONCE);
    for (const result of cancelled) assert.match(result.message ?? '', /cancelled before this service was reached/);
    const entries = writesOnly((await core.listActivity()).entries);
    assert.deepEqual(
      entries.map((entry) => `${entry.panelId} ${entry.what.serviceName} ${entry.outcome}`).sort(),
      done.map((result) => `${result.panelId} ${result.serviceName} ok`).sort(),
      'the activity log holds what ran, and only that',
    );
    // A new run may start once the cancelled one has answered.
    assert.equal((await core.runServiceActions([item(members[0]!, 'web')], 'restart'))[0]?.outcome, 'done');
  });

  test("one panel's slow or hostile answers hold back no other panel's items", async () => {
    const [slow, hostile, ...others] = await fleet(6);
    assert.ok(slow && hostile);
    const releaseSlow = slow.panel.serviceActions.holdDeploys();
    hostile.panel.setFault('listProjectsAndServices', { kind: 'huge-body', bytes: 6 * 1024 * 1024 });
    const asked = [slow, hostile, ...others].flatMap((member) => APPS.slice(0, 3).map((app) => item(member, app)));
    const run = core.runServiceActions(asked, 'deploy');
    // Every other panel's deploys end while the slow panel's first two are still held at the panel.
    await waitUntil(
      () => others.every(({ name }) => phases().filter((phase) => phase.startsWith(`${name} `) && phase.endsWith(' done')).length === 3),
      10_000,
    );
    assert.equal(writes(slow.panel, 'deploy'), SERVICE_ACTIONS_PER_PANEL, 'the slow panel holds two slots, no more');
    assert.ok(!phases().some((phase) => phase.startsWith(`${slow.name} `) && phase.endsWith(' done')));
    releaseSlow();
    const results = await run;
    const outcomeOf = (member: Member) => results.filter(({ panelId }) => panelId === member.id).map(({ outcome }) => outcome);
    assert.deepEqual(outcomeOf(slow), ['done', 'done', 'done']);
    assert.deepEqual(outcomeOf(hostile), ['failed', 'failed', 'failed']);
    for (const result of results.filter(({ panelId }) => panelId === hostile.id))
      assert.match(result.message ?? '', /Not sent: the panel's services could not be read/);
    assert.equal(writes(hostile.panel, 'deploy'), 0, 'nothing sent to a panel whose services could not be read');
  });

  test('an action a type lacks fails with its reason, unsent; a 401 ends the sign-in and the panel’s items left are not sent', async () => {
    const [refusing, other] = await fleet(2);
    assert.ok(refusing && other);
    refusing.panel.setFault('restartAppService', { kind: 'status', status: 401, body: { message: 'Unauthorized' } });
    const asked = [...APPS.map((app) => item(refusing, app)), item(other, 'db'), item(other, 'web')];
    const results = await core.runServiceActions(asked, 'restart');
    const sentToRefusing = writes(refusing.panel, 'restart');
    assert.ok(sentToRefusing >= 1 && sentToRefusing <= SERVICE_ACTIONS_PER_PANEL, `sent ${sentToRefusing} before the 401 ended it`);
    const refused = results.slice(0, APPS.length);
    assert.ok(refused.every(({ outcome }) => outcome === 'failed'));
    // The ones sent say the panel's refusal; the ones left were never sent: the sign-in they were confirmed under ended.
    assert.equal(
      refused.filter(({ message }) => /Not sent: .* was signed out after you confirmed/.test(message ?? '')).length,
      APPS.length - sentToRefusing,
    );
    const told = (name: string, phase: string) => phases().filter((one) => one.startsWith(`${name} `) && one.endsWith(` ${phase}`)).length;
    assert.equal(told(refusing.name, 'sent'), sentToRefusing);
    assert.equal(told(refusing.name, 'failed'), APPS.length, 'each item told as failed, sent or not: the progress counts it');
    assert.equal((await core.listPanels()).find(({ id }) => id === refusing.id)?.signedIn, false);
    const [db, web] = results.slice(APPS.length);
    assert.equal(db?.outcome, 'failed');
    assert.match(db?.message ?? '', /no restart for a postgres database/);
    assert.equal(writes(other.panel, 'restart'), 1, 'only the app was sent');
    assert.deepEqual([told(other.name, 'sent'), told(other.name, 'failed'), told(other.name, 'done')], [1, 1, 1]);
    assert.equal(web?.outcome, 'done');
  });

  test('invalid items never reach a panel: unknown panel, bad names, duplicates, too many; one run at a time', async () => {
    const [member] = await fleet(1);
    assert.ok(member);
    member.panel.requests.splice(0);
    const valid = item(member, 'web');
    const unknownPanel = { ...valid, panelId: '3f0b1c2a-5d6e-4f70-8a9b-0c1d2e3f4a5b' };
    await rejectsWith(core.runServiceActions([valid, unknownPanel], 'restart'), 'INVALID_INPUT', /no longer in the list/);
    await rejectsWith(core.runServiceActions([{ ...valid, serviceName: '../web' }], 'restart'), 'INVALID_INPUT');
    await rejectsWith(core.runServiceActions([valid, { ...valid }], 'restart'), 'INVALID_INPUT', /twice/);
    const many = Array.from({ length: 10_001 }, (_, index) => item(member, `s${index}`));
    await rejectsWith(core.runServiceActions(many, 'restart'), 'INVALID_INPUT', /Too many/);
    await rejectsWith(core.runServiceActions([valid], 'remove' as 'restart'), 'INVALID_INPUT');
    assert.deepEqual(member.panel.requests, [], 'no request reached the panel');
    const release = member.panel.serviceActions.holdDeploys();
    const first = core.runServiceActions([valid], 'deploy');
    await rejectsWith(core.runServiceActions([item(member, 'api')], 'restart'), 'INVALID_INPUT', /already running/);
    await waitUntil(() => writes(member.panel, 'deploy') === 1);
    release();
    assert.equal((await first)[0]?.outcome, 'done');
    assert.equal(writes(member.panel, 'restart'), 0);
  });
});
