import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastRunsOf, schedulesOf, servicesOf, unprotectedOf } from '../../../../electron/core/backups/backup-answers.ts';

/** The backup answers read with their shapes checked: anything else throws (a problem), never reads as "no backups". */

const service = { projectName: 'shop', serviceName: 'db' };

test('schedules: an array of {id, enabled, schedule}; anything else throws', () => {
  assert.deepEqual(schedulesOf([{ id: 'b1', enabled: true, schedule: '0 3 * * *', retention: 7 }], 'database', service), [
    { kind: 'database', id: 'b1', ...service, schedule: '0 3 * * *', enabled: true, lastRun: null },
  ]);
  assert.deepEqual(schedulesOf([], 'volume', service), []);
  for (const garbage of [null, {}, 'text', { items: [] }, [{ id: 'b1' }], [{ id: '../x', enabled: true }], [{ enabled: true }], [42]]) {
    assert.throws(() => schedulesOf(garbage, 'database', service), { code: 'BAD_RESPONSE' }, JSON.stringify(garbage));
  }
});

test('services: a service list with `services`; anything else throws', () => {
  assert.deepEqual(servicesOf({ services: [{ projectName: 'shop', name: 'db', type: 'postgres' }, { name: 'bad' }] }), [
    { projectName: 'shop', serviceName: 'db', type: 'postgres' },
  ]);
  assert.throws(() => servicesOf([]), { code: 'BAD_RESPONSE' });
});

test('last runs: the newest of the type per service, other types left out; a history that is no list throws', () => {
  const runs = lastRunsOf(
    [
      { id: 'a3', type: 'build', status: 'error', projectName: 'shop', serviceName: 'db', createdAt: '2030-01-03T00:00:00Z' },
      { id: 'a2', type: 'backup', status: 'error', projectName: 'shop', serviceName: 'db', createdAt: '2030-01-02T00:00:00Z' },
      { id: 'a1', type: 'backup', status: 'done', projectName: 'shop', serviceName: 'db', createdAt: '2030-01-01T00:00:00Z' },
    ],
    'database',
    () => false,
  );
  assert.deepEqual([...runs], [['shop/db', { at: '2030-01-02T00:00:00.000Z', status: 'error' }]]);
  assert.throws(() => lastRunsOf({ nope: true }, 'database', () => false), { code: 'BAD_RESPONSE' });
});

test('unprotected: database services with no enabled database schedule', () => {
  const services = [
    { projectName: 'shop', serviceName: 'db', type: 'postgres' },
    { projectName: 'shop', serviceName: 'off', type: 'redis' },
    { projectName: 'shop', serviceName: 'web', type: 'app' },
  ];
  const schedules = [
    { kind: 'database' as const, id: 'b1', projectName: 'shop', serviceName: 'db', schedule: '', enabled: true, lastRun: null },
    { kind: 'database' as const, id: 'b2', projectName: 'shop', serviceName: 'off', schedule: '', enabled: false, lastRun: null },
  ];
  assert.deepEqual(unprotectedOf(services, schedules), [{ projectName: 'shop', serviceName: 'off' }]);
});
