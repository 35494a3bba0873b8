import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionWho, mergeTimeline, type PanelAction, type PanelActionsRead } from '../../../shared/timeline.ts';
import type { ActivityEntry } from '../../../shared/types.ts';

/** The timeline's merge: Paneldeck's entries and the panels' actions, newest first, each with who did it. */

const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 12, minute)).toISOString();

function entry(id: string, minute: number, what: ActivityEntry['what'], outcome: ActivityEntry['outcome'] = 'ok'): ActivityEntry {
  return {
    id,
    at: at(minute),
    panelId: 'p1',
    panelName: 'Shop',
    panelAddress: 'shop.example',
    account: null,
    what,
    outcome,
    message: null,
    finishedAt: null,
  };
}

function action(id: string, minute: number | null, overrides: Partial<PanelAction> = {}): PanelAction {
  return {
    id,
    type: 'restart',
    status: 'done',
    projectName: 'shop',
    serviceName: 'web',
    startedAt: minute === null ? null : at(minute),
    finishedAt: null,
    userEmail: 'ann@example.com',
    isApiAction: false,
    isSystemAction: false,
    ...overrides,
  };
}

const read = (panelId: string, actions: PanelAction[], problem: string | null = null): PanelActionsRead => ({
  panelId,
  panelName: panelId === 'p1' ? 'Shop' : 'Blog',
  readAt: at(59),
  actions,
  problem,
});

test('who: the system and the API before an e-mail; a person by e-mail; unknown when the panel names none', () => {
  assert.equal(actionWho(action('a', 1, { isSystemAction: true })).whoKind, 'system');
  assert.deepEqual(actionWho(action('a', 1, { isApiAction: true })), { who: 'API (ann@example.com)', whoKind: 'api' });
  assert.deepEqual(actionWho(action('a', 1, { isApiAction: true, userEmail: null })), { who: 'API', whoKind: 'api' });
  assert.deepEqual(actionWho(action('a', 1)), { who: 'ann@example.com', whoKind: 'person' });
  assert.deepEqual(actionWho(action('a', 1, { userEmail: null })), { who: 'unknown', whoKind: 'unknown' });
});

test("both sources merged newest first, an action without a time last; a panel's action of Paneldeck's write says Paneldeck", () => {
  const activity = [entry('w', 10, { action: 'restart', projectName: 'shop', serviceName: 'web' }), entry('l', 2, { action: 'logIn' })];
  const timeline = mergeTimeline(activity, [
    read('p1', [action('mine', 10), action('theirs', 5, { serviceName: 'db' }), action('timeless', null)]),
    read('p2', [action('blog', 7, { type: 'build', isSystemAction: true })]),
  ]);
  assert.deepEqual(
    timeline.entries.map((one) => `${one.id} ${one.who}`),
    [
      'panel:p1:mine Paneldeck (ann@example.com)',
      'paneldeck:w Paneldeck',
      'panel:p2:blog system',
      'panel:p1:theirs ann@example.com',
      'paneldeck:l Paneldeck',
      'panel:p1:timeless ann@example.com',
    ],
  );
});

test('a match needs the same service and kind within the window: a restart of another service, or an hour later, is not Paneldeck', () => {
  const activity = [entry('w', 10, { action: 'deploy', projectName: 'shop', serviceName: 'web' })];
  const timeline = mergeTimeline(activity, [
    read('p1', [
      action('build', 10, { type: 'build' }),
      action('other', 10, { serviceName: 'db', type: 'build' }),
      action('late', 58, { type: 'build' }),
    ]),
  ]);
  const who = new Map(timeline.entries.map((one) => [one.id, one.whoKind]));
  assert.equal(who.get('panel:p1:build'), 'paneldeck');
  assert.equal(who.get('panel:p1:other'), 'person');
  assert.equal(who.get('panel:p1:late'), 'person');
});

test('outcomes in one set of words; the bound keeps the newest; a failed read is named unread', () => {
  const activity = [entry('pending', 1, { action: 'stop' }, 'pending'), entry('lost', 2, { action: 'stop' }, 'unknown')];
  const timeline = mergeTimeline(
    activity,
    [
      read('p1', [action('err', 3, { status: 'error' }), action('killed', 4, { status: 'killed' })]),
      read('p2', [], 'The panel answered 500.'),
    ],
    3,
  );
  assert.deepEqual(
    timeline.entries.map((one) => one.outcome),
    ['failed', 'failed', 'unknown'],
  );
  assert.equal(timeline.bound, 3);
  assert.deepEqual(timeline.unread, [{ panelId: 'p2', panelName: 'Blog', problem: 'The panel answered 500.' }]);
});

test("a fleet's timeline: 200 panels of 50 actions and 10,000 of Paneldeck's writes make 20,000 entries, each action matched to its own service's write", () => {
  const activity: ActivityEntry[] = [];
  const reads: PanelActionsRead[] = [];
  for (let panel = 0; panel < 200; panel++) {
    const actions: PanelAction[] = [];
    for (let n = 0; n < 50; n++) {
      const serviceName = `web-${n}`;
      activity.push({ ...entry(`w-${panel}-${n}`, n, { action: 'restart', projectName: 'shop', serviceName }), panelId: `p${panel}` });
      // Every other action is the write's own; the rest give no time, so nothing can match them.
      actions.push(action(`a-${n}`, n % 2 === 0 ? n : null, { serviceName }));
    }
    reads.push({ ...read('p1', actions), panelId: `p${panel}` });
  }
  const timeline = mergeTimeline(activity, reads);
  assert.equal(timeline.entries.length, 20_000);
  const panelRows = timeline.entries.filter((one) => one.source === 'panel');
  assert.equal(panelRows.filter((one) => one.whoKind === 'paneldeck').length, 200 * 25);
  assert.equal(panelRows.filter((one) => one.whoKind === 'person').length, 200 * 25);
});
