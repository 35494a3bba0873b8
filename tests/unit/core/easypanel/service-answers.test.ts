import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  cleanName,
  deriveState,
  readCount,
  readNumber,
  readReplicas,
  readServerLoad,
  readServiceList,
} from '../../../../electron/core/easypanel/service-answers.ts';
import { SERVICE_STATES } from '../../../../shared/services.ts';

/** Reading a panel's answers about its services and load: the states, and answers no panel should send. */

describe('the state of a service', () => {
  const cases = [
    { enabled: true, replicas: { actual: 1, desired: 1 }, state: 'running' },
    { enabled: true, replicas: { actual: 3, desired: 2 }, state: 'running' },
    { enabled: true, replicas: { actual: 0, desired: 0 }, state: 'stopped' },
    { enabled: true, replicas: { actual: 0, desired: 1 }, state: 'down' },
    { enabled: true, replicas: { actual: 1, desired: 2 }, state: 'down' },
    { enabled: true, replicas: null, state: 'unknown' },
    { enabled: undefined, replicas: { actual: 1, desired: 1 }, state: 'running' },
    // `enabled` is a setting, not "running": false is disabled whatever the tasks say.
    { enabled: false, replicas: { actual: 1, desired: 1 }, state: 'disabled' },
    { enabled: false, replicas: null, state: 'disabled' },
  ] as const;
  for (const { enabled, replicas, state } of cases) {
    test(`enabled ${enabled}, tasks ${JSON.stringify(replicas)}: ${state}`, () => {
      assert.equal(deriveState(enabled, replicas, false), state);
    });
  }

  test('a deploy under way is deploying, before anything else', () => {
    assert.equal(deriveState(false, { actual: 0, desired: 1 }, true), 'deploying');
  });
});

describe('figures', () => {
  test('numbers and numeric text are read; anything else is null', () => {
    assert.equal(readNumber(12.5), 12.5);
    assert.equal(readNumber('7976.26'), 7976.26);
    assert.equal(readNumber(' 42 '), 42);
    assert.equal(readNumber('1e3'), 1000);
    for (const value of ['', 'NaN', 'Infinity', '12 GB', '-1', '0x10', null, undefined, {}, [], true, -3, Number.NaN, Infinity]) {
      assert.equal(readNumber(value), null, JSON.stringify(value));
    }
    assert.equal(readCount('2'), 2);
    assert.equal(readCount(1.5), null);
  });

  test('replicas need both counts', () => {
    assert.deepEqual(readReplicas({ actual: '1', desired: 2 }), { actual: 1, desired: 2 });
    assert.equal(readReplicas({ actual: 1 }), null);
    assert.equal(readReplicas({ actual: 1, desired: 'two' }), null);
    assert.equal(readReplicas([1, 1]), null);
  });
});

describe('a list of projects and services', () => {
  const list = {
    projects: [{ name: 'shop', createdAt: '2026-01-01' }, { name: 'blog' }],
    services: [
      { projectName: 'shop', name: 'web', type: 'app', enabled: true },
      { projectName: 'shop', name: 'db', type: 'postgres', enabled: false },
      { projectName: 'blog', name: 'site', type: 'wordpress', enabled: true },
      { projectName: 'blog', name: 'cache', type: 'redis', enabled: true },
      { projectName: 'lost', name: 'api', type: 'app' },
    ],
  };
  const stats = { shop_web: { actual: 1, desired: 1 }, shop_db: { actual: 0, desired: 0 }, blog_site: { actual: '0', desired: '1' } };

  test('each service with its state and replicas; a project named only by its services is listed too', () => {
    const read = readServiceList(list, stats);
    assert.deepEqual(read.projects, [{ name: 'shop' }, { name: 'blog' }, { name: 'lost' }]);
    assert.deepEqual(read.services, [
      { projectName: 'shop', name: 'web', type: 'app', state: 'running', replicas: { actual: 1, desired: 1 } },
      { projectName: 'shop', name: 'db', type: 'postgres', state: 'disabled', replicas: { actual: 0, desired: 0 } },
      { projectName: 'blog', name: 'site', type: 'wordpress', state: 'down', replicas: { actual: 0, desired: 1 } },
      { projectName: 'blog', name: 'cache', type: 'redis', state: 'unknown', replicas: null },
      { projectName: 'lost', name: 'api', type: 'app', state: 'unknown', replicas: null },
    ]);
    assert.equal(read.truncated, false);
  });

  test('without task stats every state comes from the setting alone', () => {
    const states = readServiceList(list, null).services.map((service) => service.state);
    assert.deepEqual(states, ['unknown', 'disabled', 'unknown', 'unknown', 'unknown']);
  });

  test('the deploying hook', () => {
    const read = readServiceList(list, stats, { deploying: (project, name) => project === 'shop' && name === 'web' });
    assert.equal(read.services[0]?.state, 'deploying');
    assert.equal(read.services[1]?.state, 'disabled');
  });

  test('answers of the wrong shape read as empty, never a throw', () => {
    for (const answer of [null, undefined, 'text', 42, [], { projects: 'x', services: { a: 1 } }, { services: [null, 1, 'x', [], {}] }]) {
      assert.deepEqual(readServiceList(answer, answer), { projects: [], services: [], truncated: false }, JSON.stringify(answer));
    }
  });

  test('missing fields: a service without a name is left out; no type reads as unknown', () => {
    const read = readServiceList({ services: [{ projectName: 'a' }, { name: 'b' }, { projectName: 'a', name: 'b', type: 7 }] }, {});
    assert.deepEqual(read.services, [{ projectName: 'a', name: 'b', type: 'unknown', state: 'unknown', replicas: null }]);
  });

  test('names with control and reordering characters are shown with a replacement mark, and shortened', () => {
    const hostile = 'we\u0000b\u001b[31m\u202Eevil\u200B';
    const read = readServiceList({ services: [{ projectName: 'p\nq', name: hostile, type: 'app\u0007' }] }, {});
    const [service] = read.services;
    assert.equal(service?.name, 'we\uFFFDb\uFFFD[31m\uFFFDevil\uFFFD');
    assert.equal(service?.projectName, 'p\uFFFDq');
    assert.equal(service?.type, 'app\uFFFD');
    assert.equal(cleanName('x'.repeat(5000))?.length, 200);
    assert.equal(cleanName('\u0000'), '\uFFFD');
    assert.equal(cleanName('   '), null);
  });

  test('task stats are looked up with the panel’s own names, and never from the prototype', () => {
    const read = readServiceList(
      {
        services: [
          { projectName: 'a', name: '\u0007' },
          { projectName: '__proto__', name: 'x' },
          { projectName: 'constructor', name: 'y' },
        ],
      },
      JSON.parse('{"a_\\u0007": {"actual": 1, "desired": 1}, "__proto__": {"actual": 1, "desired": 1}}'),
    );
    assert.deepEqual(
      read.services.map((service) => service.state),
      ['running', 'unknown', 'unknown'],
    );
  });

  test('a huge list stops at the limit, and says so', () => {
    // Past the limit, an item notes that it was read: the reader stops at the limit (the one item
    // after it tells that the list goes on), never walking all 50,000. Counted, not timed: tests
    // never assert wall-clock times.
    const readPastLimit = new Set<number>();
    const services = Array.from({ length: 50_000 }, (_, index) => {
      const item = { projectName: `p${index % 100}`, name: `s${index}`, type: 'app' };
      if (index < 10_000) return item;
      const noted =
        <K extends keyof typeof item>(key: K) =>
        () => {
          readPastLimit.add(index);
          return item[key];
        };
      return Object.defineProperties(
        {},
        {
          projectName: { enumerable: true, get: noted('projectName') },
          name: { enumerable: true, get: noted('name') },
          type: { enumerable: true, get: noted('type') },
        },
      );
    });
    const read = readServiceList({ projects: [], services }, {}, { limit: 10_000 });
    assert.deepEqual([...readPastLimit], [10_000], 'only the first service past the limit was read');
    assert.equal(read.services.length, 10_000);
    assert.equal(read.truncated, true);
    assert.equal(read.projects.length, 100);
  });

  test('deep nesting inside an item is never walked', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 100_000; level++) deep = { deeper: deep };
    const read = readServiceList(
      { services: [{ projectName: 'a', name: 'b', type: 'app', deploy: deep }] },
      { a_b: { actual: deep, desired: 1 } },
    );
    assert.deepEqual(read.services[0]?.replicas, null);
  });

  test('any JSON at all reads without a throw, and every state is one of the six', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (list, stats) => {
        const read = readServiceList(list, stats);
        for (const service of read.services) assert.ok(SERVICE_STATES.includes(service.state));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ projectName: fc.string(), name: fc.string(), type: fc.anything(), enabled: fc.anything() })),
        fc.dictionary(fc.string(), fc.record({ actual: fc.anything(), desired: fc.anything() })),
        (services, stats) => {
          readServiceList({ services }, stats);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the server load', () => {
  test('the figures, memory and disk from strings', () => {
    const load = readServerLoad({
      uptime: 1221900,
      memInfo: { totalMemMb: '7976.26', usedMemMb: '3120.44', usedMemPercentage: '39.12' },
      diskInfo: { totalGb: '78.63', usedGb: '31.20', usedPercentage: '39.68' },
      cpuInfo: { usedPercentage: 12.5, count: 4, loadavg: [0.5, 0.4, 0.3] },
    });
    assert.deepEqual(load, {
      uptimeSeconds: 1221900,
      cpuPercent: 12.5,
      memory: { usedMb: 3120.44, totalMb: 7976.26 },
      disk: { usedGb: 31.2, totalGb: 78.63 },
    });
  });

  test('what the panel does not say is null', () => {
    const nothing = {
      uptimeSeconds: null,
      cpuPercent: null,
      memory: { usedMb: null, totalMb: null },
      disk: { usedGb: null, totalGb: null },
    };
    for (const answer of [null, 'x', [], {}, { memInfo: 'full', diskInfo: [], cpuInfo: { usedPercentage: 'high' }, uptime: '-5' }]) {
      assert.deepEqual(readServerLoad(answer), nothing, JSON.stringify(answer));
    }
    assert.deepEqual(readServerLoad({ diskInfo: { usedGb: '10' } }).disk, { usedGb: 10, totalGb: null });
  });

  test('figures no server has are not taken: NaN and Infinity as text, negative, past a percent, a century, a petabyte', () => {
    const load = readServerLoad({
      uptime: 4e9,
      cpuInfo: { usedPercentage: 5000 },
      memInfo: { usedMemMb: 'NaN', totalMemMb: 2e9 },
      diskInfo: { usedGb: -1, totalGb: 'Infinity' },
    });
    assert.deepEqual(load, {
      uptimeSeconds: null,
      cpuPercent: null,
      memory: { usedMb: null, totalMb: null },
      disk: { usedGb: null, totalGb: null },
    });
    assert.deepEqual(readServerLoad({ cpuInfo: { usedPercentage: '100' }, uptime: 0 }), {
      uptimeSeconds: 0,
      cpuPercent: 100,
      memory: { usedMb: null, totalMb: null },
      disk: { usedGb: null, totalGb: null },
    });
  });
});
