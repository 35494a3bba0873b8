import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BackupSchedule, PanelBackups } from '../../../../shared/backups.ts';
import { backupGroups, lastRunText } from '../../../../renderer/backups/backup-rows.ts';

/** The Backups view's rows: unprotected first, then failed last runs, then the rest; by panel or client; searched by every word. */

const schedule = (serviceName: string, status: 'done' | 'error' | null, id = serviceName): BackupSchedule => ({
  kind: 'database',
  id,
  projectName: 'shop',
  serviceName,
  schedule: '0 3 * * *',
  enabled: true,
  lastRun: status === null ? null : { at: '2030-01-01T03:00:00.000Z', status },
});
const panel = (panelId: string, backups: BackupSchedule[], unprotected: string[], problem: string | null = null): PanelBackups => ({
  panelId,
  readAt: '2030-01-01T04:00:00.000Z',
  backups,
  unprotected: unprotected.map((serviceName) => ({ projectName: 'shop', serviceName })),
  problem,
});
const panels = new Map([
  ['a', { name: 'Billing', group: 'Acme' }],
  ['b', { name: 'Storefront', group: 'Acme' }],
  ['c', { name: 'Quiet', group: null }],
]);
const read = [
  panel('c', [schedule('files', 'done')], []),
  panel('a', [schedule('web', 'done'), schedule('db', 'error')], ['cache']),
  panel('b', [schedule('orders', null)], ['ledger'], 'The panel did not answer in time.'),
  panel('gone', [schedule('x', 'error')], ['y']),
];
const names = (groups: ReturnType<typeof backupGroups>) =>
  groups.map((group) => `${group.name}: ${group.rows.map((row) => row.serviceName).join(' ')}`);

test('by panel: unprotected first, then failed, then the rest; panels with something to see first; a removed panel left out', () => {
  const groups = backupGroups(read, panels, 'panel', '');
  assert.deepEqual(names(groups), ['Billing: cache db web', 'Storefront: ledger orders', 'Quiet: files']);
  assert.deepEqual(groups[1]!.problems, [{ panelName: 'Storefront', problem: 'The panel did not answer in time.' }]);
  assert.deepEqual(
    groups[0]!.rows.map((row) => row.rowKind),
    ['unprotected', 'failed', 'scheduled'],
  );
});

test('by client: a group holds its panels, ordered the same way; no group is "No group"', () => {
  assert.deepEqual(names(backupGroups(read, panels, 'group', '')), ['Acme: cache ledger db web orders', 'No group: files']);
});

test('search: every word, in the panel, client, service or "failed"', () => {
  assert.deepEqual(names(backupGroups(read, panels, 'panel', 'failed')), ['Billing: db']);
  assert.deepEqual(names(backupGroups(read, panels, 'panel', 'acme ledger')), ['Storefront: ledger']);
  assert.deepEqual(backupGroups(read, panels, 'panel', 'nothing-like-this'), []);
});

test('a last run in words', () => {
  assert.equal(lastRunText(null), 'No enabled backup');
  assert.equal(lastRunText(schedule('db', null)), 'Never run');
  assert.match(lastRunText(schedule('db', 'error')), /^Failed .*\d\d:\d\d$/);
});
