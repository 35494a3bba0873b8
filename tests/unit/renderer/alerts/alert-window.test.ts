import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../../shared/alerts.ts';
import { filterAlerts } from '../../../../renderer/alerts/alert-rows.ts';
import { CommandRegistry } from '../../../../renderer/window/command-registry.ts';
import { routePanelEvent } from '../../../../renderer/window/event-router.ts';
import { PanelStore } from '../../../../renderer/window/panel-store.ts';
import { createWindowStores } from '../../../../renderer/window/window-stores.ts';
import { samplePanel as panel } from '../../../support/panel-fixture.ts';

/** The window's side of the alerts: the view's place among the others, main's events, the search. */

function targets() {
  return { panelStore: new PanelStore(), ...createWindowStores(), commands: new CommandRegistry(), modalOpen: () => false };
}

test('a notification naming a tab shows its panel at that tab, once; the Alerts or Activity view gives way', () => {
  const to = targets();
  to.panelStore.load([panel(1), panel(2)]);
  to.locationStore.show('alerts');
  routePanelEvent({ type: 'focusPanel', panelId: panel(2).id, tab: 'services' }, to);
  const snapshot = to.locationStore.getSnapshot();
  assert.equal(snapshot.selectedId, panel(2).id);
  assert.deepEqual(snapshot.tabRequest, { panelId: panel(2).id, tab: 'services' });
  assert.equal(snapshot.view, 'panels', 'the Alerts view gave way');
  to.locationStore.tabRequestDone();
  assert.equal(to.locationStore.getSnapshot().tabRequest, null);
  // Without a tab (an older notification): the panel, as before, at the tab it shows.
  routePanelEvent({ type: 'focusPanel', panelId: panel(1).id }, to);
  assert.equal(to.locationStore.getSnapshot().tabRequest, null);
  assert.equal(to.locationStore.getSnapshot().selectedId, panel(1).id);
});

test('Alerts and Activity take the same place: opening one closes the other; choosing a panel closes both', () => {
  const store = createWindowStores().locationStore;
  const open = () => [store.getSnapshot().view === 'activity', store.getSnapshot().view === 'alerts'];
  store.show('activity');
  store.show('alerts');
  assert.deepEqual(open(), [false, true]);
  store.show('activity');
  assert.deepEqual(open(), [true, false]);
  store.show('alerts');
  store.selectOne(panel(1).id);
  assert.deepEqual(open(), [false, false]);
});

test('each alertRaised and alertChanged makes the Alerts view read the list again', () => {
  const to = targets();
  const alert: Alert = {
    id: '1',
    at: '2030-01-01T00:00:00.000Z',
    panelId: 'p',
    panelName: 'P',
    kind: 'diskFull',
    message: 'm',
    tab: 'overview',
    service: null,
    host: null,
    resolvedAt: null,
    acknowledgedAt: null,
  };
  routePanelEvent({ type: 'alertRaised', alert }, to);
  routePanelEvent({ type: 'alertRaised', alert }, to);
  routePanelEvent({ type: 'alertChanged', alert: { ...alert, acknowledgedAt: '2030-01-01T00:01:00.000Z' } }, to);
  assert.equal(to.revisionStore.getSnapshot().alerts, 3);
});

test('the search finds every word in the kind, the message and the panel', () => {
  const base = {
    at: '2030-01-01T00:00:00.000Z',
    panelId: 'p',
    tab: 'services',
    service: null,
    host: null,
    resolvedAt: null,
    acknowledgedAt: null,
  } as const;
  const alerts: Alert[] = [
    { ...base, id: '1', panelName: 'Shop EU', kind: 'serviceDown', message: 'The service shop/web is down on Shop EU.' },
    { ...base, id: '2', panelName: 'Blog', kind: 'diskFull', message: 'The disk of Blog is 93% full.', tab: 'overview' },
  ];
  assert.deepEqual(
    filterAlerts(alerts, 'service down eu').map((alert) => alert.id),
    ['1'],
  );
  assert.deepEqual(
    filterAlerts(alerts, 'NEARLY blog').map((alert) => alert.id),
    ['2'],
  );
  assert.equal(filterAlerts(alerts, '  ').length, 2);
});
