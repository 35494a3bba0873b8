import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { countStates, readServiceList, rosterStates } from '../../../../electron/core/easypanel/service-answers.ts';
import { readStoredHealth } from '../../../../electron/core/storage/health-record.ts';

/** Counting a panel's services by state for the panel list, and reading the state back from checks.json. */

const roster = [
  { projectName: 'shop', name: 'web', disabled: false },
  { projectName: 'shop', name: 'db', disabled: false },
  { projectName: 'blog', name: 'site', disabled: true },
  { projectName: 'blog', name: 'cache', disabled: false },
];

describe('counting states', () => {
  test('by the kept list and the task stats; a deploy in flight counts as deploying; keys the list lacks are named', () => {
    const stats = {
      shop_web: { actual: 0, desired: 1 },
      shop_db: { actual: 1, desired: 1 },
      blog_site: { actual: 0, desired: 0 },
      new_one: {},
    };
    const deploying = (project: string, name: string) => project === 'blog' && name === 'cache';
    assert.deepEqual(countStates(roster, stats, deploying), {
      counts: { down: 1, running: 1, disabled: 1, deploying: 1 },
      unlisted: ['new_one'],
      down: ['shop/web'],
    });
    assert.deepEqual(countStates(roster, stats).counts, { down: 1, running: 1, disabled: 1, unknown: 1 });
  });

  test('without a list, each task stats entry counts by its tasks', () => {
    const stats = { a_b: { actual: 1, desired: 1 }, c_d: { actual: '0', desired: '2' }, e_f: { actual: 0, desired: 0 }, g_h: 'no' };
    assert.deepEqual(countStates(null, stats), { counts: { running: 1, down: 1, stopped: 1, unknown: 1 }, unlisted: [], down: null });
  });

  test('any answer at all counts without a throw, and the counts add up to the list', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (answer) => {
        const { counts } = countStates(roster, answer);
        assert.equal(
          Object.values(counts).reduce((sum, count) => sum + count, 0),
          roster.length,
        );
      }),
    );
  });
});

describe("each kept service's state", () => {
  test('is what a list read with the same task stats derives, for any services and answer (the fleet state and the Services tab agree)', () => {
    const names = fc.constantFrom('shop', 'web', 'db', 'a_b', 'b');
    const listed = fc.array(
      fc.record({ projectName: names, name: names, type: fc.constantFrom('app', 'postgres'), enabled: fc.boolean() }),
      {
        maxLength: 8,
      },
    );
    const replicas = fc.oneof(fc.record({ actual: fc.nat(3), desired: fc.nat(3) }), fc.jsonValue());
    fc.assert(
      fc.property(listed, fc.dictionary(fc.string({ maxLength: 6 }), replicas), (services, stats) => {
        const read = readServiceList({ services }, stats);
        const roster = read.services.map(({ projectName, name, type, state }) => ({
          projectName,
          name,
          type,
          disabled: state === 'disabled',
        }));
        assert.deepEqual(
          rosterStates(roster, stats).map(({ entry, state, replicas: tasks }) => ({ ...entry, state, replicas: tasks })),
          read.services.map((summary) => ({ ...summary, disabled: summary.state === 'disabled' })),
        );
      }),
    );
  });
});

describe('the stored state', () => {
  const stored = {
    readAt: '2026-11-25T10:00:00.000Z',
    servicesDown: 2,
    services: { running: 8, down: 2 },
    cpuPercent: 12.5,
    memory: { usedMb: 3120.44, totalMb: null },
    disk: { usedGb: 31.2, totalGb: 78.63 },
    downServices: ['shop/web', 'shop/api'],
    problem: { at: '2026-11-25T10:00:00.000Z', code: 'TIMEOUT', message: 'slow', routesMissing: false },
  };

  test('reads back what a check wrote', () => {
    assert.deepEqual(readStoredHealth(stored), stored);
    assert.deepEqual(readStoredHealth({ ...stored, services: null, servicesDown: null, problem: null }), {
      ...stored,
      services: null,
      servicesDown: null,
      problem: null,
      downServices: null,
    });
  });

  test('reads a file written before the names of services down and routesMissing were kept: not known, never lost', () => {
    const { downServices: _names, problem, ...older } = stored;
    const { routesMissing: _missing, ...olderProblem } = problem;
    assert.deepEqual(readStoredHealth({ ...older, problem: olderProblem }), {
      ...stored,
      downServices: null,
      problem: { ...olderProblem, routesMissing: false },
    });
    assert.deepEqual(readStoredHealth({ ...stored, downServices: 'shop/web' })?.downServices, null, 'names that are not a list');
  });

  test('refuses what this version would not write', () => {
    for (const damaged of [
      null,
      { ...stored, readAt: 'yesterday' },
      { ...stored, services: { sleeping: 1 } },
      { ...stored, services: { down: -1 } },
      { ...stored, servicesDown: 1.5 },
      { ...stored, cpuPercent: '12' },
      { ...stored, memory: { usedMb: 1 } },
      { ...stored, problem: { at: stored.readAt, code: 'NOPE', message: '' } },
    ]) {
      assert.equal(readStoredHealth(damaged), null, JSON.stringify(damaged));
    }
  });
});
