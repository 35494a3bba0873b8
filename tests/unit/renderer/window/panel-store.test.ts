import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PanelEvent } from '../../../../shared/contract/events.ts';
import { PanelStore } from '../../../../renderer/window/panel-store.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** The window's panel store, fed as main feeds it: a list, then events and actions' results. */

const panel = samplePanel;

const names = (store: PanelStore) => store.getSnapshot().panels?.map((one) => one.name) ?? null;

test('nothing until the list arrives; then the list in its order, keyed by id', () => {
  const store = new PanelStore();
  assert.equal(store.getSnapshot().panels, null);
  store.load([panel(1), panel(2)]);
  assert.deepEqual(names(store), ['Panel 1', 'Panel 2']);
  assert.equal(store.getSnapshot().byId.get(panel(2).id)?.name, 'Panel 2');
  assert.equal(store.has(panel(1).id), true);
});

test('events apply in order: a change replaces the panel in place, a new panel goes at the end', () => {
  const store = new PanelStore();
  store.load([panel(1), panel(2)]);
  const events: PanelEvent[] = [
    { type: 'panelsChanged', panels: [panel(2, { name: 'Staging' })] },
    { type: 'panelsChanged', panels: [panel(3)] },
    { type: 'panelsChanged', panels: [panel(2, { name: 'Staging EU', signedIn: true }), panel(1, { name: 'Production' })] },
  ];
  for (const event of events) store.apply(event);
  assert.deepEqual(names(store), ['Production', 'Staging EU', 'Panel 3']);
  assert.equal(store.getSnapshot().byId.get(panel(2).id)?.signedIn, true);
});

test('removed panels are dropped, and an answer or event still on its way does not bring them back', () => {
  const store = new PanelStore();
  store.load([panel(1), panel(2), panel(3)]);
  store.apply({ type: 'panelsRemoved', panelIds: [panel(2).id] });
  store.remove(panel(3).id);
  assert.deepEqual(names(store), ['Panel 1']);
  store.apply({ type: 'panelsChanged', panels: [panel(2, { name: 'late event' })] });
  store.upsert(panel(3, { name: 'late answer' }));
  store.load([panel(1), panel(2), panel(3)]);
  assert.deepEqual(names(store), ['Panel 1']);
  assert.equal(store.has(panel(2).id), false);
});

test('unknown ids are ignored: removals, warnings and focus requests change nothing and notify no one', () => {
  const store = new PanelStore();
  store.load([panel(1)]);
  let notified = 0;
  store.subscribe(() => notified++);
  const before = store.getSnapshot();
  store.apply({ type: 'panelsRemoved', panelIds: [panel(9).id] });
  store.apply({ type: 'sessionExpiring', panelId: panel(9).id, expiresAt: '2030-01-01T01:00:00.000Z' });
  store.apply({ type: 'focusPanel', panelId: panel(9).id });
  store.remove(panel(9).id);
  assert.equal(store.getSnapshot(), before, 'the same snapshot object');
  assert.equal(notified, 0);
});

test('the snapshot is a new value on each change and the same one otherwise, as useSyncExternalStore needs', () => {
  const store = new PanelStore();
  const first = store.getSnapshot();
  assert.equal(store.getSnapshot(), first);
  store.load([panel(1)]);
  const second = store.getSnapshot();
  assert.notEqual(second, first);
  assert.equal(store.getSnapshot(), second);
  const same = second.byId.get(panel(1).id)!;
  store.upsert(same);
  assert.equal(store.getSnapshot(), second, 'the very same panel again is no change');
  store.upsert({ ...same, name: 'Renamed' });
  assert.notEqual(store.getSnapshot(), second);
  assert.equal(second.panels?.[0]?.name, 'Panel 1', 'an old snapshot is never changed');
});

test('listeners are told of each change until they unsubscribe', () => {
  const store = new PanelStore();
  const calls: string[] = [];
  const stopA = store.subscribe(() => calls.push('a'));
  store.subscribe(() => calls.push('b'));
  store.load([panel(1)]);
  stopA();
  store.apply({ type: 'panelsChanged', panels: [panel(1, { name: 'x' })] });
  assert.deepEqual(calls, ['a', 'b', 'b']);
});

test('events before the list are kept, and the list (which is newer) then replaces them', () => {
  const store = new PanelStore();
  store.apply({ type: 'panelsChanged', panels: [panel(1, { name: 'from an event' })] });
  assert.equal(store.getSnapshot().panels, null, 'still loading');
  assert.equal(store.has(panel(1).id), true);
  store.apply({ type: 'panelsRemoved', panelIds: [panel(2).id] });
  store.load([panel(1, { name: 'from the list' }), panel(2)]);
  assert.deepEqual(names(store), ['from the list'], 'a panel removed before the list came stays removed');
});

test('a session warning stands while the panel is signed in with that session, and goes with it', () => {
  const expiresAt = '2030-01-01T01:00:00.000Z';
  const signedIn = panel(1, { signedIn: true, tokenStorage: 'keyring', sessionExpiresAt: expiresAt });
  const store = new PanelStore();
  store.load([signedIn, panel(2)]);
  store.apply({ type: 'sessionExpiring', panelId: signedIn.id, expiresAt: '2030-01-01T01:00:00Z' });
  assert.equal(store.getSnapshot().expiring.get(signedIn.id), '2030-01-01T01:00:00Z', 'the same instant, spelt differently');
  // Another panel's warning for a session it does not have is dropped.
  store.apply({ type: 'sessionExpiring', panelId: panel(2).id, expiresAt });
  assert.equal(store.getSnapshot().expiring.has(panel(2).id), false);
  // A check that changes nothing of the session keeps the warning...
  store.apply({ type: 'panelsChanged', panels: [{ ...signedIn, lastCheck: { at: '2030-01-01T00:55:00.000Z', ok: true } }] });
  assert.equal(store.getSnapshot().expiring.size, 1);
  // ...a new session (logged in again) or a sign-out ends it.
  store.apply({ type: 'panelsChanged', panels: [{ ...signedIn, sessionExpiresAt: '2030-01-01T02:00:00.000Z' }] });
  assert.equal(store.getSnapshot().expiring.size, 0);
  store.apply({ type: 'sessionExpiring', panelId: signedIn.id, expiresAt: '2030-01-01T02:00:00.000Z' });
  store.apply({ type: 'panelsChanged', panels: [{ ...signedIn, signedIn: false, sessionExpiresAt: null }] });
  assert.equal(store.getSnapshot().expiring.size, 0);
  // And removal.
  store.apply({ type: 'panelsChanged', panels: [signedIn] });
  store.apply({ type: 'sessionExpiring', panelId: signedIn.id, expiresAt });
  store.apply({ type: 'panelsRemoved', panelIds: [signedIn.id] });
  assert.equal(store.getSnapshot().expiring.size, 0);
});

test('a thousand-panel event applies in one change', () => {
  const many = Array.from({ length: 1000 }, (_, index) => ({ ...panel(1), id: `id-${index}`, name: `P${index}` }));
  const store = new PanelStore();
  store.load(many);
  let notified = 0;
  store.subscribe(() => notified++);
  store.apply({ type: 'panelsChanged', panels: many.map((one) => ({ ...one, signedIn: true })) });
  assert.equal(notified, 1);
  assert.equal(
    store.getSnapshot().panels?.every((one) => one.signedIn),
    true,
  );
  assert.equal(store.getSnapshot().panels?.length, 1000);
});
