import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PanelHealth } from '../../../../shared/fleet-state.ts';
import { routePanelEvent, type EventTargets } from '../../../../renderer/window/event-router.ts';
import { HealthStore } from '../../../../renderer/window/health-store.ts';

/** Each panel's state in the window: the whole at start, main's batches after; an older whole never undoes a newer batch. */

const health = (panelId: string, readAt: string, servicesDown = 0): PanelHealth => ({
  panelId,
  readAt,
  servicesDown,
  downServices: null,
  services: {},
  cpuPercent: null,
  memory: { usedMb: null, totalMb: null },
  disk: { usedGb: null, totalGb: null },
  version: null,
  problem: null,
});

test('fleetStateChanged goes to the health store; the whole state loaded later keeps what is newer', () => {
  const store = new HealthStore();
  let changes = 0;
  store.subscribe(() => changes++);
  const targets = { healthStore: store } as unknown as EventTargets;
  routePanelEvent({ type: 'fleetStateChanged', panels: [health('a', '2030-01-01T00:10:00.000Z', 2)] }, targets);
  assert.equal(store.getSnapshot().get('a')?.servicesDown, 2);
  store.load([health('a', '2030-01-01T00:05:00.000Z', 0), health('b', '2030-01-01T00:05:00.000Z', 1)]);
  assert.equal(store.getSnapshot().get('a')?.servicesDown, 2, 'the batch read later wins');
  assert.equal(store.getSnapshot().get('b')?.servicesDown, 1);
  const before = store.getSnapshot();
  store.apply([]);
  assert.equal(store.getSnapshot(), before, 'an empty batch changes nothing');
  assert.equal(changes, 2);
  // Without a health store (a window part that shows none), the event is dropped.
  routePanelEvent({ type: 'fleetStateChanged', panels: [] }, {} as EventTargets);
});
