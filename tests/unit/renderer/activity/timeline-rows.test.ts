import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  filterChoices,
  filterTimeline,
  kindName,
  NO_FILTER,
  PANEL_CHOICES_AT_MOST,
  timelineCsv,
  whatText,
} from '../../../../renderer/activity/timeline-rows.ts';
import type { TimelineEntry } from '../../../../shared/timeline.ts';

/** The Activity view's rows: what each says, the filters, and the CSV it saves. */

function entry(id: string, overrides: Partial<TimelineEntry> = {}): TimelineEntry {
  return {
    id,
    source: 'panel',
    at: '2026-12-01T12:00:00.000Z',
    panelId: 'p1',
    panelName: 'Shop',
    projectName: 'shop',
    serviceName: 'web',
    kind: 'restart',
    operation: null,
    outcome: 'ok',
    who: 'ann@example.com',
    whoKind: 'person',
    message: null,
    ...overrides,
  };
}

const entries = [
  entry('a'),
  entry('b', { panelId: 'p2', panelName: 'Blog', kind: 'build', outcome: 'failed', who: 'system', whoKind: 'system' }),
  entry('c', { source: 'paneldeck', kind: 'logIn', projectName: null, serviceName: null, who: 'Paneldeck', whoKind: 'paneldeck' }),
  entry('d', { source: 'paneldeck', kind: 'operation', operation: 'projects.createProject', who: 'Paneldeck', whoKind: 'paneldeck' }),
];

test('what each row says: the kind and its service, a console call by its operation, a word Paneldeck does not know as written', () => {
  assert.deepEqual(entries.map(whatText), ['Restart shop/web', 'Build shop/web', 'Log in', 'Console call projects.createProject']);
  assert.equal(whatText(entry('x', { kind: 'toString' })), 'toString shop/web');
});

test('each filter narrows, together they all hold, and the search needs every word', () => {
  const ids = (filter: Partial<typeof NO_FILTER>) => filterTimeline(entries, { ...NO_FILTER, ...filter }).map((one) => one.id);
  assert.deepEqual(ids({}), ['a', 'b', 'c', 'd']);
  assert.deepEqual(ids({ panelId: 'p2' }), ['b']);
  assert.deepEqual(ids({ who: 'Paneldeck' }), ['c', 'd']);
  assert.deepEqual(ids({ kind: 'restart' }), ['a']);
  assert.deepEqual(ids({ outcome: 'failed' }), ['b']);
  assert.deepEqual(ids({ who: 'Paneldeck', kind: 'logIn' }), ['c']);
  assert.deepEqual(ids({ query: 'blog failed' }), ['b']);
  assert.deepEqual(ids({ query: 'blog done' }), []);
});

test('the choices come from the entries: panels by name, people and kinds most seen first', () => {
  const choices = filterChoices(entries);
  assert.deepEqual(
    choices.panels.map((panel) => panel.name),
    ['Blog', 'Shop'],
  );
  assert.deepEqual(
    choices.who.map((one) => one.who),
    ['Paneldeck', 'ann@example.com', 'system'],
  );
  assert.deepEqual(choices.kinds, ['build', 'logIn', 'operation', 'restart']);
  assert.equal(choices.morePanels, 0);
});

test('a fleet of panels offers the most recently active ones to choose, by name, and says how many more', () => {
  // Newest first, as the timeline lists them: panel 0 the most recent.
  const many = Array.from({ length: PANEL_CHOICES_AT_MOST + 50 }, (_, index) =>
    entry(`e${index}`, { panelId: `p${index}`, panelName: `Client ${index}` }),
  );
  const choices = filterChoices(many);
  assert.equal(choices.panels.length, PANEL_CHOICES_AT_MOST);
  assert.equal(choices.morePanels, 50);
  assert.ok(!choices.panels.some((panel) => panel.id === `p${PANEL_CHOICES_AT_MOST}`), 'the least recent are left out');
  const names = choices.panels.map((panel) => panel.name);
  assert.deepEqual(names.slice(0, 3), ['Client 0', 'Client 1', 'Client 2'], 'by name, numbers as numbers');
  assert.equal(names.at(-1), `Client ${PANEL_CHOICES_AT_MOST - 1}`);
});

test('the CSV: a header, a line per entry in the order given, a formula from a panel defused, quotes doubled', () => {
  const csv = timelineCsv([entry('a', { who: '=HYPERLINK("x")', message: 'said "no", twice' })]);
  const [header, line, end] = csv.split('\r\n');
  assert.equal(header, 'When (UTC),Panel,Project,Service,What,Outcome,Who,Recorded by,Message');
  assert.equal(line, `2026-12-01T12:00:00.000Z,Shop,shop,web,Restart shop/web,Done,"'=HYPERLINK(""x"")",the panel,"said ""no"", twice"`);
  assert.equal(end, '');
});

test('a cancelled deployment is named in words in the Activity view, not as its action id', () => {
  assert.equal(kindName('cancelDeploy'), 'Cancel deployment');
});
