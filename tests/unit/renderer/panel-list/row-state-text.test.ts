import assert from 'node:assert/strict';
import { test } from 'node:test';
import { panelRow } from '../../../../renderer/panel-list/panel-rows.ts';
import { rowStateText } from '../../../../renderer/panel-list/row-texts.ts';
import { COLUMNS } from '../../../../renderer/panel-list/table-columns.ts';
import { sampleHealth, samplePanel } from '../../../support/panel-fixture.ts';

/** What the list's row and the table's cells say of a panel's state (issue 31): the word, the services by name, the figures' age. */

const at = '2030-01-01T12:00:00.000Z';
const now = Date.parse('2030-01-01T15:00:00.000Z');
const signedIn = samplePanel(1, { signedIn: true, lastEmail: 'ops@example.com', lastCheck: { at, ok: true } });
const row = (panel = signedIn, change: Parameters<typeof sampleHealth>[2] = {}) =>
  panelRow(new WeakMap(), panel, sampleHealth(panel, at, change));

test('the list row: services down by name, "State unknown" for a state not understood, nothing for an OK panel', () => {
  assert.deepEqual(rowStateText(row(signedIn, { servicesDown: 2, downServices: ['shop/web', 'shop/api'] }), now), {
    text: 'web, api down',
    asOf: null,
    tab: 'services',
  });
  const unknown = row(signedIn, { servicesDown: null, problem: { at, code: 'TIMEOUT', message: 'slow', routesMissing: false } });
  assert.equal(rowStateText(unknown, now)?.text, 'State unknown');
  assert.equal(rowStateText(row(), now), null);
});

test('stale figures say their age in the row and the table, and the table\u2019s Down is "?" when not known, never blank or 0', () => {
  const unreachable = {
    ...signedIn,
    lastCheck: { at: '2030-01-01T14:59:00.000Z', ok: false as const, error: { code: 'NETWORK' as const, message: 'refused' } },
  };
  const stale = row(unreachable);
  assert.deepEqual(rowStateText(stale, now), { text: 'Unreachable', asOf: 'as of 3 h ago', tab: null });
  assert.match(COLUMNS.reason.text(stale, now), /figures as of 3 h ago$/);
  const unknown = row(signedIn, { servicesDown: null, problem: { at, code: 'BAD_RESPONSE', message: 'garbage', routesMissing: false } });
  assert.equal(COLUMNS.down.text(unknown, now), '?');
  assert.equal(COLUMNS.state.text(unknown, now), 'State unknown');
  assert.equal(COLUMNS.down.text(row(), now), '0');
});

test('services down: the first two by name, then how many more, and the text opens the Services tab (issue 35)', () => {
  const names = ['shop/web', 'shop/api', 'shop/worker', 'blog/db', 'blog/files'];
  assert.deepEqual(rowStateText(row(signedIn, { servicesDown: 5, downServices: names }), now), {
    text: 'web, api +3 down',
    asOf: null,
    tab: 'services',
  });
  // Fewer names than services down (the check kept only some): the rest are in the count.
  assert.equal(rowStateText(row(signedIn, { servicesDown: 3, downServices: ['shop/web'] }), now)?.text, 'web +2 down');
  assert.equal(rowStateText(row(signedIn, { servicesDown: 1, downServices: ['shop/web'] }), now)?.text, 'web down');
  // Not named at all: the count, still a way to the services.
  assert.deepEqual(rowStateText(row(signedIn, { servicesDown: 1, downServices: null }), now), {
    text: '1 service down',
    asOf: null,
    tab: 'services',
  });
  // A full disk with every service up says the disk, which the Services tab does not show.
  assert.equal(rowStateText(row(signedIn, { servicesDown: 0, disk: { usedGb: 95, totalGb: 100 } }), now)?.tab, null);
});
