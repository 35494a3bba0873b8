import assert from 'node:assert/strict';
import { test } from 'node:test';
import { panelApiFailure, type PanelApiFailure } from '../../../../shared/contract/bridge.ts';
import type { ServiceActionInput, ServiceActionResult } from '../../../../shared/service-actions.ts';
import { ACTIONS_AT_ONCE, runServiceActions } from '../../../../renderer/services/service-action-run.ts';
import { serviceActionKey } from '../../../../renderer/window/service-action-store.ts';
import { createWindowStores } from '../../../../renderer/window/window-stores.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** A run over a selection: a small bound, each sent once, a failure stops nothing, the outcome said once. */

const panel = samplePanel(1, { name: 'Billing' });
const targets = ['a', 'b', 'c', 'd', 'e'].map((serviceName) => ({ projectName: 'shop', serviceName }));

/** Main as the run sees it: each call held until the test lets it answer. */
function fakeMain(answer: (input: ServiceActionInput) => ServiceActionResult['outcome'] | PanelApiFailure) {
  const calls: string[] = [];
  let running = 0;
  let most = 0;
  const api = {
    runServiceAction: async (panelId: string, input: ServiceActionInput): Promise<ServiceActionResult> => {
      calls.push(input.serviceName);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      const outcome = answer(input);
      if (typeof outcome !== 'string') throw outcome;
      const { projectName, serviceName, action } = input;
      return {
        panelId,
        projectName,
        serviceName,
        action,
        outcome,
        message: outcome === 'unknown' ? 'The panel did not answer in time.' : null,
      };
    },
  };
  return { api, calls, most: () => most };
}

test('several: at most two at a time, each sent once, a failure in the middle does not stop the others; the notice counts and quotes the panel', async () => {
  const main = fakeMain(({ serviceName }) =>
    serviceName === 'b' ? panelApiFailure('BAD_RESPONSE', 'npm ERR! missing script: build') : serviceName === 'd' ? 'unknown' : 'done',
  );
  const store = createWindowStores();
  const seen = new Set<string>();
  store.serviceActionStore.subscribe(() => {
    const state = store.serviceActionStore.getSnapshot().states.get(serviceActionKey(panel.id, 'shop', 'e'));
    if (state) seen.add(state.phase);
  });
  await runServiceActions(main.api, store, panel, 'deploy', targets);
  assert.deepEqual(main.calls, ['a', 'b', 'c', 'd', 'e']);
  assert.equal(main.most(), ACTIONS_AT_ONCE);
  assert.ok(seen.has('queued') && seen.has('done'), 'the last service waited its turn, then ended');
  const phases = targets.map(
    ({ serviceName }) => store.serviceActionStore.getSnapshot().states.get(serviceActionKey(panel.id, 'shop', serviceName))?.phase,
  );
  assert.deepEqual(phases, ['done', 'failed', 'done', 'unknown', 'done']);
  const notice = store.statusStore.getSnapshot().notice;
  assert.equal(notice?.failed, true);
  assert.match(notice?.text ?? '', /^Deploy of 5 services on Billing: 3 done, 1 failed, 1 with the outcome unknown\./);
  assert.match(notice?.text ?? '', /shop\/b failed: npm ERR! missing script: build/);
  assert.match(notice?.text ?? '', /Outcome unknown for shop\/d: The panel did not answer in time\./);
});

test('one: the notice of one service, done or in the panel\u2019s words', async () => {
  const store = createWindowStores();
  await runServiceActions(fakeMain(() => 'done').api, store, panel, 'stop', targets.slice(0, 1));
  assert.deepEqual(store.statusStore.getSnapshot().notice, { text: 'Stopped shop/a on Billing.', failed: false });
  await runServiceActions(
    fakeMain(() => panelApiFailure('NOT_FOUND', 'Billing has no service shop/a.')).api,
    store,
    panel,
    'restart',
    targets.slice(0, 1),
  );
  assert.deepEqual(store.statusStore.getSnapshot().notice, {
    text: 'Restart of shop/a on Billing failed: Billing has no service shop/a.',
    failed: true,
  });
});
