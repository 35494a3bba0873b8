import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  listItems,
  expiryText,
  FAVOURITES,
  panelListRows,
  NO_GROUP,
  padNumbers,
  sortKey,
  sortPanels,
  typeAheadIndex,
} from '../../../../renderer/panel-list/panel-list-rows.ts';
import { PanelStore } from '../../../../renderer/window/panel-store.ts';
import type { Panel } from '../../../../shared/types.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** The panel list's fleet logic: counts, the attention filter, search words, relative times, type-ahead. */

const at = '2030-01-01T12:00:00.000Z';
const now = Date.parse(at);
const failed = { at, ok: false as const, error: { code: 'SERVER_ERROR' as const, message: 'The panel had an internal error.' } };

const fleet: Panel[] = [
  samplePanel(0, { name: 'Zürich prod', signedIn: true, lastCheck: { at, ok: true } }),
  samplePanel(1, { name: 'Berlin prod', signedIn: true, lastCheck: failed }),
  samplePanel(2, { name: 'Berlin dev', signedOutReason: { code: 'UNAUTHORIZED', message: 'expired' } }),
  samplePanel(3, { name: 'Paris dev' }),
];

describe('panelListRows', () => {
  test('counts every state over the whole fleet, whatever the filter shows', () => {
    const view = panelListRows(fleet, { query: 'berlin', attentionOnly: true });
    // Zürich prod's state was never read: signed in, not OK; Berlin prod's check failed: its state is unknown.
    assert.deepEqual(view.counts, { unreachable: 0, expired: 1, degraded: 0, unknown: 1, ok: 0, 'signed-in': 1, 'signed-out': 0, new: 1 });
    // The unknown and the expired panel; Paris dev was never logged in, which is no fact to attend to.
    assert.equal(view.attention, 2);
    assert.deepEqual(
      view.rows.map((row) => row.panel.name),
      ['Berlin prod', 'Berlin dev'],
    );
  });

  test('finds by name (accents folded), address and state words; every word must match', () => {
    const names = (query: string) => panelListRows(fleet, { query, attentionOnly: false }).rows.map((row) => row.panel.name);
    assert.deepEqual(names('zurich'), ['Zürich prod']);
    assert.deepEqual(names('p3.example'), ['Paris dev']);
    assert.deepEqual(names('failing'), ['Berlin prod']);
    assert.deepEqual(names('expired'), ['Berlin dev']);
    assert.deepEqual(names('signed out'), ['Paris dev']);
    assert.deepEqual(names('  DEV   berlin '), ['Berlin dev']);
    assert.deepEqual(names('berlin paris'), []);
    assert.equal(names('').length, fleet.length);
  });

  test('attention only: expired and failing, never a healthy panel nor one signed out by the operator', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ signedIn: fc.boolean(), fails: fc.boolean(), expired: fc.boolean() }), { maxLength: 40 }),
        (shapes) => {
          const panels = shapes.map((shape, index) =>
            samplePanel(index % 10, {
              id: `id-${index}`,
              signedIn: shape.signedIn,
              lastCheck: shape.signedIn && shape.fails ? failed : null,
              signedOutReason: !shape.signedIn && shape.expired ? { code: 'UNAUTHORIZED', message: 'x' } : null,
            }),
          );
          const view = panelListRows(panels, { query: '', attentionOnly: true });
          const facts = shapes.filter((shape) => (shape.signedIn ? shape.fails : shape.expired)).length;
          assert.equal(view.rows.length, facts);
          assert.equal(view.attention, view.rows.length);
          assert.ok(view.rows.every((row) => row.kind === 'unreachable' || row.kind === 'unknown' || row.kind === 'expired'));
        },
      ),
    );
  });
});

test('a row\u2019s session end: amber under an hour, red once over (its words are shared/durations.ts)', () => {
  assert.deepEqual(expiryText(new Date(now + 40 * 60_000).toISOString(), now), { text: 'expires in 40 min', tone: 'soon' });
  assert.deepEqual(expiryText(new Date(now + 130 * 60_000).toISOString(), now), { text: 'expires in 2 h 10 min', tone: 'ok' });
  assert.deepEqual(expiryText(at, now), { text: 'expired', tone: 'ended' });
  assert.equal(expiryText(null, now), null);
});

test('type-ahead: a prefix finds the next row; one letter repeated steps through its rows', () => {
  const rows = panelListRows(fleet, { query: '', attentionOnly: false }).rows.map((row) => row.panel.name);
  assert.equal(typeAheadIndex(rows, 'b', 0), 1);
  assert.equal(typeAheadIndex(rows, 'b', 1), 2);
  assert.equal(typeAheadIndex(rows, 'bb', 2), 1, 'wraps around');
  assert.equal(typeAheadIndex(rows, 'berlin d', 1), 2);
  assert.equal(typeAheadIndex(rows, 'zu', 3), 0, 'accents folded');
  assert.equal(typeAheadIndex(rows, 'x', 0), -1);
});

test('the store follows a check pass and keeps the same list while only the progress moves', () => {
  const store = new PanelStore();
  store.load(fleet);
  const list = store.getSnapshot().panels;
  store.apply({ type: 'checkProgress', done: 1, total: 4 });
  assert.deepEqual(store.getSnapshot().progress, { done: 1, total: 4 });
  assert.equal(store.getSnapshot().panels, list, 'no new list for a progress tick');
  store.apply({ type: 'checkProgress', done: 4, total: 4 });
  assert.equal(store.getSnapshot().progress, null, 'done === total ends the pass');
  store.upsert({ ...fleet[3]!, name: 'Paris staging' });
  assert.notEqual(store.getSnapshot().panels, list);
});

describe('order and sections', () => {
  const soon = new Date(now + 10 * 60_000).toISOString();
  const later = new Date(now + 90 * 60_000).toISOString();
  const panels: Panel[] = [
    samplePanel(0, { name: 'web 10', group: 'Acme', signedIn: true, sessionExpiresAt: later, lastCheck: { at, ok: true } }),
    samplePanel(1, { name: 'web 9', group: 'Acme', signedIn: true, sessionExpiresAt: soon, lastCheck: failed }),
    samplePanel(2, { name: 'db', group: 'Globex', favourite: true }),
    samplePanel(3, {
      name: 'loose',
      signedOutReason: { code: 'UNAUTHORIZED', message: 'x' },
      lastCheck: { at: '2029-12-31T00:00:00.000Z', ok: true },
    }),
  ];
  const names = (list: readonly Panel[]) => list.map((panel) => panel.name);

  test('a sort may use keys taken earlier, so rows keep their places while the data moves', () => {
    const before = new Map(panels.map((panel) => [panel.id, sortKey(panel, 'checked')]));
    const moved = panels.map((panel) =>
      panel.name === 'db' ? { ...panel, lastCheck: { at: '2031-01-01T00:00:00.000Z', ok: true as const } } : panel,
    );
    assert.deepEqual(names(sortPanels(moved, 'checked')).at(-1), 'db', 'live: the panel just checked goes last');
    assert.deepEqual(
      names(sortPanels(moved, 'checked', (panel) => before.get(panel.id)!)),
      names(sortPanels(panels, 'checked')),
      'frozen: nothing moves',
    );
  });

  test('sorts by name with numbers in order, by status attention first, by last checked oldest first, by session end soonest first', () => {
    assert.deepEqual(names(sortPanels(panels, 'name')), ['db', 'loose', 'web 9', 'web 10']);
    assert.deepEqual(names(sortPanels(panels, 'status')), ['loose', 'web 9', 'db', 'web 10']);
    assert.deepEqual(
      names(sortPanels(panels, 'checked')),
      ['db', 'loose', 'web 9', 'web 10'],
      'never checked first; the same time ties by name',
    );
    assert.deepEqual(names(sortPanels(panels, 'expiry')), ['web 9', 'web 10', 'db', 'loose']);
    assert.deepEqual(names(panels), ['web 10', 'web 9', 'db', 'loose'], 'the input is left as it was');
  });

  test('favourites first, then groups by name, then the panels of no group; a folded section keeps its heading and count', () => {
    const rows = panelListRows(sortPanels(panels, 'name'), { query: '', attentionOnly: false }).rows;
    const shape = (collapsed: Set<string>) =>
      listItems(rows, collapsed).map((item) =>
        item.kind === 'section' ? `[${item.name} ${item.count}${item.collapsed ? ' folded' : ''}]` : item.row.panel.name,
      );
    assert.deepEqual(shape(new Set()), [`[${FAVOURITES} 1]`, 'db', '[Acme 2]', 'web 9', 'web 10', `[${NO_GROUP} 1]`, 'loose']);
    assert.deepEqual(shape(new Set(['Acme'])), [`[${FAVOURITES} 1]`, 'db', '[Acme 2 folded]', `[${NO_GROUP} 1]`, 'loose']);
    const places = listItems(rows, new Set()).map((item) => `${item.position}/${item.setSize}`);
    assert.deepEqual(places, ['1/3', '1/1', '2/3', '1/2', '2/2', '3/3', '1/1'], "each entry's place among its siblings");
    const flat = panelListRows(
      panels.map((panel) => ({ ...panel, group: null, favourite: false })),
      { query: '', attentionOnly: false },
    ).rows;
    assert.ok(
      listItems(flat, new Set()).every((item) => item.kind === 'panel' && item.section === null),
      'no headings without groups or favourites',
    );
  });

  test('by version: numerically oldest first (2.9 before 2.30, a pre-release before its release), unknown last, ties by name', () => {
    const versioned = [
      samplePanel(0, { name: 'a', panelVersion: '2.33.0' }),
      samplePanel(1, { name: 'b', panelVersion: null }),
      samplePanel(2, { name: 'c', panelVersion: '2.30.1' }),
      samplePanel(3, { name: 'd', panelVersion: '2.9.12' }),
      samplePanel(4, { name: 'e', panelVersion: '2.33.0-beta.2' }),
      samplePanel(5, { name: 'f', panelVersion: '10.0.0' }),
      samplePanel(6, { name: 'g', panelVersion: '2.30.1' }),
      samplePanel(7, { name: 'h', panelVersion: '2.30.10' }),
    ];
    assert.deepEqual(names(sortPanels(versioned, 'version')), ['d', 'c', 'g', 'h', 'e', 'a', 'f', 'b']);
  });

  test('search finds by version as the header says it: "2.30" finds 2.30.x, "easypanel 2.33" too', () => {
    const versioned = [
      samplePanel(0, { name: 'old', panelVersion: '2.30.4' }),
      samplePanel(1, { name: 'new', panelVersion: '2.33.1' }),
      samplePanel(2, { name: 'unknown', panelVersion: null }),
    ];
    const found = (query: string) => panelListRows(versioned, { query, attentionOnly: false }).rows.map((row) => row.panel.name);
    assert.deepEqual(found('2.30'), ['old']);
    assert.deepEqual(found('easypanel 2.33'), ['new']);
    assert.deepEqual(found('2.3'), ['old', 'new']);
    assert.deepEqual(found('easypanel'), ['old', 'new']);
  });

  test('search finds by group and tag', () => {
    const tagged = [...panels, samplePanel(4, { name: 'cache', tags: ['billing', 'eu'] })];
    const found = (query: string) => panelListRows(tagged, { query, attentionOnly: false }).rows.map((row) => row.panel.name);
    assert.deepEqual(found('globex'), ['db']);
    assert.deepEqual(found('billing'), ['cache']);
  });
});

test('padNumbers pads every run of digits to twelve, as the regular expression would, and leaves the rest', () => {
  assert.equal(padNumbers('web 9'), 'web 000000000009');
  assert.equal(padNumbers('007a12'), '000000000007a000000000012');
  assert.equal(padNumbers(''), '');
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '0', '1', '9', 'é'), maxLength: 30 }), (text) => {
      assert.equal(
        padNumbers(text),
        text.replace(/\d+/g, (digits) => digits.padStart(12, '0')),
      );
    }),
  );
});

describe('search: whole words or prefixes, ranked (issue 22, items 3 and 4)', () => {
  const found = (panels: readonly Panel[], query: string) =>
    panelListRows(panels, { query, attentionOnly: false }).rows.map((row) => row.panel.name);

  test('"red" finds the red panels, not the expired ones; "log" does not find "logged out"; a state word is a whole word', () => {
    const panels = [
      samplePanel(0, { name: 'shop', colour: 'red', signedIn: true }),
      samplePanel(1, { name: 'blog', signedOutReason: { code: 'UNAUTHORIZED', message: 'expired' } }),
      samplePanel(2, { name: 'mail' }),
      samplePanel(3, { name: 'logs', colour: 'blue', signedIn: true }),
    ];
    assert.deepEqual(found(panels, 'red'), ['shop'], 'the colour, never "expi-red"');
    assert.deepEqual(found(panels, 'blue'), ['logs']);
    assert.deepEqual(found(panels, 'production'), ['shop'], 'red as its menu names it, "Red (production)"');
    assert.deepEqual(found(panels, 'log'), ['logs'], 'a prefix of a name, never "logged out"');
    assert.deepEqual(found(panels, 'logged out'), ['mail'], 'the state words, whole');
    assert.deepEqual(found(panels, 'expired'), ['blog']);
    assert.deepEqual(found(panels, 'pired'), [], 'the middle of a word matches nothing');
    assert.deepEqual(found(panels, 'sho'), ['shop'], 'a name by its prefix');
  });

  test('the name first: "abstergo prod eu 2" puts abstergo-prod-eu-2 before eu-1, whose address has a 2', () => {
    const panels = [
      samplePanel(0, { name: 'abstergo-prod-eu-1', address: '127.0.0.1:8441' }),
      samplePanel(1, { name: 'abstergo-prod-eu-2', address: '127.0.0.1:8442' }),
    ];
    assert.deepEqual(found(panels, 'abstergo prod eu 2'), ['abstergo-prod-eu-2'], 'a digit inside an address is not a word of it');
    const shared = [
      samplePanel(0, { name: 'abstergo-prod-eu-1', address: '10.0.0.2' }),
      samplePanel(1, { name: 'abstergo-prod-eu-2', address: '10.0.0.1' }),
    ];
    assert.deepEqual(found(shared, 'abstergo prod eu 2'), ['abstergo-prod-eu-2', 'abstergo-prod-eu-1'], 'the name outranks the address');
  });

  test('ranking: the exact name, then a name starting with the query, then every word in the name, then the rest; ties keep the order given', () => {
    const panels = [
      samplePanel(0, { name: 'billing eu', tags: ['web'] }),
      samplePanel(1, { name: 'web shop eu' }),
      samplePanel(2, { name: 'eu web' }),
      samplePanel(3, { name: 'web' }),
      samplePanel(4, { name: 'shop web' }),
    ];
    assert.deepEqual(found(panels, 'web'), ['web', 'web shop eu', 'eu web', 'shop web', 'billing eu']);
    assert.deepEqual(found(panels, 'eu web'), ['eu web', 'web shop eu', 'billing eu']);
  });

  test('an address, a version, a group and a tag are found from the start of any of their words, and numbers inside a name too', () => {
    const panels = [
      samplePanel(0, { name: 'web07', address: 'p0.example.com', panelVersion: '2.30.4', group: 'Acme Corp', tags: ['eu-west'] }),
      samplePanel(1, { name: 'db 12', address: 'db.internal' }),
    ];
    assert.deepEqual(found(panels, 'example'), ['web07']);
    assert.deepEqual(found(panels, 'p0.example'), ['web07']);
    assert.deepEqual(found(panels, '07'), ['web07'], 'letters then digits are two words');
    assert.deepEqual(found(panels, 'corp west'), ['web07']);
    assert.deepEqual(found(panels, '2'), ['web07'], '"2" is the start of 2.30.4, not of 12');
  });
});

test('the table: fact terms over the facts given, a colour name finds the panels of that colour, attention by facts', () => {
  const red = samplePanel(1, { name: 'shop', colour: 'red', signedIn: true });
  const expired = samplePanel(2, { name: 'blog', signedOutReason: { code: 'UNAUTHORIZED', message: 'ended' } });
  const down = samplePanel(3, { name: 'api', signedIn: true, panelVersion: '2.30.2' });
  const panels = [red, expired, down];
  const facts = (panel: Panel) => ({
    servicesDown: panel === down ? 2 : 0,
    diskPercent: panel === red ? 95 : 10,
    memoryPercent: null,
    cpuPercent: null,
    version: panel.panelVersion,
    updateAvailable: panel.updateAvailable,
  });
  const names = (query: string, attentionOnly = false, isAttention?: (panel: Panel) => boolean) =>
    panelListRows(panels, { query, attentionOnly, isAttention }, new WeakMap(), facts).rows.map((row) => row.panel.name);
  assert.deepEqual(names('red'), ['shop'], 'red is the colour, never the expired panel');
  assert.deepEqual(names('down'), ['api']);
  assert.deepEqual(names('disk>90'), ['shop']);
  assert.deepEqual(names('version:2.30'), ['api']);
  assert.deepEqual(names('version:2.30 shop'), []);
  assert.deepEqual(
    names('', true, (panel) => panel === down),
    ['api'],
  );
  assert.equal(panelListRows(panels, { query: '', attentionOnly: false, isAttention: (panel) => panel !== expired }).attention, 2);
  assert.equal(
    panelListRows(panels, { query: '', attentionOnly: false }).attention,
    1,
    'without a state read: the facts known (the ended session)',
  );
});
