import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServiceActionItemResult } from '../../../../shared/fleet-services.ts';
import {
  actionItems,
  endedCount,
  fleetEffects,
  fleetOutcomes,
  fleetPlanGroups,
  fleetTypedPhrase,
  panelCount,
} from '../../../../renderer/services/all-services-actions.ts';
import type { FleetServiceRow } from '../../../../renderer/services/all-services-rows.ts';
import { planServiceAction } from '../../../../renderer/services/service-action-plan.ts';
import { resultStates, type ServiceActionState } from '../../../../renderer/window/service-action-store.ts';

/** An action across panels: the plan per panel, the phrase typed for red panels, progress and the summary. */

const row = (panel: string, name: string, type = 'app', colour: FleetServiceRow['panelColour'] = null): FleetServiceRow => ({
  key: `${panel}/shop/${name}`,
  panelId: panel,
  panelName: `Panel ${panel}`,
  panelColour: colour,
  readAt: '2030-01-01T00:00:00.000Z',
  search: '',
  projectName: 'shop',
  name,
  type,
  state: 'running',
  replicas: null,
  cpuPercent: null,
  memoryMb: null,
});
const none = () => undefined;

test('the plan across panels: one group per panel (red said as production), then those left out and why', () => {
  const rows = [row('a', 'web', 'app', 'red'), row('b', 'web'), row('a', 'db', 'postgres', 'red'), row('b', 'files', 'box')];
  const plan = planServiceAction(rows, 'restart', none);
  assert.equal(panelCount(plan.acting), 2);
  assert.deepEqual(
    fleetPlanGroups(plan).map((group) => `${group.heading}: ${group.services.map((one) => one.name).join(', ')}`),
    [
      'Panel a (red: production): web',
      'Panel b: web',
      'Left out, sent nothing: Easypanel has no restart for a postgres database: stop it, then start it: db',
      'Left out, sent nothing: Paneldeck has no actions for a box service: files',
    ],
  );
  assert.deepEqual(fleetEffects(planServiceAction(rows, 'stop', none)), [
    'Its containers stop; it serves nothing until started again',
    'Disabled: the database stops until started again',
  ]);
  assert.deepEqual(actionItems(plan.acting), [
    { panelId: 'a', projectName: 'shop', serviceName: 'web' },
    { panelId: 'b', projectName: 'shop', serviceName: 'web' },
  ]);
});

test('the typed phrase: none without a red panel, the red panel name with one, "restart 12 services" with several', () => {
  const green = Array.from({ length: 3 }, (_, n) => row(`g${n}`, 'web'));
  assert.equal(fleetTypedPhrase(planServiceAction(green, 'stop', none)), null);
  const oneRed = [...green, row('r', 'web', 'app', 'red'), row('r', 'api', 'app', 'red')];
  assert.equal(fleetTypedPhrase(planServiceAction(oneRed, 'restart', none)), 'Panel r');
  const reds = [
    ...Array.from({ length: 10 }, (_, n) => row(`g${n}`, 'web')),
    row('r1', 'web', 'app', 'red'),
    row('r2', 'web', 'app', 'red'),
  ];
  assert.equal(fleetTypedPhrase(planServiceAction(reds, 'restart', none)), 'restart 12 services');
  // A red panel whose services are all left out is not acted on: nothing to type.
  assert.equal(fleetTypedPhrase(planServiceAction([...green, row('r', 'files', 'box', 'red')], 'deploy', none)), null);
});

test('progress counts the ended items of this action; the results become row states; the summary names failures with the panel', () => {
  const results: ServiceActionItemResult[] = [
    { panelId: 'a', projectName: 'shop', serviceName: 'web', action: 'restart', outcome: 'done', message: null },
    { panelId: 'b', projectName: 'shop', serviceName: 'web', action: 'restart', outcome: 'failed', message: 'Service not found' },
    { panelId: 'b', projectName: 'shop', serviceName: 'api', action: 'restart', outcome: 'cancelled', message: null },
    { panelId: 'c', projectName: 'shop', serviceName: 'web', action: 'restart', outcome: 'unknown', message: 'No answer in time.' },
  ];
  const states = new Map<string, ServiceActionState>(resultStates(results));
  assert.deepEqual(states.get('b/shop/api'), { action: 'restart', phase: 'cancelled', message: null });
  states.set('d/shop/web', { action: 'restart', phase: 'sent', message: null });
  states.set('e/shop/web', { action: 'stop', phase: 'done', message: null });
  assert.equal(endedCount(['a/shop/web', 'b/shop/web', 'd/shop/web', 'e/shop/web'], states, 'restart'), 2);
  const { text, failed } = fleetOutcomes('restart', results, (id) => `Panel ${id}`);
  assert.equal(failed, true);
  assert.match(text, /^Restart of 4 services on 3 panels: 1 done, 1 failed, 1 with the outcome unknown, 1 cancelled before being sent\./);
  assert.match(text, /Panel b: shop\/web failed: Service not found/);
  assert.match(text, /Outcome unknown for Panel c: shop\/web: No answer in time\./);
});
