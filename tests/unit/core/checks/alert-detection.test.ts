import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  type AlertCondition,
  answerOf,
  type DetectedAlert,
  diskPercent,
  judgeCheck,
  type PanelObservation,
  sameCondition,
  sessionRenewed,
} from '../../../../electron/core/checks/alert-detection.ts';

const SERVICES = ['shop/web', 'shop/db', 'blog/app'];
const observation = fc.record({
  answer: fc.constantFrom('proper' as const, 'none' as const, 'certificateChanged' as const, 'badAnswer' as const, null),
  down: fc.option(fc.subarray(SERVICES), { nil: null }),
  diskPercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
});
const THRESHOLD = 90;

interface Step {
  raised: DetectedAlert[];
  cleared: AlertCondition[];
  /** The conditions with an unresolved alert after the step. */
  unresolved: AlertCondition[];
}

const conditionOf = (alert: DetectedAlert): AlertCondition => ({
  kind: alert.kind,
  service: alert.kind === 'serviceDown' ? alert.service : null,
});

/** Runs a sequence of observations through detection as the checks of one panel would, the alert list kept as the core keeps it. */
function run(sequence: readonly PanelObservation[], start?: PanelObservation): Step[] {
  let kept = start;
  let unresolved: AlertCondition[] = [];
  return sequence.map((next) => {
    const result = judgeCheck(kept, next, unresolved, THRESHOLD);
    kept = result.kept;
    unresolved = [...unresolved.filter((open) => !result.cleared.includes(open)), ...result.raised.map(conditionOf)];
    return { raised: result.raised, cleared: result.cleared, unresolved };
  });
}

/** Whether a reading tells that the condition is gone, worked out apart from the code under test. */
function clearIn(condition: AlertCondition, seen: PanelObservation): boolean {
  if (condition.kind === 'serviceDown') return seen.down !== null && !seen.down.includes(condition.service ?? '');
  if (condition.kind === 'diskFull') return seen.diskPercent !== null && seen.diskPercent < THRESHOLD;
  if (condition.kind === 'unreachable') return seen.answer !== null && seen.answer !== 'none';
  return seen.answer === 'proper';
}

/** The known values of one figure, in order, unknowns dropped: what "a change" is judged on. */
const known = <T>(values: readonly (T | null)[]): T[] => values.filter((value): value is T => value !== null);
const risingEdges = (flags: readonly boolean[]) => flags.filter((flag, i) => i > 0 && flag && !flags[i - 1]).length;
const raisedOf = (steps: readonly Step[], kind: DetectedAlert['kind']) =>
  steps.flatMap((step) => step.raised).filter((alert) => alert.kind === kind);

test('a condition that holds raises nothing more: the same observation again is silent', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 8 }), observation, fc.integer({ min: 1, max: 5 }), (before, held, repeats) => {
      const steps = run([...before, ...Array.from({ length: repeats + 1 }, () => held)]);
      for (const later of steps.slice(before.length + 1)) {
        assert.deepEqual(later.raised, []);
        assert.deepEqual(later.cleared, []);
      }
    }),
  );
});

test('never two unresolved alerts of one condition: an open or acknowledged alert is not raised again while it holds', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 30 }), (sequence) => {
      for (const step of run(sequence)) {
        for (const [i, condition] of step.unresolved.entries())
          assert.equal(
            step.unresolved.findIndex((other) => sameCondition(other, condition)),
            i,
            `${condition.kind} ${condition.service}`,
          );
      }
    }),
  );
});

test('resolved at the first reading that finds it cleared, and never by an unknown reading', () => {
  fc.assert(
    fc.property(fc.array(observation, { minLength: 1, maxLength: 30 }), (sequence) => {
      const steps = run(sequence);
      for (const [i, step] of steps.entries()) {
        const before = i === 0 ? [] : steps[i - 1]!.unresolved;
        const next = sequence[i]!;
        assert.deepEqual(
          step.cleared,
          before.filter((condition) => clearIn(condition, next)),
        );
      }
    }),
  );
});

test('once per change: each service alerts exactly at each rise from up to down over its known listings', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 30 }), (sequence) => {
      const steps = run(sequence);
      // The first known listing is the baseline: what is down in it raises nothing.
      const listings = known(sequence.map((step) => step.down));
      for (const service of SERVICES) {
        const raised = raisedOf(steps, 'serviceDown').filter((alert) => alert.kind === 'serviceDown' && alert.service === service).length;
        assert.equal(raised, risingEdges(listings.map((down) => down.includes(service))));
      }
    }),
  );
});

test('once per change: the disk alerts at each crossing of the threshold, and a panel at each fall to no answer', () => {
  fc.assert(
    fc.property(fc.array(observation, { maxLength: 30 }), (sequence) => {
      const steps = run(sequence);
      const disks = known(sequence.map((step) => step.diskPercent)).map((percent) => percent >= THRESHOLD);
      assert.equal(raisedOf(steps, 'diskFull').length, risingEdges(disks));
      const answers = known(sequence.map((step) => step.answer)).map((answer) => answer === 'none');
      assert.equal(raisedOf(steps, 'unreachable').length, risingEdges(answers));
    }),
  );
});

test('a changed certificate and a bad answer alert once per change and resolve only at a proper answer', () => {
  const at = (answer: PanelObservation['answer']): PanelObservation => ({ answer, down: null, diskPercent: null });
  const steps = run(
    ['proper', 'certificateChanged', 'none', 'certificateChanged', 'proper', 'badAnswer', 'badAnswer', 'proper'].map((a) =>
      at(a as PanelObservation['answer']),
    ),
  );
  assert.deepEqual(
    steps.map((step) => step.raised.map((alert) => alert.kind)),
    [[], ['certificateChanged'], ['unreachable'], [], [], ['badAnswer'], [], []],
  );
  assert.deepEqual(
    steps.map((step) => step.cleared.map((condition) => condition.kind)),
    [[], [], [], ['unreachable'], ['certificateChanged'], [], [], ['badAnswer']],
  );
});

test('a panel never observed is the baseline; one observed before (the last run) raises what changed, once', () => {
  const bad = { answer: 'none' as const, down: ['shop/web'], diskPercent: 99 };
  const healthy = { answer: 'proper' as const, down: [], diskPercent: 10 };
  assert.deepEqual(judgeCheck(undefined, bad, [], THRESHOLD).raised, []);
  const afterRestart = run([bad, bad], healthy);
  assert.deepEqual(afterRestart[0]!.raised, [
    { kind: 'serviceDown', service: 'shop/web' },
    { kind: 'diskFull', percent: 99 },
    { kind: 'unreachable' },
  ]);
  assert.deepEqual(afterRestart[1]!.raised, []);
  assert.equal(run([healthy, bad, healthy])[2]!.cleared.length, 3, 'back to healthy resolves each');
  // Faults found at the baseline have no alert to resolve; once cleared, their return is news.
  const cycle = run([bad, healthy, bad]);
  assert.deepEqual(cycle[0]!.raised, []);
  assert.equal(cycle[1]!.cleared.length, 0);
  assert.equal(cycle[2]!.raised.length, 3);
});

test('an alert kept without its service (an older file) resolves once nothing is down', () => {
  const old: AlertCondition = { kind: 'serviceDown', service: null };
  const base = { answer: 'proper' as const, down: ['shop/web'], diskPercent: 10 };
  assert.deepEqual(judgeCheck(base, { ...base, down: ['shop/db'] }, [old], THRESHOLD).cleared, []);
  assert.deepEqual(judgeCheck(base, { ...base, down: [] }, [old], THRESHOLD).cleared, [old]);
});

test('answers: a proper check, no answer, a changed certificate, a page; a refusal tells nothing', () => {
  assert.equal(answerOf({ ok: true }), 'proper');
  assert.equal(answerOf({ ok: false, error: { code: 'TIMEOUT' } }), 'none');
  assert.equal(answerOf({ ok: false, error: { code: 'CERTIFICATE_CHANGED' } }), 'certificateChanged');
  assert.equal(answerOf({ ok: false, error: { code: 'BAD_RESPONSE' } }), 'badAnswer');
  assert.equal(answerOf({ ok: false, error: { code: 'UNAUTHORIZED' } }), null);
});

test('disk percent: null unless both figures are known and the total is above zero', () => {
  assert.equal(diskPercent({ usedGb: 45, totalGb: 50 }), 90);
  assert.equal(diskPercent({ usedGb: 1, totalGb: 0 }), null);
  assert.equal(diskPercent({ usedGb: null, totalGb: 50 }), null);
  assert.equal(diskPercent({ usedGb: 80, totalGb: 50 }), 100);
});

test('a session-ending alert is over once a check finds a later end than it could have warned of, or none', () => {
  const at = '2030-01-01T12:00:00.000Z';
  assert.equal(sessionRenewed(at, '2030-01-01T12:09:00.000Z', 10), false, 'the session warned of');
  assert.equal(sessionRenewed(at, '2030-01-31T12:00:00.000Z', 10), true, 'a new log in');
  assert.equal(sessionRenewed(at, null, 10), true, 'an API token, which never ends');
});
