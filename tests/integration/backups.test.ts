import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { BackupRunItem, PanelBackups } from '../../shared/backups.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { WritePlan } from '../../shared/write-plan.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import type { PanelStyle } from '../support/reference-panel/types.ts';
import { coreWithEvents, EASYPANEL_GENERATIONS, onlyServices } from '../support/signed-in-core.ts';

/**
 * `listBackups` and `runBackups` against reference panels of the three Easypanel generations over
 * loopback HTTP, with a real data folder: the schedules and their last runs, the unprotected
 * databases, a panel's problem while the others read, a garbage answer, the bound on panels read
 * at once (measured at the servers), the day's read kept across a restart; one confirmation for a
 * run, each schedule run exactly once (counted at the panel), a lost answer, a sign-in ended
 * between plan and send, a cancel, the activity log; the alerts raised once and resolved.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const DAY = 24 * 60 * 60 * 1000;

let dir: Awaited<ReturnType<typeof tempDir>>;
let core: Core;
let events: PanelEvent[];
const plans: WritePlan[] = [];
let answer: (plan: WritePlan) => boolean | Promise<boolean> = () => true;
let clock = Date.now();
/** One key for both cores of the restart: the second reads the first's tokens. */
const encryption = testEncryption();
/** Told of each request a fleet panel receives (the cancel waits for its runs in flight). */
let onArrive: (path: string, phase: string) => void = () => undefined;
const panels = new Map<string, { id: string; panel: ReferencePanel }>();

/** The panel seeded alike in each generation: a protected postgres whose last run failed, a disabled redis, an unscheduled mongo, an app with a volume backup. */
function seed(panel: ReferencePanel): void {
  onlyServices(
    panel,
    { projectName: 'shop', name: 'db', type: 'postgres' },
    { projectName: 'shop', name: 'cache', type: 'redis' },
    { projectName: 'shop', name: 'docs', type: 'mongo' },
    { projectName: 'shop', name: 'web', type: 'app' },
  );
  const db = panel.backups.addSchedule('database', 'shop', 'db', { id: 'db-nightly' });
  panel.backups.addSchedule('database', 'shop', 'cache', { id: 'cache-off', enabled: false });
  const volume = panel.backups.addSchedule('volume', 'shop', 'web', { id: 'web-data', schedule: '0 4 * * *' });
  panel.backups.recordRun(db, 'done');
  panel.backups.recordRun(db, 'error');
  panel.backups.recordRun(volume, 'done');
  panel.requests.splice(0);
}

async function addPanel(name: string, style: Exclude<PanelStyle, 'simple'>, options: Parameters<typeof startReferencePanel>[0] = {}) {
  const panel = await startReferencePanel({ style, ...options });
  seed(panel);
  const { id } = await core.addPanel({ address: panel.url, name });
  await core.logIn(id, credentials);
  panel.requests.splice(0);
  panels.set(name, { id, panel });
  return { id, panel };
}

const of = (list: PanelBackups[], name: string) => list.find((one) => one.panelId === panels.get(name)!.id)!;
const counted = (panel: ReferencePanel, pattern: RegExp) => panel.requests.filter(({ path }) => pattern.test(path)).length;

before(async () => {
  dir = await tempDir();
  ({ core, events } = coreWithEvents(dir.path, {
    encryption,
    now: () => new Date(clock),
    confirmWrite: async (plan) => {
      plans.push(plan);
      return answer(plan);
    },
  }));
  for (const style of EASYPANEL_GENERATIONS) await addPanel(style, style);
  await addPanel('garbage', 'public');
  await addPanel('without', 'rpc', { withoutOperations: ['databaseBackups/listDatabaseBackups', 'databaseBackups/runDatabaseBackup'] });
});
after(async () => {
  await Promise.all([...panels.values()].map(({ panel }) => panel.close()));
  await dir?.cleanup();
});

describe('listBackups', () => {
  let list: PanelBackups[];
  before(async () => {
    panels.get('garbage')!.panel.backups.setRawAnswer('listDatabaseBackups', { backups: 'none' });
    list = await core.listBackups();
  });

  test('each generation: the schedules with their last runs, and the databases without an enabled schedule named', () => {
    for (const style of EASYPANEL_GENERATIONS) {
      const panel = of(list, style);
      assert.equal(panel.problem, null, style);
      const schedules = panel.backups.map(
        (one) => `${one.kind} ${one.id} ${one.serviceName} ${one.enabled} ${one.lastRun?.status ?? 'never'}`,
      );
      assert.deepEqual(
        schedules.sort(),
        ['database cache-off cache false never', 'database db-nightly db true error', 'volume web-data web true done'],
        style,
      );
      assert.deepEqual(panel.unprotected.map((one) => `${one.projectName}/${one.serviceName}`).sort(), ['shop/cache', 'shop/docs'], style);
      assert.ok(panel.readAt !== null && Date.parse(panel.readAt) === clock, style);
    }
  });

  test('a panel answering garbage has a problem, never "no backups"; one whose catalogue lacks them says so; the others read', () => {
    const garbage = of(list, 'garbage');
    assert.match(garbage.problem ?? '', /could not be read/);
    assert.deepEqual(garbage.backups, []);
    const without = of(list, 'without');
    assert.equal(without.problem, "This panel's Easypanel has no database backups.");
    assert.equal(counted(panels.get('without')!.panel, /listDatabaseBackups/), 0, 'nothing asked of a panel without them');
    assert.equal(of(list, 'public').problem, null);
  });

  test('read at most daily: asked again, nothing is sent; refresh or a day later reads again', async () => {
    const { panel } = panels.get('public')!;
    const before = counted(panel, /listProjectsAndServices/);
    await core.listBackups();
    assert.equal(counted(panel, /listProjectsAndServices/), before);
    await core.listBackups({ refresh: true });
    assert.equal(counted(panel, /listProjectsAndServices/), before + 1);
    clock += DAY + 1;
    await core.listBackups();
    assert.equal(counted(panel, /listProjectsAndServices/), before + 2);
  });

  test('a panel that fails keeps its last good read with its problem; a later read clears it', async () => {
    const { panel } = panels.get('trpc')!;
    panel.setFault('listProjectsAndServices', { kind: 'server-error' });
    const failed = of(await core.listBackups({ refresh: true }), 'trpc');
    panel.setFault('listProjectsAndServices', null);
    assert.ok(failed.problem !== null && failed.problem.length > 0);
    assert.equal(failed.backups.length, 3, 'the last good read is kept');
    assert.equal(of(await core.listBackups({ refresh: true }), 'trpc').problem, null);
  });

  test('the alerts: a failed last run and each unprotected database raised once, resolved when cleared', async () => {
    const { id, panel } = panels.get('public')!;
    const raised = () => events.flatMap((event) => (event.type === 'alertRaised' && event.alert.panelId === id ? [event.alert] : []));
    assert.deepEqual(
      raised()
        .map((alert) => `${alert.kind} ${alert.service}`)
        .sort(),
      ['backupFailed shop/db', 'noBackup shop/cache', 'noBackup shop/docs'],
    );
    // Read again, still holding: nothing raised twice.
    await core.listBackups({ refresh: true });
    assert.equal(raised().length, 3);
    panel.backups.recordRun(panel.backups.schedules().find((one) => one.id === 'db-nightly')!, 'done');
    panel.backups.addSchedule('database', 'shop', 'docs', { id: 'docs-nightly' });
    await core.listBackups({ refresh: true });
    const resolved = events.flatMap((event) =>
      event.type === 'alertChanged' && event.alert.panelId === id && event.alert.resolvedAt !== null
        ? [`${event.alert.kind} ${event.alert.service}`]
        : [],
    );
    assert.deepEqual(resolved.sort(), ['backupFailed shop/db', 'noBackup shop/docs']);
    const open = (await core.listAlerts()).filter((alert) => alert.panelId === id && alert.resolvedAt === null);
    assert.deepEqual(
      open.map((alert) => alert.kind),
      ['noBackup'],
    );
  });

  test('at most 8 panels read at once, measured at the servers', async () => {
    let inFlight = 0;
    let most = 0;
    const observer = ({ path, phase }: { path: string; phase: string }) => {
      onArrive(path, phase);
      if (!/listProjectsAndServices/.test(path)) return;
      inFlight += phase === 'arrived' ? 1 : -1;
      most = Math.max(most, inFlight);
    };
    for (let index = 0; index < 14; index++) {
      const { panel } = await addPanel(`fleet-${index}`, 'public', { observer });
      panel.setFault('listProjectsAndServices', { kind: 'latency', ms: 80 });
    }
    const list = await core.listBackups({ refresh: true });
    assert.equal(list.filter((one) => one.problem === null).length, list.length - 2, 'all but garbage and without');
    assert.ok(most <= 8 && most >= 2, `${most} at once`);
  });

  test('kept on disk: a core started again on the folder shows the day\u2019s read with no request', async () => {
    const before = [...panels.values()].reduce((sum, { panel }) => sum + panel.requests.length, 0);
    const again = coreWithEvents(dir.path, { encryption, now: () => new Date(clock) }).core;
    const kept = await again.listBackups();
    assert.equal(kept.length, panels.size);
    assert.equal(of(kept, 'rpc').backups.length, 3);
    assert.equal(
      [...panels.values()].reduce((sum, { panel }) => sum + panel.requests.length, 0),
      before,
    );
  });
});

describe('runBackups', () => {
  const item = (name: string, kind: 'database' | 'volume', id: string, serviceName: string): BackupRunItem => ({
    panelId: panels.get(name)!.id,
    kind,
    id,
    projectName: 'shop',
    serviceName,
  });
  const runsAt = (name: string) => panels.get(name)!.panel.backups.runs.length;

  test('one confirmation for the whole run; a no sends nothing', async () => {
    const from = plans.length;
    answer = () => false;
    const items = EASYPANEL_GENERATIONS.map((style) => item(style, 'database', 'db-nightly', 'db'));
    await assert.rejects(core.runBackups(items), { code: 'NOT_CONFIRMED' });
    answer = () => true;
    assert.equal(plans.length, from + 1);
    assert.equal(plans.at(-1)!.panels.length, 3);
    for (const style of EASYPANEL_GENERATIONS) assert.equal(runsAt(style), 0, style);
  });

  test('each item sent exactly once, counted at the panel; done, with activity entries holding no token', async () => {
    const items = EASYPANEL_GENERATIONS.flatMap((style) => [
      item(style, 'database', 'db-nightly', 'db'),
      item(style, 'volume', 'web-data', 'web'),
    ]);
    const from = plans.length;
    const results = await core.runBackups(items);
    assert.equal(plans.length, from + 1);
    assert.deepEqual(
      results.map((result) => result.outcome),
      items.map(() => 'done'),
    );
    for (const style of EASYPANEL_GENERATIONS) {
      assert.deepEqual(
        panels
          .get(style)!
          .panel.backups.runs.map((run) => run.id)
          .sort(),
        ['db-nightly', 'web-data'],
        style,
      );
    }
    const entries = (await core.listActivity()).entries.filter((entry) => entry.what.action === 'runBackup');
    assert.equal(entries.length, 6);
    const tokens = [...panels.values()].flatMap(({ panel }) => panel.issuedTokens());
    const text = JSON.stringify(entries);
    for (const token of tokens) assert.ok(!text.includes(token), 'a token in the activity log');
  });

  test('a lost answer is unknown, never failed, and is not sent again; a failed run says so', async () => {
    const { panel } = panels.get('rpc')!;
    panel.serviceActions.loseNextAnswer('runDatabaseBackup');
    panel.backups.failRuns('web-data', 'The storage provider refused the upload');
    const before = panel.backups.runs.length;
    const [lost, failed] = await core.runBackups([item('rpc', 'database', 'db-nightly', 'db'), item('rpc', 'volume', 'web-data', 'web')]);
    panel.backups.failRuns('web-data', null);
    assert.equal(lost!.outcome, 'unknown');
    assert.doesNotMatch(lost!.message ?? '', /try again|retry/i);
    assert.equal(failed!.outcome, 'failed');
    assert.match(failed!.message ?? '', /storage provider refused/);
    assert.equal(panel.backups.runs.length, before + 2, 'each once');
  });

  test('a panel signed out between the plan and the send gets nothing', async () => {
    const { id, panel } = panels.get('trpc')!;
    const before = panel.backups.runs.length;
    answer = async () => {
      await core.logOut(id);
      return true;
    };
    const [result] = await core.runBackups([item('trpc', 'database', 'db-nightly', 'db')]);
    answer = () => true;
    assert.equal(result!.outcome, 'failed');
    assert.match(result!.message ?? '', /Not sent/);
    assert.equal(panel.backups.runs.length, before);
    await core.logIn(id, credentials);
  });

  test('at most 2 runs at once on one panel', async () => {
    const { panel } = panels.get('fleet-10')!;
    const ids = ['r1', 'r2', 'r3', 'r4', 'r5'];
    for (const id of ids) panel.backups.addSchedule('database', 'shop', 'db', { id });
    panel.setFault('runDatabaseBackup', { kind: 'latency', ms: 60 });
    let inFlight = 0;
    let most = 0;
    onArrive = (path, phase) => {
      if (!/runDatabaseBackup/.test(path)) return;
      inFlight += phase === 'arrived' ? 1 : -1;
      most = Math.max(most, inFlight);
    };
    const results = await core.runBackups(ids.map((id) => item('fleet-10', 'database', id, 'db')));
    onArrive = () => undefined;
    panel.setFault('runDatabaseBackup', null);
    assert.deepEqual(
      results.map((result) => result.outcome),
      ids.map(() => 'done'),
    );
    assert.equal(most, 2);
  });

  test('cancelled right after the confirmation: nothing is sent, every item cancelled', async () => {
    const before = runsAt('public');
    answer = async () => {
      await core.cancelBackups();
      return true;
    };
    const results = await core.runBackups([item('public', 'database', 'db-nightly', 'db')]);
    answer = () => true;
    assert.deepEqual(
      results.map((result) => result.outcome),
      ['cancelled'],
    );
    assert.equal(runsAt('public'), before);
  });

  test('cancelBackups during a run: the 8 in flight finish, the rest are never sent', async () => {
    const names = Array.from({ length: 10 }, (_, index) => `fleet-${index}`);
    for (const name of names) panels.get(name)!.panel.setFault('runDatabaseBackup', { kind: 'latency', ms: 400 });
    let arrived = 0;
    const eight = new Promise<void>((resolve) => {
      onArrive = (path, phase) => {
        if (phase === 'arrived' && /runDatabaseBackup/.test(path) && ++arrived === 8) resolve();
      };
    });
    const running = core.runBackups(names.map((name) => item(name, 'database', 'db-nightly', 'db')));
    await eight;
    await core.cancelBackups();
    const results = await running;
    onArrive = () => undefined;
    for (const name of names) panels.get(name)!.panel.setFault('runDatabaseBackup', null);
    assert.deepEqual(results.map((result) => result.outcome).sort(), [...Array(8).fill('done'), 'cancelled', 'cancelled'].sort());
    assert.equal(
      names.reduce((sum, name) => sum + runsAt(name), 0),
      8,
      'the cancelled ones never reached a panel',
    );
    assert.equal(arrived, 8);
  });
});
