import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServiceActionItemResult } from '../../../../shared/fleet-services.ts';
import { ServiceActionStore, serviceActionKey } from '../../../../renderer/window/service-action-store.ts';

/** The run main holds, as the window knows it: one at a time, ended once, by main's answer or its event. */

const item = (panelId: string, serviceName: string) => ({ panelId, projectName: 'shop', serviceName });
const done = (panelId: string, serviceName: string, action: ServiceActionItemResult['action'] = 'restart'): ServiceActionItemResult => ({
  ...item(panelId, serviceName),
  action,
  outcome: 'done',
  message: null,
});
const phase = (store: ServiceActionStore, panelId: string, serviceName: string) =>
  store.getSnapshot().states.get(serviceActionKey(panelId, 'shop', serviceName))?.phase;

test('a run queues its items at once and ends once, whichever of the answer and the event comes first', () => {
  const store = new ServiceActionStore();
  const run = store.startRun({ panelId: 'p' }, 'restart', [item('p', 'web'), item('p', 'api')]);
  assert.equal(store.getSnapshot().run, run);
  assert.equal(store.running(), true);
  assert.deepEqual([phase(store, 'p', 'web'), phase(store, 'p', 'api')], ['queued', 'queued']);
  const results = [done('p', 'web'), { ...done('p', 'api'), outcome: 'cancelled' as const, message: 'Not sent.' }];
  store.endRun(results);
  const ended = store.getSnapshot().run;
  assert.deepEqual(ended?.results, results);
  assert.deepEqual([phase(store, 'p', 'web'), phase(store, 'p', 'api')], ['done', 'cancelled']);
  store.endRun(results, run);
  assert.equal(store.getSnapshot().run, ended, 'the answer after the event changes nothing');
});

test('a late answer to an older run never ends a newer run of the same services', () => {
  const store = new ServiceActionStore();
  const first = store.startRun({ panelId: 'p' }, 'stop', [item('p', 'web')]);
  store.endRun([done('p', 'web', 'stop')]);
  store.dismissRun();
  const second = store.startRun({ panelId: 'p' }, 'restart', [item('p', 'web')]);
  store.endRun([done('p', 'web', 'stop')], first);
  assert.equal(store.getSnapshot().run, second);
  assert.equal(store.getSnapshot().run?.results, null);
  assert.equal(phase(store, 'p', 'web'), 'queued');
  // Nor do results of other items (a run the window does not know).
  store.endRun([done('q', 'web')]);
  assert.equal(store.getSnapshot().run?.results, null);
});

test('while a run is under way another start leaves it in view; the refused one says why on its rows', () => {
  const store = new ServiceActionStore();
  const running = store.startRun('fleet', 'deploy', [item('p', 'web'), item('q', 'web')]);
  const refused = store.startRun({ panelId: 'p' }, 'restart', [item('p', 'api')]);
  assert.equal(store.getSnapshot().run, running);
  store.refuseRun(refused, 'Paneldeck is already running an action on several services.');
  assert.equal(store.getSnapshot().run, running);
  assert.deepEqual(store.getSnapshot().states.get(serviceActionKey('p', 'shop', 'api')), {
    action: 'restart',
    phase: 'cancelled',
    message: 'Paneldeck is already running an action on several services.',
  });
  store.cancelling();
  assert.equal(store.getSnapshot().run?.cancelling, true);
  store.dismissRun();
  assert.equal(store.getSnapshot().run?.action, 'deploy', 'a run under way is not put away');
  // Refused with nothing under way: it is no longer the window's run.
  const alone = new ServiceActionStore();
  const gone = alone.startRun('fleet', 'stop', [item('p', 'web')]);
  alone.refuseRun(gone, 'Nothing was sent: a panel of the services chosen is no longer in the list (removed since?).');
  assert.equal(alone.getSnapshot().run, null);
});

test('the run main holds is taken up at start: its phases, and whose it is by its panels', () => {
  const store = new ServiceActionStore();
  store.adoptRun({
    action: 'deploy',
    items: [
      { ...item('p', 'web'), phase: 'sent', message: null },
      { ...item('p', 'api'), phase: 'failed', message: 'npm ERR!' },
      { ...item('p', 'db'), phase: 'queued', message: null },
    ],
    cancelling: true,
  });
  const run = store.getSnapshot().run;
  assert.deepEqual(run?.from, { panelId: 'p' });
  assert.equal(run?.cancelling, true);
  assert.deepEqual(
    ['web', 'api', 'db'].map((name) => phase(store, 'p', name)),
    ['sent', 'failed', 'queued'],
  );
  const fleet = new ServiceActionStore();
  fleet.adoptRun({
    action: 'stop',
    items: [
      { ...item('p', 'web'), phase: 'queued', message: null },
      { ...item('q', 'web'), phase: 'queued', message: null },
    ],
    cancelling: false,
  });
  assert.equal(fleet.getSnapshot().run?.from, 'fleet');
  // One started here before main answered is newer: it stays.
  const early = new ServiceActionStore();
  const started = early.startRun('fleet', 'restart', [item('p', 'api')]);
  early.adoptRun({ action: 'deploy', items: [{ ...item('p', 'web'), phase: 'sent', message: null }], cancelling: false });
  assert.equal(early.getSnapshot().run, started);
});

test('issue 35: what the window hears late of a run never takes its rows back from where its results put them', () => {
  // A step of the run heard after its results (main's events and answers come by different ways) is older news.
  const store = new ServiceActionStore();
  const run = store.startRun('fleet', 'restart', [item('p', 'web')]);
  store.endRun([done('p', 'web')], run);
  store.serviceActionChanged({ type: 'serviceActionChanged', ...item('p', 'web'), action: 'restart', phase: 'sent', message: null });
  assert.equal(phase(store, 'p', 'web'), 'done');
  // The next run of the service is heard again from its first step.
  store.dismissRun();
  store.startRun('fleet', 'restart', [item('p', 'web')]);
  store.serviceActionChanged({ type: 'serviceActionChanged', ...item('p', 'web'), action: 'restart', phase: 'sent', message: null });
  assert.equal(phase(store, 'p', 'web'), 'sent');

  // A reloaded window: a step heard before main's answer about its run is newer than that answer.
  const reloaded = new ServiceActionStore();
  reloaded.serviceActionChanged({ type: 'serviceActionChanged', ...item('p', 'web'), action: 'restart', phase: 'done', message: null });
  const held = { action: 'restart' as const, cancelling: false };
  reloaded.adoptRun({ ...held, items: [{ ...item('p', 'web'), phase: 'sent', message: null }] });
  assert.equal(phase(reloaded, 'p', 'web'), 'done');
  // The run's end heard before that answer: each item stands as it ended, and no run is left under way.
  const late = new ServiceActionStore();
  late.endRun([done('p', 'web')]);
  late.adoptRun({ ...held, items: [{ ...item('p', 'web'), phase: 'sent', message: null }] });
  assert.equal(phase(late, 'p', 'web'), 'done');
  assert.equal(late.running(), false);
});
