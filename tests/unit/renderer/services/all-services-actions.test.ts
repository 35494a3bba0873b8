import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServiceActionItemResult } from '../../../../shared/fleet-services.ts';
import { actionItems, endedCount, runSummary } from '../../../../renderer/services/all-services-actions.ts';
import type { FleetServiceRow } from '../../../../renderer/services/all-services-rows.ts';
import { planServiceAction } from '../../../../renderer/services/service-action-plan.ts';
import {
  resultStates,
  type ServiceActionState,
  type ServiceRun,
  serviceActionKey,
} from '../../../../renderer/window/service-action-store.ts';

const keyOf = ({ panelId, projectName, serviceName }: { panelId: string; projectName: string; serviceName: string }) =>
  serviceActionKey(panelId, projectName, serviceName);

/** An action across panels: the items asked of main, progress and the summary (main's confirmation shows the plan). */

const row = (panel: string, name: string, type = 'app', colour: FleetServiceRow['panelColour'] = null): FleetServiceRow => ({
  key: `${panel}/shop/${name}`,
  panelId: panel,
  panelName: `Panel ${panel}`,
  panelColour: colour,
  panelGroup: null,
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

test('the items asked of main across panels: those with the action, in the table order; those without are not asked', () => {
  const rows = [row('a', 'web', 'app', 'red'), row('b', 'web'), row('a', 'db', 'postgres', 'red'), row('b', 'files', 'box')];
  const plan = planServiceAction(rows, 'restart', none);
  assert.deepEqual(actionItems(plan.acting), [
    { panelId: 'a', projectName: 'shop', serviceName: 'web' },
    { panelId: 'b', projectName: 'shop', serviceName: 'web' },
  ]);
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
  const items = results.map(({ panelId, projectName, serviceName }) => ({ panelId, projectName, serviceName }));
  const run: ServiceRun = { from: 'fleet', action: 'restart', items, keys: items.map(keyOf), results: null, cancelling: false };
  const panelName = (id: string) => `Panel ${id}`;
  assert.equal(runSummary(run, states, panelName), null);
  const { text, failed } = runSummary({ ...run, results }, states, panelName)!;
  assert.equal(failed, true);
  assert.match(text, /^Restart of 4 services on 3 panels: 1 done, 1 failed, 1 with the outcome unknown, 1 cancelled before being sent\./);
  assert.match(text, /Panel b: shop\/web failed: Service not found/);
  assert.match(text, /Outcome unknown for Panel c: shop\/web: No answer in time\./);
  // The summary is of the states the rows say, never of the results beside them: a row under way is not counted done.
  states.set('a/shop/web', { action: 'restart', phase: 'sent', message: null });
  assert.match(
    runSummary({ ...run, results }, states, panelName)!.text,
    /: 0 done, 1 failed, 1 with the outcome unknown, 1 cancelled before being sent, 1 not ended\./,
  );
});
