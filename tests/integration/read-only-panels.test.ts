import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { rejectsWith, tempDir } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { coreWithEvents, onlyServices } from '../support/signed-in-core.ts';

/**
 * A panel marked read-only gets no write plan at all, over real HTTP against reference panels: a
 * service action, a deploy's cancel and a console write are refused before anything is asked or
 * sent; runs across panels (service actions, upgrades, backups) leave it out and say why, and its
 * panel receives no write (no read for the upgrade either); reads go on; turned off, it is written
 * to again.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const WRITES = /deploy|restart|update|killAction|runDatabaseBackup|createProject|\/update$/i;

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let plans: WritePlan[];
const panels: { id: string; panel: ReferencePanel }[] = [];
const lookOnly = () => panels[0]!;
const writable = () => panels[1]!;
const writesAt = (panel: ReferencePanel) =>
  panel.requests.filter(({ path, method }) => method !== 'GET' && WRITES.test(path)).map(({ path }) => path);

before(async () => {
  dir = await tempDir();
  ({ core, plans } = coreWithEvents(dir.path, { upgrades: { returnPollMs: 10, returnDeadlineMs: 10_000 } }));
  for (const [name, style] of [
    ['Look only', 'public'],
    ['Writable', 'rpc'],
  ] as const) {
    const panel = await startReferencePanel({
      style,
      updateAvailable: true,
      update: { to: style === 'public' ? '2.36.0' : '2.33.5', awayMs: 10 },
    });
    onlyServices(panel, { projectName: 'shop', name: 'web', type: 'app' }, { projectName: 'shop', name: 'db', type: 'postgres' });
    panel.backups.addSchedule('database', 'shop', 'db', { id: 'nightly' });
    const { id } = await core.addPanel({ address: panel.url, name, readOnly: name === 'Look only' });
    await core.logIn(id, credentials);
    panel.requests.splice(0);
    panels.push({ id, panel });
  }
});
after(async () => {
  await Promise.all(panels.map(({ panel }) => panel.close()));
  await dir.cleanup();
});

const web = { projectName: 'shop', serviceName: 'web' };

test('a write on the read-only panel alone is refused before anything is asked or sent; its reads go on', async () => {
  const { id, panel } = lookOnly();
  const refused = await rejectsWith(core.runServiceAction(id, { ...web, action: 'restart' }), 'READ_ONLY');
  assert.match(refused.message, /Look only is read-only in Paneldeck: no write is planned for it\. Turn read-only off in its Settings/);
  await rejectsWith(core.cancelDeployment(id, 'a1'), 'READ_ONLY');
  const catalogue = await core.getOperations(id);
  const create = catalogue.operations.find((operation) => /createProject$/.test(operation.name))!;
  await rejectsWith(core.callOperation(id, { operation: create.name, input: { name: 'x' } }), 'READ_ONLY');
  assert.equal(plans.length, 0, 'nothing asked');
  assert.deepEqual(writesAt(panel), []);
  // Reads are not writes.
  assert.ok((await core.listServices(id)).services.length > 0);
});

test('runs across panels leave it out and say why: service actions, upgrades, backups', async () => {
  const both = panels.map(({ id }) => id);
  const actions = await core.runServiceActions(
    both.map((panelId) => ({ panelId, ...web })),
    'restart',
  );
  const byPanel = new Map(actions.map((result) => [result.panelId, result]));
  assert.equal(byPanel.get(writable().id)?.outcome, 'done');
  assert.equal(byPanel.get(lookOnly().id)?.outcome, 'failed');
  assert.match(byPanel.get(lookOnly().id)?.message ?? '', /read-only/);
  const actionPlan = plans.at(-1)!;
  assert.deepEqual(
    actionPlan.panels.map((panel) => panel.name),
    ['Writable'],
  );
  assert.match(JSON.stringify(actionPlan.leftOut), /Look only is read-only/);
  // The plan names the account each panel's requests go as, and the activity log keeps it.
  assert.equal(actionPlan.panels[0]?.account, DEMO_USER.email);
  const restart = (await core.listActivity({ panelId: writable().id })).entries.find((entry) => entry.what.action === 'restart');
  assert.equal(restart?.account, DEMO_USER.email);

  const backups = await core.runBackups(
    panels.map(({ id }) => ({ panelId: id, kind: 'database' as const, id: 'nightly', projectName: 'shop', serviceName: 'db' })),
  );
  assert.deepEqual(
    backups.map((result) => result.outcome),
    ['failed', 'done'],
  );
  assert.match(backups[0]!.message ?? '', /read-only/);

  lookOnly().panel.requests.splice(0);
  const upgraded = await core.upgradePanels(both, { canary: 1, waveSize: 5 });
  assert.deepEqual(
    upgraded.map((result) => result.outcome),
    ['skipped', 'upgraded'],
  );
  assert.match(upgraded[0]!.message ?? '', /Left out: Look only is read-only/);
  assert.deepEqual(lookOnly().panel.requests, [], 'not even its version read for the plan');
  assert.deepEqual(writesAt(lookOnly().panel), []);
  assert.ok(writesAt(writable().panel).length >= 3, writesAt(writable().panel).join(', '));
});

test('turned off in its settings, it is written to again', async () => {
  const { id, panel } = lookOnly();
  await core.updatePanel(id, { readOnly: false });
  await core.runServiceAction(id, { ...web, action: 'restart' });
  assert.equal(writesAt(panel).length, 1);
  await core.updatePanel(id, { readOnly: true });
  await rejectsWith(core.runServiceAction(id, { ...web, action: 'restart' }), 'READ_ONLY');
});
