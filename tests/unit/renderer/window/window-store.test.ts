import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../../../shared/settings.ts';
import type { AppStatus, BoardView } from '../../../../shared/types.ts';
import { readWindowMemory, type SessionMemory } from '../../../../renderer/window/window-memory.ts';
import { groupsInUse, markedPanels, selectedPanel, WindowStore } from '../../../../renderer/window/window-store.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** The window's own state (selection, dialog, notices, status, list view, update), as the window uses it. */

const panel = samplePanel;

function status(boardView: Partial<BoardView> = {}): AppStatus {
  return {
    settings: { ...DEFAULT_SETTINGS, boardView: { ...DEFAULT_SETTINGS.boardView, ...boardView } },
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
  const store = new WindowStore();
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
  const store = new WindowStore();
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
  const store = new WindowStore();
  store.selectOne('a');
  const before = store.getSnapshot();
  let notified = 0;
  const stop = store.subscribe(() => notified++);
  store.selectOne('a');
  store.setListError(null);
  store.showNotice(null);
  assert.equal(store.getSnapshot(), before);
  assert.equal(notified, 0);
  stop();
  store.selectOne('b');
  assert.equal(notified, 0, 'unsubscribed');
});

test('the list view as the operator left it arrives with the first status, with the panel shown', () => {
  const store = new WindowStore();
  assert.equal(store.getSnapshot().listViewAdopted, false);
  assert.equal(store.getSnapshot().listView.sort, 'name');
  store.setStatus(status({ sort: 'status', attentionOnly: true, selectedPanelId: 'b' }));
  const snapshot = store.getSnapshot();
  assert.equal(snapshot.listViewAdopted, true);
  assert.deepEqual(snapshot.listView, { sort: 'status', attentionOnly: true, collapsedGroups: [] });
  assert.equal(snapshot.selectedId, 'b');
  // A later status (a setting saved) does not move the list back.
  store.changeListView({ sort: 'name' });
  store.setStatus(status({ sort: 'expiry', selectedPanelId: 'c' }));
  assert.equal(store.getSnapshot().listView.sort, 'name');
  assert.equal(store.getSnapshot().selectedId, 'b');
});

test('a change made before the settings arrived wins over them; a panel chosen meanwhile stays chosen', () => {
  const store = new WindowStore();
  store.changeListView({ attentionOnly: true });
  store.selectOne('a');
  store.setStatus(status({ sort: 'status', selectedPanelId: 'b' }));
  assert.deepEqual(store.getSnapshot().listView, { sort: 'name', attentionOnly: true, collapsedGroups: [] });
  assert.equal(store.getSnapshot().selectedId, 'a');
  assert.equal(store.getSnapshot().listViewAdopted, true);
});

test('no status (main could not say) adopts nothing: the list keeps its defaults and is not saved', () => {
  const store = new WindowStore();
  store.setStatus(null);
  assert.equal(store.getSnapshot().listViewAdopted, false);
  assert.equal(store.getSnapshot().status, null);
});

test('a downloaded update and notices put away survive a reload of the page, and nothing else is kept', () => {
  const kept = memory();
  const first = new WindowStore(kept);
  first.selectOne(panel(1).id);
  first.showNotice({ text: 'Exported 2 panels to /home/op/panels.json.', failed: false });
  first.updateReady('0.2.0');
  first.dismissStartupProblems();
  assert.deepEqual(readWindowMemory(kept), { update: { version: '0.2.0', dismissed: false }, startupProblemsDismissed: true });
  assert.deepEqual([...kept.items.keys()], ['paneldeck.window']);
  assert.doesNotMatch([...kept.items.values()].join(), /panels\.json|p1\.example|00000000/);

  const reloaded = new WindowStore(kept);
  assert.deepEqual(reloaded.getSnapshot().update, { version: '0.2.0', dismissed: false });
  assert.equal(reloaded.getSnapshot().startupProblemsDismissed, true);
  assert.equal(reloaded.getSnapshot().selectedId, null);
  assert.equal(reloaded.getSnapshot().notice, null);
});

test('"Later" keeps the update notice away for the window\u2019s life, a newer version included', () => {
  const kept = memory();
  const store = new WindowStore(kept);
  store.dismissUpdate();
  assert.equal(store.getSnapshot().update, null, 'nothing to dismiss yet');
  store.updateReady('0.2.0');
  store.dismissUpdate();
  store.updateReady('0.3.0');
  assert.deepEqual(store.getSnapshot().update, { version: '0.3.0', dismissed: true });
  assert.deepEqual(new WindowStore(kept).getSnapshot().update, { version: '0.3.0', dismissed: true });
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
  const store = new WindowStore(throwing);
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
  const store = new WindowStore();
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
