import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionsOfType, missingActionReason } from '../../../../shared/service-actions.ts';
import type { ServiceSummary } from '../../../../shared/services.ts';
import {
  actionSummary,
  oneServiceItems,
  phaseText,
  planServiceAction,
  severalServicesItems,
  planEveryAction,
  leftOutText,
} from '../../../../renderer/services/service-action-plan.ts';
import {
  selectedServices,
  serviceKey,
  shownSelection,
  toggled,
  withRange,
  withShown,
} from '../../../../renderer/services/service-selection.ts';
import { serviceActionKey, type ServiceActionState } from '../../../../renderer/window/service-action-store.ts';

/** What an action on one service or a selection will do before it is asked, and the selection itself. */

const service = (name: string, type: string): ServiceSummary => ({
  projectName: 'shop',
  name,
  type,
  state: 'running',
  replicas: { actual: 1, desired: 1 },
});
const web = service('web', 'app');
const stack = service('stack', 'compose');
const db = service('db', 'postgres');
const tools = service('tools', 'box');
const none = () => undefined;

test('each type has its own actions: apps and compose all four, databases start and stop, box and wordpress none, each said why', () => {
  assert.deepEqual(actionsOfType('app'), ['deploy', 'start', 'stop', 'restart']);
  assert.deepEqual(actionsOfType('compose'), ['deploy', 'start', 'stop', 'restart']);
  assert.deepEqual(actionsOfType('redis'), ['start', 'stop']);
  assert.deepEqual(actionsOfType('wordpress'), []);
  assert.equal(missingActionReason('app', 'restart'), null);
  assert.equal(missingActionReason('postgres', 'deploy'), 'a postgres database is not deployed, only started and stopped');
  assert.equal(missingActionReason('mongo', 'restart'), 'Easypanel has no restart for a mongo database: stop it, then start it');
  assert.equal(missingActionReason('box', 'stop'), 'Paneldeck has no actions for a box service');
});

test('a plan acts on the services that have the action and leaves out, with the reason, those that lack it or are busy', () => {
  const busy: ServiceActionState = { action: 'restart', phase: 'sent', message: null };
  const plan = planServiceAction([web, stack, db, tools], 'deploy', (one) => (one === stack ? busy : undefined));
  assert.deepEqual(plan.acting, [web]);
  assert.deepEqual(
    plan.skipped.map(({ service: one, why }) => `${one.name}: ${why}`),
    [
      'stack: an action is already under way on it',
      'db: a postgres database is not deployed, only started and stopped',
      'tools: Paneldeck has no actions for a box service',
    ],
  );
  assert.deepEqual(planServiceAction([web, db], 'stop', none).acting, [web, db]);
});

test('a service on a read-only panel is offered no action: left out of every plan, its menu says why', () => {
  const readOnly = (one: ServiceSummary) => one === web;
  const plan = planServiceAction([web, stack], 'restart', none, readOnly);
  assert.deepEqual(plan.acting, [stack]);
  assert.deepEqual(
    plan.skipped.map(({ service: one, why }) => `${one.name}: ${why}`),
    ['web: its panel is read-only'],
  );
  assert.ok(planEveryAction([web], none, () => true).every((one) => one.acting.length === 0));
  assert.deepEqual(oneServiceItems(web, undefined, true), [
    { action: null, label: 'No actions: the panel is read-only', disabled: true, danger: false },
  ]);
  assert.ok(oneServiceItems(web, undefined, false).length > 1);
});

test('the services not asked of main are said in the window, grouped by why; more than three counted', () => {
  const busy: ServiceActionState = { action: 'restart', phase: 'sent', message: null };
  assert.equal(leftOutText(planServiceAction([web], 'stop', none).skipped), null);
  const boxes = Array.from({ length: 4 }, (_, n) => service(`files-${n}`, 'box'));
  const plan = planServiceAction([web, stack, db, ...boxes], 'deploy', (one) => (one === stack ? busy : undefined));
  assert.equal(
    leftOutText(plan.skipped),
    'Left out, sent nothing: shop/stack (an action is already under way on it); shop/db (a postgres database is not deployed, only started and stopped); 4 services (Paneldeck has no actions for a box service).',
  );
  assert.equal(
    leftOutText(plan.skipped.slice(0, 1), (one) => `Billing: ${one.name}`),
    'Left out, sent nothing: Billing: stack (an action is already under way on it).',
  );
});

test('the row menu offers the type\u2019s actions (busy: greyed out), a box says it has none; a selection says how many each acts on', () => {
  assert.deepEqual(
    oneServiceItems(db, undefined).map(({ label, disabled }) => `${label}${disabled ? ' (disabled)' : ''}`),
    ['Stop (disable)…'],
  );
  // A running database is not offered Start (enable), a disabled one not Stop (disable); a state not known, both.
  assert.deepEqual(
    oneServiceItems({ ...db, state: 'disabled' }, undefined).map(({ label }) => label),
    ['Start (enable)…'],
  );
  assert.deepEqual(
    oneServiceItems({ ...db, state: 'unknown' }, undefined).map(({ label }) => label),
    ['Start (enable)…', 'Stop (disable)…'],
  );
  assert.deepEqual(oneServiceItems(tools, undefined), [
    { action: null, label: 'No actions for a box service', disabled: true, danger: false },
  ]);
  assert.ok(oneServiceItems(web, { action: 'deploy', phase: 'queued', message: null }).every((item) => item.disabled));
  assert.deepEqual(
    severalServicesItems(planEveryAction([web, db, tools], none)).map(({ label, disabled }) => `${label}${disabled ? ' (disabled)' : ''}`),
    ['Deploy 1 of 3 services…', 'Start 2 of 3 services…', 'Stop 2 of 3 services…', 'Restart 1 of 3 services…'],
  );
  assert.deepEqual(
    severalServicesItems(planEveryAction([tools, service('site', 'wordpress')], none)).map(({ disabled }) => disabled),
    [true, true, true, true],
  );
});

test('each phase in a row and the panel\u2019s actions in one line', () => {
  assert.equal(phaseText({ action: 'deploy', phase: 'sent', message: null }), 'Deploying');
  assert.equal(phaseText({ action: 'stop', phase: 'sent', message: null }), 'Stop under way');
  assert.equal(phaseText({ action: 'stop', phase: 'queued', message: null }), 'Stop waiting');
  assert.equal(phaseText({ action: 'restart', phase: 'unknown', message: 'no answer' }), 'Restart outcome unknown');
  const actions = new Map<string, ServiceActionState>([
    [serviceActionKey('p1', 'shop', 'web'), { action: 'deploy', phase: 'sent', message: null }],
    [serviceActionKey('p1', 'shop', 'api'), { action: 'deploy', phase: 'failed', message: 'npm ERR!' }],
    [serviceActionKey('p1', 'shop', 'db'), { action: 'stop', phase: 'done', message: null }],
    [serviceActionKey('p2', 'shop', 'web'), { action: 'stop', phase: 'done', message: null }],
  ]);
  assert.equal(actionSummary('p1', actions), 'Service actions: 1 deploying, 1 done, 1 failed');
  assert.equal(actionSummary('p3', actions), '');
});

test('the selection: toggle, a range either way, every row shown in or out, and those gone since a refresh drop out', () => {
  const rows = [db, stack, tools, web];
  const one = toggled(new Set(), serviceKey(web));
  assert.deepEqual([...one], ['shop/web']);
  assert.deepEqual([...toggled(one, 'shop/web')], []);
  assert.deepEqual([...withRange(new Set(), rows, 2, 0)].sort(), ['shop/db', 'shop/stack', 'shop/tools']);
  assert.equal(shownSelection(one, rows), 'some');
  assert.equal(shownSelection(withShown(one, rows, true), rows), 'all');
  assert.equal(shownSelection(withShown(withShown(one, rows, true), rows, false), rows), 'none');
  assert.deepEqual(selectedServices([db, web], new Set(['shop/web', 'shop/gone'])), [web]);
});
