import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { serverLoadProblem, taskStatsProblem } from '../../../../electron/core/checks/state-reading.ts';
import { countStates, readServerLoad } from '../../../../electron/core/easypanel/service-answers.ts';

/** Whether a check understood a panel's task stats and server stats (issue 31: garbage is never "0 down"). */

test('task stats: Easypanel\u2019s shape is understood, an empty panel too; garbage is a problem in the operator\u2019s words', () => {
  assert.equal(taskStatsProblem({ shop_web: { actual: 1, desired: 1 }, shop_api: { actual: '0', desired: '1' } }), null);
  assert.equal(taskStatsProblem({}), null, 'a panel with no tasks');
  for (const garbage of ['garbage', [1, 2], null, 7, { shop_web: 'running' }, { shop_web: { actual: 1 } }]) {
    const problem = taskStatsProblem(garbage);
    assert.equal(problem?.code, 'BAD_RESPONSE', JSON.stringify(garbage));
    assert.match(problem.message, /^The panel's task stats were not understood: /);
  }
  assert.doesNotMatch(taskStatsProblem('secret-token-text')?.message ?? '', /secret/, 'never the panel\u2019s own text');
});

test('server stats: one figure read is understood; none at all is a problem', () => {
  assert.equal(serverLoadProblem(readServerLoad({ cpuInfo: { usedPercentage: 12.5 } })), null);
  for (const garbage of ['garbage', [], {}, { cpuInfo: 'busy', memInfo: [] }, { diskInfo: { usedGb: 'lots' } }])
    assert.match(serverLoadProblem(readServerLoad(garbage))?.message ?? '', /server stats were not understood/, JSON.stringify(garbage));
});

test('property: task stats the check accepts leave no service unknown; server stats it accepts say a figure', () => {
  const replicas = fc.oneof(fc.record({ actual: fc.nat(4), desired: fc.nat(4) }), fc.jsonValue());
  const answer = fc.oneof(fc.jsonValue(), fc.dictionary(fc.string({ maxLength: 8 }), replicas));
  fc.assert(
    fc.property(answer, (taskStats) => {
      if (taskStatsProblem(taskStats) !== null) return;
      assert.equal(countStates(null, taskStats).counts.unknown, undefined, JSON.stringify(taskStats));
    }),
  );
  fc.assert(
    fc.property(fc.jsonValue(), (stats) => {
      const load = readServerLoad(stats);
      if (serverLoadProblem(load) !== null) return;
      const { uptimeSeconds, cpuPercent, memory, disk } = load;
      assert.ok([uptimeSeconds, cpuPercent, memory.usedMb, memory.totalMb, disk.usedGb, disk.totalGb].some((figure) => figure !== null));
    }),
  );
});
