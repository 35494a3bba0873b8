import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.ts';
import type { AppStatus, PanelListSettings } from '../../../../shared/types.ts';
import { readWindowMemory, type SessionMemory } from '../../../../renderer/window/window-memory.ts';
import { groupsInUse, markedPanels, selectedPanel } from '../../../../renderer/window/panel-selection.ts';
import { WINDOW_VIEWS } from '../../../../renderer/window/location-store.ts';
import { applyStatus, createWindowStores } from '../../../../renderer/window/window-stores.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** The window's own state (location, dialog, notices, status, panel list choices, update), one store per subject, as the window uses it. */

const panel = samplePanel;

function status(panelList: Partial<PanelListSettings> = {}): AppStatus {
  return {
    settings: { ...DEFAULT_SETTINGS, panelList: { ...DEFAULT_SETTINGS.panelList, ...panelList } },
    tokenProtection: { level: 'keyring', backend: 'test' },
    startupProblems: [],
  };
}

/** sessionStorage as a Map, with what was written kept to look at. */
function memory(initial: Record<string, string> = {}): SessionMemory & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

test('selection: one panel, then several; one of "several" is just that panel; a removal here ends the several', () => {
  const store = createWindowStores().locationStore;
  store.selectOne('a');
  assert.equal(store.getSnapshot().selectedId, 'a');
  assert.equal(store.getSnapshot().marked.size, 0);
  store.selectMany(['a', 'b', 'c'], 'c');
  assert.equal(store.getSnapshot().selectedId, 'c');
  assert.deepEqual([...store.getSnapshot().marked], ['a', 'b', 'c']);
  store.selectMany(['b'], 'b');
  assert.equal(store.getSnapshot().marked.size, 0);
  store.selectMany(['a', 'b'], 'a');
  store.removedHere();
  assert.equal(store.getSnapshot().marked.size, 0);
  assert.equal(store.getSnapshot().removals, 1);
});

test('one dialog at a time: opening one replaces the other; closing twice notifies once', () => {
  const store = createWindowStores().dialogStore;
  let notified = 0;
  store.subscribe(() => notified++);
  store.openDialog({ kind: 'palette' });
  store.openDialog({ kind: 'duplicatePanel', of: panel(1) });
  assert.deepEqual(store.getSnapshot().dialog, { kind: 'duplicatePanel', of: panel(1) });
  store.closeDialog();
  store.closeDialog();
  assert.equal(store.getSnapshot().dialog, null);
  assert.equal(notified, 3);
});

test('the snapshot changes only when something in it did', () => {
  const { locationStore: store, statusStore } = createWindowStores();
  store.selectOne('a');
  const before = store.getSnapshot();
  const statusBefore = statusStore.getSnapshot();
  let notified = 0;
  const stop = store.subscribe(() => notified++);
  const stopStatus = statusStore.subscribe(() => notified++);
  store.selectOne('a');
  statusStore.setListError(null);
  statusStore.showNotice(null);
  assert.equal(store.getSnapshot(), before);
  assert.equal(statusStore.getSnapshot(), statusBefore);
  assert.equal(notified, 0);
  stop();
  stopStatus();
  store.selectOne('b');
  assert.equal(notified, 0, 'unsubscribed');
});

test('the panel list as the operator left it arrives with the first status, with the panel shown', () => {
  const stores = createWindowStores();
  const { panelListChoicesStore, locationStore } = stores;
  assert.equal(panelListChoicesStore.getSnapshot().panelListChoicesAdopted, false);
  assert.equal(panelListChoicesStore.getSnapshot().panelListChoices.sort, 'name');
  applyStatus(stores, status({ sort: 'status', attentionOnly: true, selectedPanelId: 'b' }));
  const snapshot = panelListChoicesStore.getSnapshot();
  assert.equal(snapshot.panelListChoicesAdopted, true);
  assert.deepEqual(snapshot.panelListChoices, { sort: 'status', attentionOnly: true, collapsedGroups: [] });
  assert.equal(locationStore.getSnapshot().selectedId, 'b');
  // A later status (a setting saved) does not move the list back.
  panelListChoicesStore.change({ sort: 'name' });
  applyStatus(stores, status({ sort: 'expiry', selectedPanelId: 'c' }));
  assert.equal(panelListChoicesStore.getSnapshot().panelListChoices.sort, 'name');
  assert.equal(locationStore.getSnapshot().selectedId, 'b');
});

test('a change made before the settings arrived wins over them; a panel chosen meanwhile stays chosen', () => {
  const stores = createWindowStores();
  const { panelListChoicesStore, locationStore } = stores;
  panelListChoicesStore.change({ attentionOnly: true });
  locationStore.selectOne('a');
  applyStatus(stores, status({ sort: 'status', selectedPanelId: 'b' }));
  assert.deepEqual(panelListChoicesStore.getSnapshot().panelListChoices, { sort: 'name', attentionOnly: true, collapsedGroups: [] });
  assert.equal(locationStore.getSnapshot().selectedId, 'a');
  assert.equal(panelListChoicesStore.getSnapshot().panelListChoicesAdopted, true);
});

test('no status (main could not say) adopts nothing: the list keeps its defaults and is not saved', () => {
  const stores = createWindowStores();
  applyStatus(stores, null);
  assert.equal(stores.panelListChoicesStore.getSnapshot().panelListChoicesAdopted, false);
  assert.equal(stores.statusStore.getSnapshot().status, null);
});

test('a downloaded update and notices put away survive a reload of the page, and nothing else is kept', () => {
  const kept = memory();
  const first = createWindowStores(kept);
  first.locationStore.selectOne(panel(1).id);
  first.locationStore.show('activity');
  first.statusStore.showNotice({ text: 'Exported 2 panels to /home/op/panels.json.', failed: false });
  first.statusStore.updateReady('0.2.0');
  first.statusStore.dismissStartupProblems();
  assert.deepEqual(readWindowMemory(kept), { update: { version: '0.2.0', dismissed: false }, startupProblemsDismissed: true });
  assert.deepEqual([...kept.items.keys()], ['paneldeck.window']);
  assert.doesNotMatch([...kept.items.values()].join(), /panels\.json|p1\.example|00000000/);

  const reloaded = createWindowStores(kept);
  assert.deepEqual(reloaded.statusStore.getSnapshot().update, { version: '0.2.0', dismissed: false });
  assert.equal(reloaded.statusStore.getSnapshot().startupProblemsDismissed, true);
  assert.equal(reloaded.locationStore.getSnapshot().selectedId, null);
  assert.equal(reloaded.locationStore.getSnapshot().view, 'panels', 'a reload opens on the panels');
  assert.equal(reloaded.statusStore.getSnapshot().notice, null);
});

test('"Later" keeps the update notice away for the window\u2019s life, a newer version included', () => {
  const kept = memory();
  const store = createWindowStores(kept).statusStore;
  store.dismissUpdate();
  assert.equal(store.getSnapshot().update, null, 'nothing to dismiss yet');
  store.updateReady('0.2.0');
  store.dismissUpdate();
  store.updateReady('0.3.0');
  assert.deepEqual(store.getSnapshot().update, { version: '0.3.0', dismissed: true });
  assert.deepEqual(createWindowStores(kept).statusStore.getSnapshot().update, { version: '0.3.0', dismissed: true });
});

test('what is read back from sessionStorage is checked; anything odd, or no storage at all, is nothing', () => {
  const nothing = { update: null, startupProblemsDismissed: false };
  assert.deepEqual(readWindowMemory(null), nothing);
  for (const stored of [
    'not json',
    '[1]',
    'null',
    '{"update":{"version":5,"dismissed":false}}',
    `{"update":{"version":"${'9'.repeat(101)}","dismissed":false}}`,
  ]) {
    assert.deepEqual(readWindowMemory(memory({ 'paneldeck.window': stored })), nothing, stored);
  }
  const throwing: SessionMemory = {
    getItem: () => {
      throw new Error('SecurityError');
    },
    setItem: () => {
      throw new Error('QuotaExceededError');
    },
  };
  const store = createWindowStores(throwing).statusStore;
  store.updateReady('0.2.0');
  assert.deepEqual(store.getSnapshot().update, { version: '0.2.0', dismissed: false }, 'storage failing loses only the reload');
});

test('derived: the panel shown falls back to the first; several in the list\u2019s order; groups once each, sorted', () => {
  const panels = [panel(1, { group: 'eu' }), panel(2), panel(3, { group: 'asia' }), panel(4, { group: 'eu' })];
  const byId = new Map(panels.map((one) => [one.id, one]));
  assert.equal(selectedPanel(panels, byId, panel(3).id)?.id, panel(3).id);
  assert.equal(selectedPanel(panels, byId, 'gone')?.id, panel(1).id);
  assert.equal(selectedPanel(panels, byId, null)?.id, panel(1).id);
  assert.equal(selectedPanel(null, new Map(), null), null);
  assert.deepEqual(
    markedPanels(panels, new Set([panel(4).id, panel(1).id, 'gone'])).map((one) => one.name),
    ['Panel 1', 'Panel 4'],
  );
  assert.deepEqual(markedPanels(panels, new Set([panel(1).id])), []);
  assert.deepEqual(groupsInUse(panels), ['asia', 'eu']);
});

test('a focus request selects its panel on its own and is carried out once; a stale one does not clear a newer', () => {
  const store = createWindowStores().locationStore;
  store.selectMany(['a', 'b'], 'a');
  store.focusPanel('b', 'logIn');
  const first = store.getSnapshot().focusRequest!;
  assert.deepEqual(first, { panelId: 'b', to: 'logIn' });
  assert.equal(store.getSnapshot().selectedId, 'b');
  assert.equal(store.getSnapshot().marked.size, 0);
  store.focusPanel('c', 'row');
  store.focusRequestDone(first);
  assert.deepEqual(store.getSnapshot().focusRequest, { panelId: 'c', to: 'row' });
  store.focusRequestDone(store.getSnapshot().focusRequest!);
  assert.equal(store.getSnapshot().focusRequest, null);
});

test('the window shows one view at a time: each replaces the other, its button toggles it, and the selection waits behind it', () => {
  const store = createWindowStores().locationStore;
  store.selectMany(['a', 'b'], 'b');
  for (const view of WINDOW_VIEWS) {
    store.show(view);
    assert.equal(store.getSnapshot().view, view);
    assert.equal(store.getSnapshot().selectedId, 'b', `${view}: the panel shown before is still the selection`);
    assert.deepEqual([...store.getSnapshot().marked], ['a', 'b'], `${view}: so are the panels selected together`);
  }
  store.toggle('allServices');
  assert.equal(store.getSnapshot().view, 'allServices');
  store.toggle('allServices');
  assert.equal(store.getSnapshot().view, 'panels', 'its button again: back to the panels');
  store.toggle('fleetConsole');
  store.toggle('activity');
  assert.equal(store.getSnapshot().view, 'activity', 'another view’s button shows that view');
  store.showPanelAt('a', null);
  assert.equal(store.getSnapshot().view, 'panels', 'a notification clicked shows its panel');
  store.show('alerts');
  store.focusPanel('b', 'row');
  assert.equal(store.getSnapshot().view, 'panels', 'a panel chosen in the palette is shown');
});
