import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PanelHealth } from '../../../../shared/fleet-state.ts';
import type { Panel } from '../../../../shared/types.ts';
import { type PanelRow, panelRow, panelRows, fleetCounts, needsAttention } from '../../../../renderer/panel-list/panel-rows.ts';
import { listItems, matchingRows, rowMatcher } from '../../../../renderer/panel-list/panel-list-rows.ts';
import { panelAttention, panelFacts } from '../../../../renderer/panel-list/panel-attention.ts';
import { DEFAULT_TABLE, tableItems } from '../../../../renderer/panel-list/table-columns.ts';
import { sampleHealth, samplePanel } from '../../../support/panel-fixture.ts';

/** The panel list's rows: one definition of "Needs attention" for the list and the table, rows kept per panel and state. */

const at = '2030-01-01T00:05:00.000Z';
const state = (panel: Panel, change: Partial<PanelHealth> = {}): PanelHealth => sampleHealth(panel, at, change);
const signedIn = { signedIn: true, lastEmail: 'ops@example.net', lastCheck: { at, ok: true as const } };
const ended = { code: 'UNAUTHORIZED' as const, message: 'The panel ended the session.' };

/** Every case once, spread over two groups: facts, no facts, and a muted fact. */
const panels: Panel[] = [
  samplePanel(0, { ...signedIn, name: 'fine', group: 'A' }),
  samplePanel(1, { name: 'never logged in', group: 'A' }),
  samplePanel(2, { name: 'logged out on purpose', lastEmail: 'ops@example.net', group: 'B' }),
  samplePanel(3, { name: 'expired', signedOutReason: ended, lastEmail: 'ops@example.net', group: 'A' }),
  samplePanel(4, { name: 'expired, muted', signedOutReason: ended, lastEmail: 'ops@example.net', muted: true, group: 'B' }),
  samplePanel(5, { ...signedIn, name: 'unreachable', lastCheck: { at, ok: false, error: { code: 'TIMEOUT', message: 'slow' } } }),
  samplePanel(6, { ...signedIn, name: 'services down', group: 'B' }),
  samplePanel(7, { ...signedIn, name: 'disk full', group: 'A' }),
];
const health = new Map<string, PanelHealth>([
  [panels[0]!.id, state(panels[0]!)],
  [panels[5]!.id, state(panels[5]!)],
  [panels[6]!.id, state(panels[6]!, { servicesDown: 2 })],
  [panels[7]!.id, state(panels[7]!, { disk: { usedGb: 95, totalGb: 100 } })],
]);

test('the list and the table: the same panels need attention, counted alike overall and per group', () => {
  const rows = panelRows(panels, health, new WeakMap());
  const facts = panels.filter((panel) => panelAttention(panel, health.get(panel.id)).attention).map((panel) => panel.name);
  assert.deepEqual(facts.sort(), ['disk full', 'expired', 'services down', 'unreachable']);

  // The count on the button, the same in both views.
  assert.equal(fleetCounts(rows).attention, facts.length);
  // The list's filter and its section headings.
  const matcher = rowMatcher<PanelRow>({ query: '', attentionOnly: true }, needsAttention, new WeakMap(), (row) =>
    panelFacts(row.panel, row.health),
  );
  assert.deepEqual(
    matchingRows(rows, matcher)
      .map((row) => row.panel.name)
      .sort(),
    facts,
  );
  const sections = new Map<string, number>();
  for (const item of listItems(rows, new Set())) if (item.kind === 'section') sections.set(item.name, item.attention);
  // The table's group headings.
  const groups = new Map<string, number>();
  for (const item of tableItems(rows, { ...DEFAULT_TABLE, grouped: true }))
    if (item.kind === 'group') groups.set(item.name, item.attention);
  assert.deepEqual(Object.fromEntries(sections), Object.fromEntries(groups));
  assert.deepEqual(Object.fromEntries(groups), { A: 2, B: 1, 'No group': 1 });
});

test('a row is built again only when its panel or its state changes', () => {
  const cache = new WeakMap();
  const panel = panels[6]!;
  const first = panelRow(cache, panel, health.get(panel.id));
  assert.equal(panelRow(cache, panel, health.get(panel.id)), first, 'the same panel and state: the same row');
  const healed = panelRow(cache, panel, state(panel));
  assert.notEqual(healed, first);
  assert.equal(healed.attention.attention, false);
  assert.equal(first.attention.reason, '2 services down');
});

test('"shared" finds the panels of a fleet file and "readonly" the read-only ones, as whole words', () => {
  const mixed = [
    samplePanel(10, { name: 'team shop', fleetFile: '11111111-1111-4111-8111-111111111111' }),
    samplePanel(11, { name: 'look only', readOnly: true }),
    samplePanel(12, { name: 'drive share' }),
  ];
  const rows = panelRows(mixed, new Map(), new WeakMap());
  const found = (query: string) =>
    matchingRows(
      rows,
      rowMatcher<PanelRow>({ query, attentionOnly: false }, needsAttention, new WeakMap(), (row) => panelFacts(row.panel, row.health)),
    ).map((row) => row.panel.name);
  assert.deepEqual(found('shared'), ['team shop']);
  assert.deepEqual(found('readonly'), ['look only']);
  assert.deepEqual(found('read-only'), ['look only']);
});
