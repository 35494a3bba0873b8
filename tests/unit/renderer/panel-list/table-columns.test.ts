import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PanelHealth } from '../../../../shared/fleet-state.ts';
import type { Panel } from '../../../../shared/types.ts';
import { panelAttention } from '../../../../renderer/panel-list/panel-attention.ts';
import {
  COLUMNS,
  columnWidth,
  DEFAULT_TABLE,
  fittedWidths,
  reasonInFull,
  tableItems,
  type TableRow,
} from '../../../../renderer/panel-list/table-columns.ts';
import { sampleHealth, samplePanel } from '../../../support/panel-fixture.ts';

/** The table's columns: texts, widths, and the sort by any column, unknown last, flat or within groups. */

const at = '2030-01-01T00:05:00.000Z';
function row(n: number, change: Partial<Panel> = {}, state: Partial<PanelHealth> | null = {}): TableRow {
  const panel = samplePanel(n, { signedIn: true, lastEmail: 'a@b.c', lastCheck: { at, ok: true }, ...change });
  const health = state === null ? undefined : sampleHealth(panel, at, state);
  return { panel, health, attention: panelAttention(panel, health) };
}
const names = (rows: readonly TableRow[], table: Parameters<typeof tableItems>[1]) =>
  tableItems(rows, table).map((item) => (item.kind === 'row' ? item.row.panel.name : `[${item.name}]`));

test('state sorts the worst first across groups; ties by name, the numbers in names as numbers', () => {
  const rows = [
    row(1, { name: 'web 10', group: 'A' }),
    row(2, { name: 'web 9', group: 'B' }, { servicesDown: 2 }),
    row(3, { name: 'db', group: 'A', lastCheck: { at, ok: false, error: { code: 'NETWORK', message: 'refused' } } }),
    row(4, { name: 'web 2', group: 'C' }, { disk: { usedGb: 95, totalGb: 100 } }),
  ];
  assert.deepEqual(names(rows, DEFAULT_TABLE), ['db', 'web 9', 'web 2', 'web 10']);
  assert.deepEqual(names(rows, { ...DEFAULT_TABLE, descending: true }), ['web 10', 'web 2', 'web 9', 'db']);
  assert.deepEqual(names(rows, { sortBy: 'name', descending: false, grouped: false }), ['db', 'web 2', 'web 9', 'web 10']);
});

test('a figure sorts by its number, and a panel that said nothing goes last whichever the direction', () => {
  const rows = [
    row(1, { name: 'a' }, { disk: { usedGb: 70, totalGb: 100 } }),
    row(2, { name: 'b' }, null),
    row(3, { name: 'c' }, { disk: { usedGb: 9, totalGb: 100 } }),
  ];
  assert.deepEqual(names(rows, { sortBy: 'disk', descending: false, grouped: false }), ['c', 'a', 'b']);
  assert.deepEqual(names(rows, { sortBy: 'disk', descending: true, grouped: false }), ['a', 'c', 'b']);
  const versions = [row(1, { name: 'a', panelVersion: '2.30.0' }), row(2, { name: 'b', panelVersion: '2.9.1' }), row(3, { name: 'c' })];
  assert.deepEqual(names(versions, { sortBy: 'version', descending: false, grouped: false }), ['b', 'a', 'c']);
});

test('grouped: a heading per group by name, no group last, each sorted within, with its attention count', () => {
  const rows = [
    row(1, { name: 'x', group: 'Beta' }),
    row(2, { name: 'y' }, { servicesDown: 1 }),
    row(3, { name: 'z', group: 'alpha' }, { servicesDown: 1 }),
    row(4, { name: 'w', group: 'Beta' }, { servicesDown: 1 }),
  ];
  assert.deepEqual(names(rows, { ...DEFAULT_TABLE, grouped: true }), ['[alpha]', 'z', '[Beta]', 'w', 'x', '[No group]', 'y']);
  const heading = tableItems(rows, { ...DEFAULT_TABLE, grouped: true }).find((item) => item.kind === 'group' && item.name === 'Beta');
  assert.deepEqual(heading?.kind === 'group' && [heading.count, heading.attention], [2, 1]);
});

test('cells: figures as percentages, unknown empty, the session end and the last check in words', () => {
  const now = Date.parse(at) + 5 * 60_000;
  const one = row(1, { panelVersion: '2.30.1', sessionExpiresAt: '2030-01-02T00:05:00.000Z' }, { servicesDown: 3 });
  const text = (column: keyof typeof COLUMNS) => COLUMNS[column].text(one, now);
  assert.deepEqual([text('disk'), text('memory'), text('cpu'), text('down'), text('version')], ['50%', '25%', '10%', '3', '2.30.1']);
  assert.equal(text('checked'), '5 min ago');
  assert.match(text('session'), /^in /);
  assert.equal(COLUMNS.disk.text(row(2, {}, null), now), '');
  assert.equal(COLUMNS.checked.text(row(2, { lastCheck: null }, null), now), 'never');
  assert.equal(columnWidth(DEFAULT_TABLE, 'name'), COLUMNS.name.width);
  assert.equal(columnWidth({ ...DEFAULT_TABLE, widths: { name: 333 } }, 'name'), 333);
});

test('the reason cell says short phrases, worst first; its title says each sentence in full', () => {
  const unreachable = row(
    1,
    { lastCheck: { at, ok: false, error: { code: 'NETWORK', message: 'connect ECONNREFUSED 10.0.0.1:443' } } },
    {
      disk: { usedGb: 95, totalGb: 100 },
    },
  );
  assert.equal(COLUMNS.reason.text(unreachable, Date.parse(at)), 'Unreachable · Disk 95% full');
  assert.match(reasonInFull(unreachable, Date.parse(at)), /^Unreachable: connect ECONNREFUSED 10\.0\.0\.1:443 · Disk 95% full/);
  const down = row(2, {}, { servicesDown: 2, downServices: ['shop/web', 'shop/api'] });
  assert.equal(COLUMNS.reason.text(down, Date.parse(at)), 'web, api down');
  assert.equal(reasonInFull(down, Date.parse(at)), '2 services down: shop/web, shop/api');
  const expired = row(3, {
    signedIn: false,
    signedOutReason: { code: 'UNAUTHORIZED', message: 'The panel said 401: the token has expired.' },
  });
  assert.equal(COLUMNS.reason.text(expired, Date.parse(at)), 'Session expired');
  assert.equal(COLUMNS.reason.text(row(4), Date.parse(at)), '');
});

test('names and groups are as wide as their longest text, within bounds; the operator’s width wins', () => {
  // A measure of 7 px a letter: the widths follow the texts, whatever the font.
  const measure = (text: string) => text.length * 7;
  const rows = [row(1, { name: 'db', group: 'Acme' }), row(2, { name: 'web', group: 'Globex Corporation Europe' })];
  const fitted = fittedWidths(rows, measure);
  assert.equal(fitted.group, 'Globex Corporation Europe'.length * 7 + 16);
  assert.equal(fitted.name, 90, 'short names: the column keeps its least width');
  assert.equal(columnWidth(DEFAULT_TABLE, 'group', fitted), fitted.group);
  assert.equal(columnWidth({ ...DEFAULT_TABLE, widths: { group: 70 } }, 'group', fitted), 70);
  assert.equal(columnWidth(DEFAULT_TABLE, 'reason', fitted), COLUMNS.reason.width, 'a column not fitted keeps its default');
  const long = fittedWidths([row(3, { name: 'x'.repeat(200) })], measure);
  assert.equal(long.name, 260, 'a very long name: the bound');
  // Among 10,000 rows the longest is found, though only a few texts are measured.
  const many = Array.from({ length: 10_000 }, (_, n) =>
    row(n + 10, { group: n === 7_777 ? 'The longest group of them all' : `G${n % 50}` }),
  );
  let measured = 0;
  const counted = fittedWidths(many, (text) => {
    measured += 1;
    return measure(text);
  });
  assert.equal(counted.group, 'The longest group of them all'.length * 7 + 16);
  assert.ok(measured <= 2 * 9, `measured ${measured} texts`);
});
