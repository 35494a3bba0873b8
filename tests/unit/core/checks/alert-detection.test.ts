import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type DetectedAlert, detectAlerts, diskPercent, type PanelObservation } from '../../../../electron/core/checks/alert-detection.ts';

const SERVICES = ['shop/web', 'shop/db', 'blog/app'];
const observation = fc.record({
  answered: fc.constantFrom(true, false, null),
  down: fc.option(fc.subarray(SERVICES), { nil: null }),
  diskPercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
});
const THRESHOLD = 90;

/** Runs a sequence of observations through detection, as the checks of one panel would. */
function run(sequence: readonly PanelObservation[]): DetectedAlert[][] {
  let kept: PanelObservation | undefined;
  return sequence.map((next) => {
    const result = detectAlerts(kept, next, THRESHOLD);
    kept = result.kept;
    return result.alerts;
  });
}

/** The known values of one figure, in order, unknowns dropped: what "a change" is judged on. */
const known = <T>(values: readonly (T | null)[]): T[] => values.filter((value): value is T => value !== null);
const risingEdges = (flags: readonly boolean[]) => flags.filter((flag, i) => i > 0 && flag && !flags[i - 1]).length;

test('a condition that holds raises nothing more: the same observation again is silent', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 8 }), observation, fc.integer({ min: 1, max: 5 }), (before, held, repeats) => {
      const alerts = run([...before, ...Array.from({ length: repeats + 1 }, () => held)]);
      for (const later of alerts.slice(before.length + 1)) assert.deepEqual(later, []);
    }),
  );
});

test('once per change: each service alerts exactly at each rise from up to down over its known listings', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 30 }), (sequence) => {
      const alerts = run(sequence).flat();
      // The first known listing is the baseline: what is down in it raises nothing.
      const listings = known(sequence.map((step) => step.down));
      for (const service of SERVICES) {
        const raised = alerts.filter((alert) => alert.kind === 'serviceDown' && alert.service === service).length;
        assert.equal(raised, risingEdges(listings.map((down) => down.includes(service))));
      }
    }),
  );
});

test('once per change: the disk alerts at each crossing of the threshold, not while it stays over', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 30 }), (sequence) => {
      const raised = run(sequence)
        .flat()
        .filter((alert) => alert.kind === 'diskFull').length;
      const edges = risingEdges(known(sequence.map((step) => step.diskPercent)).map((percent) => percent >= THRESHOLD));
      assert.equal(raised, edges);
    }),
  );
});

test('once per change: unreachable alerts only after an answer, once until the panel answers again', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 30 }), (sequence) => {
      const raised = run(sequence)
        .flat()
        .filter((alert) => alert.kind === 'unreachable').length;
      // A fall from answering to not answering, over the known answers.
      const answers = known(sequence.map((step) => step.answered));
      assert.equal(raised, risingEdges(answers.map((answered) => !answered)));
    }),
  );
});

test('the first observation of a run is the baseline: nothing is raised for what was already so', () => {
  const bad = { answered: false, down: ['shop/web'], diskPercent: 99 };
  assert.deepEqual(detectAlerts(undefined, bad, THRESHOLD).alerts, []);
  const healthy = { answered: true, down: [], diskPercent: 10 };
  const [, , again] = run([healthy, bad, healthy, bad]);
  assert.deepEqual(again, []);
  assert.deepEqual(run([healthy, bad, healthy, bad])[3], [
    { kind: 'serviceDown', service: 'shop/web' },
    { kind: 'diskFull', percent: 99 },
    { kind: 'unreachable' },
  ]);
});

test('disk percent: null unless both figures are known and the total is above zero', () => {
  assert.equal(diskPercent({ usedGb: 45, totalGb: 50 }), 90);
  assert.equal(diskPercent({ usedGb: 1, totalGb: 0 }), null);
  assert.equal(diskPercent({ usedGb: null, totalGb: 50 }), null);
  assert.equal(diskPercent({ usedGb: 80, totalGb: 50 }), 100);
});
