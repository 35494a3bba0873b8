import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import {
  CheckScheduler,
  DEFAULT_TIMING,
  checkDelayMs,
  type PanelCheck,
  type ScheduledPanel,
  type SystemEvent,
} from '../../../../electron/core/schedule/check-scheduler.ts';
import { FakeClock, settle } from '../../../support/fake-clock.ts';

/**
 * The background checker's timing, on a fake clock: every wait is fake time, so nothing here
 * depends on how fast the machine is. `check` is a recording fake; in "manual" mode its calls
 * stay under way until the test finishes or fails them.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** The longest "soon" (after a sign-in, resume, coming online): 1.5 × the soon delay. */
const SOON_MAX = 1.5 * DEFAULT_TIMING.soonDelayMs;

type Outcome = 'ok' | ErrorCode;

/** A small seeded generator (linear congruential), so a "real-ish" random run is the same every time. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function panels(count: number, signedOut: (index: number) => boolean = () => false): ScheduledPanel[] {
  return Array.from({ length: count }, (_, index) => ({ id: `p${index}`, signedIn: !signedOut(index), lastCheckAt: null }));
}

function resultOf(panelId: string, outcome: Outcome, at: number): PanelCheck {
  const checkedAt = new Date(at).toISOString();
  return outcome === 'ok'
    ? { panelId, checkedAt, ok: true }
    : { panelId, checkedAt, ok: false, error: { code: outcome, message: `${outcome} (test)` } };
}

interface HarnessOptions {
  panels: ScheduledPanel[];
  intervalMinutes?: number;
  random?: () => number;
  manual?: boolean;
  online?: boolean;
  /** What a cancelled pass resolves with: nothing (the default) or this outcome for every panel. */
  cancelledWith?: Outcome;
  /** Called at each `check` call, before it is recorded: where a model test checks what may be checked. */
  onCall?: (ids: readonly string[], overlapping: boolean) => void;
}

function harness(options: HarnessOptions) {
  const clock = new FakeClock(Date.parse('2030-01-01T00:00:00Z'));
  const settings = { checkIntervalMinutes: options.intervalMinutes ?? 5 };
  const system = { online: options.online ?? true, listeners: new Set<(event: SystemEvent) => void>() };
  const outcomes = new Map<string, Outcome>();
  const calls: { at: number; ids: string[] }[] = [];
  const errors: unknown[] = [];
  let pending: { ids: string[]; resolve: (results: PanelCheck[]) => void; reject: (error: unknown) => void } | null = null;
  let overlaps = 0;
  let cancels = 0;
  const resultsFor = (ids: readonly string[]) => ids.map((id) => resultOf(id, outcomes.get(id) ?? 'ok', clock.now()));
  const scheduler = new CheckScheduler({
    clock,
    random: options.random ?? seededRandom(7),
    settings: () => settings,
    onError: (error) => errors.push(error),
    system: {
      isOnline: () => system.online,
      onChange: (listener) => {
        system.listeners.add(listener);
        return () => system.listeners.delete(listener);
      },
    },
    check: (ids) => {
      options.onCall?.(ids, pending !== null);
      if (pending) overlaps++;
      calls.push({ at: clock.now(), ids: [...ids] });
      if (!options.manual) return Promise.resolve(resultsFor(ids));
      return new Promise((resolve, reject) => (pending = { ids: [...ids], resolve, reject }));
    },
    cancel: () => {
      cancels++;
      // Like the real checker: a cancelled pass resolves early, with fewer results or failed ones.
      pending?.resolve(options.cancelledWith ? pending.ids.map((id) => resultOf(id, options.cancelledWith ?? 'ok', clock.now())) : []);
      pending = null;
    },
  });
  scheduler.setPanels(options.panels);
  return {
    clock,
    settings,
    scheduler,
    calls,
    errors,
    outcomes,
    system,
    get overlaps() {
      return overlaps;
    },
    get cancels() {
      return cancels;
    },
    get pending() {
      return pending;
    },
    emit(event: SystemEvent): void {
      if (event === 'online' || event === 'offline') system.online = event === 'online';
      for (const listener of [...system.listeners]) listener(event);
    },
    async finish(results?: PanelCheck[]): Promise<void> {
      const call = pending;
      assert.ok(call, 'no check is under way');
      pending = null;
      call.resolve(results ?? resultsFor(call.ids));
      await settle();
    },
    async fail(error: unknown): Promise<void> {
      const call = pending;
      assert.ok(call, 'no check is under way');
      pending = null;
      call.reject(error);
      await settle();
    },
    /** The times `id` was in a `check` call. */
    timesOf(id: string): number[] {
      return calls.filter((call) => call.ids.includes(id)).map((call) => call.at);
    },
    checkedSince(at: number): Set<string> {
      return new Set(calls.filter((call) => call.at >= at).flatMap((call) => call.ids));
    },
  };
}

function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((time, index) => time - (times[index] ?? 0));
}

describe('check scheduler', () => {
  test('the first pass comes after the start delay, spread, with every signed-in panel and no signed-out one', async () => {
    const h = harness({ panels: panels(300, (index) => index % 3 === 0) });
    const started = h.clock.now();
    h.scheduler.start();
    await h.clock.advanceBy(DEFAULT_TIMING.firstPassDelayMs - 1);
    assert.equal(h.calls.length, 0, 'nothing before the start delay');
    await h.clock.advanceBy(DEFAULT_TIMING.firstPassSpreadMs + 1);
    const signedIn = panels(300)
      .filter((_, index) => index % 3 !== 0)
      .map((panel) => panel.id);
    assert.deepEqual([...h.checkedSince(started)].sort(), signedIn.sort());
    assert.equal(h.calls.flatMap((call) => call.ids).length, 200, 'each signed-in panel once');
    assert.ok(h.calls.length >= 5, `spread over the first seconds, not one burst (${h.calls.length} calls)`);
  });

  test('1,000 panels come due again within the interval ± 10 %, spread over many small calls', async () => {
    const h = harness({ panels: panels(1000), random: seededRandom(42) });
    h.scheduler.start();
    await h.clock.advanceBy(DEFAULT_TIMING.firstPassDelayMs + DEFAULT_TIMING.firstPassSpreadMs);
    const firstPassCalls = h.calls.length;
    await h.clock.advanceBy(4 * 5 * MINUTE);
    const later = h.calls.slice(firstPassCalls);
    const largest = Math.max(...later.map((call) => call.ids.length));
    assert.ok(largest <= 50, `no call holds more than 5 % of the fleet (largest: ${largest})`);
    assert.ok(later.length >= 4 * 30, `many ticks per interval (${later.length} over four intervals)`);
    for (let index = 0; index < 1000; index++) {
      const times = h.timesOf(`p${index}`);
      assert.ok(times.length >= 4, `p${index} checked ${times.length} times`);
      for (const gap of gaps(times)) {
        // A panel may go up to one batching window early, with panels due just after it.
        assert.ok(gap >= 0.9 * 5 * MINUTE - DEFAULT_TIMING.batchWindowMs && gap <= 1.1 * 5 * MINUTE, `p${index}: gap ${gap} ms`);
      }
    }
    assert.equal(h.clock.maxPending, 1, 'one timer for the fleet');
  });

  test('interval 0 turns background checks off; back above 0 they restart, with or without a notice', async () => {
    const h = harness({ panels: panels(3) });
    h.scheduler.start();
    await h.clock.advanceBy(20 * SECOND);
    h.settings.checkIntervalMinutes = 0;
    h.scheduler.settingsChanged();
    const offAt = h.clock.now();
    await h.clock.advanceBy(6 * HOUR);
    assert.equal(h.checkedSince(offAt).size, 0, 'nothing checked while off');
    assert.ok(h.clock.pendingCount() <= 1);

    h.settings.checkIntervalMinutes = 5;
    h.scheduler.settingsChanged();
    const onAt = h.clock.now();
    await h.clock.advanceBy(DEFAULT_TIMING.soonDelayMs / 2 - 1);
    assert.equal(h.checkedSince(onAt).size, 0, 'not all at once the moment checks are back');
    await h.clock.advanceBy(SOON_MAX);
    assert.equal(h.checkedSince(onAt).size, 3, 'overdue panels checked soon after the notice');

    h.settings.checkIntervalMinutes = 0; // no notice: the next tick reads it before checking anything
    const silentOffAt = h.clock.now();
    await h.clock.advanceBy(6 * HOUR);
    assert.equal(h.checkedSince(silentOffAt).size, 0, 'nothing once the setting says 0');
    const silentOnAt = h.clock.now();
    h.settings.checkIntervalMinutes = 5;
    await h.clock.advanceBy(DEFAULT_TIMING.offPollMs + SOON_MAX);
    assert.equal(h.checkedSince(silentOnAt).size, 3, 'the setting is re-read while off');
  });

  test('an interval change re-times the schedule: shorter brings checks in, longer pushes them out, "soon" stays soon', async () => {
    const h = harness({ panels: panels(3), manual: true, random: () => 0.5, intervalMinutes: 60 });
    h.scheduler.start();
    await h.clock.advanceBy(10 * SECOND);
    await h.finish();
    await h.clock.advanceBy(HOUR);
    await h.fail(new Error('checker broke')); // now due in 60 min, set by the failure rather than by a check
    const t0 = h.clock.now();
    h.scheduler.recordResults([resultOf('p1', 'ok', t0), resultOf('p2', 'ok', t0)]);
    h.settings.checkIntervalMinutes = 5;
    h.scheduler.settingsChanged();
    assert.deepEqual(
      ['p0', 'p1'].map((id) => h.scheduler.nextCheckAt(id)),
      [t0 + 5 * MINUTE, t0 + 5 * MINUTE],
    );
    h.scheduler.panelChanged({ id: 'p2', signedIn: false, lastCheckAt: null });
    h.scheduler.panelChanged({ id: 'p2', signedIn: true, lastCheckAt: null });
    const p2Soon = h.scheduler.nextCheckAt('p2');
    assert.ok(p2Soon !== null && p2Soon <= t0 + SOON_MAX);
    h.settings.checkIntervalMinutes = 30;
    h.scheduler.settingsChanged();
    assert.equal(h.scheduler.nextCheckAt('p1'), t0 + 30 * MINUTE, 'from the last check, with the new interval');
    assert.equal(h.scheduler.nextCheckAt('p2'), p2Soon, 'a sign-in is still checked soon');
  });

  test('a checker clock that is off does not make a panel due at once', async () => {
    const h = harness({ panels: panels(1), manual: true, random: () => 0.5 });
    h.scheduler.start();
    await h.clock.advanceBy(10 * SECOND);
    const calledAt = h.clock.now();
    await h.clock.advanceBy(2 * SECOND);
    await h.finish([resultOf('p0', 'ok', calledAt - HOUR)]);
    assert.equal(h.scheduler.nextCheckAt('p0'), calledAt + 5 * MINUTE, 'taken as checked when the call began');
  });

  test('odd settings: 0 at start means no pass at all; under a minute counts as a minute; a huge one keeps timers short', async () => {
    const off = harness({ panels: panels(3), intervalMinutes: 0 });
    off.scheduler.start();
    await off.clock.advanceBy(24 * HOUR);
    assert.equal(off.calls.length, 0);

    const tiny = harness({ panels: panels(1), intervalMinutes: 0.001 });
    tiny.scheduler.start();
    await tiny.clock.advanceBy(HOUR);
    assert.ok(gaps(tiny.timesOf('p0')).every((gap) => gap >= 0.9 * MINUTE - DEFAULT_TIMING.batchWindowMs));

    const huge = harness({ panels: panels(1), intervalMinutes: 1e6 });
    huge.scheduler.start();
    await huge.clock.advanceBy(MINUTE);
    // Node would run a timer of more than 2^31−1 ms (about 24.8 days) at once.
    assert.ok((huge.clock.nextTimerAt() ?? 0) - huge.clock.now() <= 24 * HOUR);
    await huge.clock.advanceBy(30 * 24 * HOUR);
    assert.equal(huge.calls.length, 1, 'a timer with nothing due just sets the next one');
  });

  test('a failing panel backs off 5, 10, 20, 40, 60, 60 min; one success brings back the interval', async () => {
    const h = harness({ panels: panels(2), random: () => 0.5 }); // jitter factor exactly 1
    h.outcomes.set('p0', 'NETWORK');
    h.scheduler.start();
    await h.clock.advanceBy(4 * HOUR);
    assert.deepEqual(
      gaps(h.timesOf('p0'))
        .slice(0, 6)
        .map((gap) => gap / MINUTE),
      [5, 10, 20, 40, 60, 60],
    );
    assert.ok(
      gaps(h.timesOf('p1')).every((gap) => gap === 5 * MINUTE),
      'a healthy panel keeps the interval',
    );
    h.outcomes.set('p0', 'ok');
    const healedAt = h.clock.now();
    await h.clock.advanceBy(HOUR + 15 * MINUTE);
    const after = h.timesOf('p0').filter((time) => time >= healedAt);
    assert.ok((after[0] ?? Infinity) - healedAt <= HOUR, 'the back-off in effect runs out first');
    assert.ok(after.length >= 3 && gaps(after).every((gap) => gap === 5 * MINUTE), `gaps ${gaps(after)}`);
  });

  test('checkDelayMs: within the interval ± jitter, never above the cap, never decreasing with failures', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 180 }),
        fc.nat(80),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (minutes, failures, draw) => {
          const interval = minutes * MINUTE;
          const delay = checkDelayMs(interval, failures, draw);
          assert.ok(delay >= 0.9 * interval - 1e-6, 'never more often than the interval minus jitter');
          assert.ok(delay <= Math.max(HOUR, 1.1 * interval) + 1e-6, 'never above an hour (or the plain interval)');
          if (failures === 0) assert.ok(delay <= 1.1 * interval + 1e-6);
          assert.ok(checkDelayMs(interval, failures + 1, draw) >= delay);
        },
      ),
    );
  });

  test('NOT_SIGNED_IN unschedules a panel until it is said to be signed in again', async () => {
    const h = harness({ panels: panels(2) });
    h.outcomes.set('p0', 'NOT_SIGNED_IN');
    h.scheduler.start();
    await h.clock.advanceBy(3 * HOUR);
    assert.equal(h.timesOf('p0').length, 1);
    assert.equal(h.scheduler.nextCheckAt('p0'), null);
    assert.ok(h.timesOf('p1').length > 30);
    h.outcomes.set('p0', 'ok');
    h.scheduler.panelChanged({ id: 'p0', signedIn: true, lastCheckAt: null });
    await h.clock.advanceBy(SOON_MAX);
    assert.equal(h.timesOf('p0').length, 2, 'checked soon after signing in');
  });

  test('suspend cancels the pass under way and nothing is checked while asleep; resume checks overdue panels soon', async () => {
    const h = harness({ panels: panels(3), manual: true });
    h.scheduler.start();
    await h.clock.advanceBy(15 * SECOND);
    assert.ok(h.pending, 'a pass is under way');
    h.emit('suspend');
    assert.equal(h.cancels, 1);
    const asleepAt = h.clock.now();
    await h.clock.advanceBy(10 * HOUR);
    assert.equal(h.checkedSince(asleepAt).size, 0);
    assert.equal(h.clock.pendingCount(), 0, 'no timer while asleep');
    h.emit('resume');
    await h.clock.advanceBy(SOON_MAX);
    assert.deepEqual([...h.checkedSince(asleepAt)].sort(), ['p0', 'p1', 'p2'], 'all were overdue');
    assert.equal(h.calls.at(-1)?.ids.length, 3, 'in one call');
    await h.finish();
    assert.equal(h.overlaps, 0);
  });

  test('offline pauses too; a resume while still offline does not restart; online does', async () => {
    const h = harness({ panels: panels(3), manual: true });
    h.scheduler.start();
    await h.clock.advanceBy(30 * SECOND);
    while (h.pending) {
      await h.finish();
      await h.clock.advanceBy(SECOND);
    }
    h.emit('offline');
    h.emit('suspend');
    const pausedAt = h.clock.now();
    h.emit('resume');
    await h.clock.advanceBy(5 * HOUR);
    assert.equal(h.checkedSince(pausedAt).size, 0, 'resumed but offline');
    assert.equal(h.cancels, 0, 'no pass of ours was under way');
    h.emit('online');
    await h.clock.advanceBy(SOON_MAX);
    assert.equal(h.checkedSince(pausedAt).size, 3);

    h.emit('suspend');
    h.system.online = false; // the network went while asleep, and no event said so
    const asleepAt = h.clock.now();
    h.emit('resume');
    await h.clock.advanceBy(HOUR);
    assert.equal(h.checkedSince(asleepAt).size, 0, 'resume reads whether the system is online');
  });

  test('waking up while the cancelled pass winds down: the next pass waits for it', async () => {
    const h = harness({ panels: panels(2), manual: true });
    h.scheduler.start();
    await h.clock.advanceBy(20 * SECOND);
    h.emit('offline');
    h.emit('online'); // before the cancelled check() has settled
    assert.equal(h.clock.pendingCount(), 0);
    await settle();
    assert.equal(h.clock.pendingCount(), 1);
    await h.clock.advanceBy(SOON_MAX);
    assert.equal(h.calls.length, 2);
    assert.equal(h.overlaps, 0);
  });

  test('failures of a pass cut short by sleep do not count against the panels', async () => {
    const h = harness({ panels: panels(2), manual: true, cancelledWith: 'NETWORK' });
    h.scheduler.start();
    await h.clock.advanceBy(20 * SECOND);
    h.emit('suspend');
    const resumedAt = h.clock.now();
    h.emit('resume');
    await h.clock.advanceBy(SOON_MAX);
    assert.deepEqual([...h.checkedSince(resumedAt)].sort(), ['p0', 'p1'], 'still overdue, not backed off');
  });

  test('started offline: nothing until online', async () => {
    const h = harness({ panels: panels(2), online: false });
    h.scheduler.start();
    await h.clock.advanceBy(HOUR);
    assert.equal(h.calls.length, 0);
    h.emit('online');
    await h.clock.advanceBy(SOON_MAX);
    assert.equal(h.checkedSince(0).size, 2);
  });

  test('one timer at a time, and no check starts while one is under way', async () => {
    const random = seededRandom(3);
    const h = harness({ panels: panels(200), manual: true, random });
    h.scheduler.start();
    for (let step = 0; step < 400; step++) {
      await h.clock.advanceBy(7 * SECOND);
      if (h.pending && step % 50 === 0) h.scheduler.panelChanged({ id: `new${step}`, signedIn: true, lastCheckAt: null });
      if (h.pending) assert.equal(h.clock.pendingCount(), 0, 'no timer while a check runs, even after a sign-in');
      if (h.pending && random() < 0.5) await h.finish();
      assert.ok(h.clock.pendingCount() <= 1);
    }
    assert.equal(h.clock.maxPending, 1);
    assert.equal(h.overlaps, 0);
    for (let index = 0; index < 200; index++) assert.ok(h.timesOf(`p${index}`).length >= 3, `p${index} kept being checked`);
  });

  test('check() rejecting is reported and later checks go on', async () => {
    const h = harness({ panels: panels(2), manual: true, random: () => 0.5 });
    h.scheduler.start();
    await h.clock.advanceBy(10 * SECOND);
    h.scheduler.recordResults([resultOf('p1', 'NETWORK', h.clock.now()), resultOf('p1', 'NETWORK', h.clock.now())]);
    await h.clock.advanceBy(SECOND);
    await h.fail(new Error('checker broke'));
    assert.equal(h.errors.length, 1);
    const failedAt = h.clock.now();
    assert.equal(h.scheduler.nextCheckAt('p0'), failedAt + 5 * MINUTE, 'tried again an interval later');
    assert.equal(h.scheduler.nextCheckAt('p1'), failedAt - SECOND + 10 * MINUTE, 'what an outside check set is kept');
    await h.clock.advanceBy(5 * MINUTE);
    assert.deepEqual([...h.checkedSince(failedAt + 1)], ['p0']);
    await h.finish();
    assert.equal(h.clock.pendingCount(), 1, 'and the next timer is set');
  });

  test('panelChanged and panelRemoved: a new sign-in is checked soon, a log out or removal is not checked', async () => {
    const h = harness({ panels: panels(4) });
    h.scheduler.start();
    await h.clock.advanceBy(20 * SECOND);
    const changedAt = h.clock.now();
    h.scheduler.panelChanged({ id: 'new', signedIn: true, lastCheckAt: null });
    h.scheduler.panelChanged({ id: 'p1', signedIn: false, lastCheckAt: null });
    h.scheduler.panelRemoved('p2');
    const [p0, p1] = panels(2);
    assert.ok(p0 && p1);
    h.scheduler.setPanels([p0, { ...p1, signedIn: false }, { id: 'new', signedIn: true, lastCheckAt: null }]);
    await h.clock.advanceBy(SOON_MAX);
    assert.deepEqual([...h.checkedSince(changedAt)], ['new']);
    await h.clock.advanceBy(2 * HOUR);
    assert.deepEqual([...h.checkedSince(changedAt)].sort(), ['new', 'p0'], 'p1 signed out, p2 removed, p3 left the list');
    assert.equal(h.scheduler.nextCheckAt('p1'), null);
  });

  test('a result from a pass begun before a log out and a new sign-in does not unschedule the panel', async () => {
    const h = harness({ panels: panels(1), manual: true });
    h.scheduler.start();
    await h.clock.advanceBy(20 * SECOND);
    h.scheduler.panelChanged({ id: 'p0', signedIn: false, lastCheckAt: null });
    h.scheduler.panelChanged({ id: 'p0', signedIn: true, lastCheckAt: null });
    await h.finish([resultOf('p0', 'NOT_SIGNED_IN', h.clock.now())]);
    assert.notEqual(h.scheduler.nextCheckAt('p0'), null);
    await h.clock.advanceBy(SOON_MAX);
    assert.equal(h.timesOf('p0').length, 2);
  });

  test('recordResults: outside checks count as the last check, advance or reset back-off, and can unschedule', async () => {
    const h = harness({ panels: panels(3), random: () => 0.5 });
    h.scheduler.start();
    await h.clock.advanceBy(2 * MINUTE);
    const at = (offset: number) => h.clock.now() + offset;
    const p0DueAt = at(5 * MINUTE);
    h.scheduler.recordResults([resultOf('p0', 'ok', at(0)), resultOf('p1', 'NETWORK', at(0)), resultOf('p2', 'NOT_SIGNED_IN', at(0))]);
    assert.equal(h.scheduler.nextCheckAt('p0'), at(5 * MINUTE));
    assert.equal(h.scheduler.nextCheckAt('p1'), at(5 * MINUTE), 'first failure: the interval');
    assert.equal(h.scheduler.nextCheckAt('p2'), null);
    await h.clock.advanceBy(MINUTE);
    h.scheduler.recordResults([resultOf('p1', 'TIMEOUT', at(0))]);
    assert.equal(h.scheduler.nextCheckAt('p1'), at(10 * MINUTE), 'second failure: twice the interval');
    h.scheduler.recordResults([resultOf('p1', 'ok', at(-30 * SECOND))]);
    assert.equal(h.scheduler.nextCheckAt('p1'), at(10 * MINUTE), 'an older result changes nothing');
    h.scheduler.recordResults([resultOf('p1', 'ok', at(0))]);
    assert.equal(h.scheduler.nextCheckAt('p1'), at(5 * MINUTE), 'a success resets the back-off');
    const recordedAt = h.clock.now();
    await h.clock.advanceBy(5 * MINUTE - DEFAULT_TIMING.batchWindowMs - 1);
    assert.deepEqual(h.timesOf('p0'), [h.timesOf('p0')[0], p0DueAt], 'p0: an interval after the outside check');
    assert.equal(h.timesOf('p1').filter((time) => time >= recordedAt).length, 0, 'p1: not before an interval after it');
    await h.clock.advanceBy(2 * HOUR);
    assert.equal(h.timesOf('p2').length, 1, 'NOT_SIGNED_IN from outside unschedules too');
  });

  test('stop clears the timer, unsubscribes and cancels its own pass', async () => {
    const h = harness({ panels: panels(2), manual: true });
    h.scheduler.start();
    await h.clock.advanceBy(20 * SECOND);
    h.scheduler.stop();
    assert.equal(h.cancels, 1);
    assert.equal(h.clock.pendingCount(), 0);
    assert.equal(h.system.listeners.size, 0, 'unsubscribed');
    h.emit('resume');
    await h.clock.advanceBy(HOUR);
    assert.equal(h.calls.length, 1);
  });
});

/* ------------------------------------------------------------------------------------------ */
/* Model test: random sequences of the world's moves, with the invariants checked after each. */

const MODEL_PANELS = 4;

type Action =
  | { kind: 'advance'; ms: number }
  | { kind: 'system'; event: SystemEvent }
  | { kind: 'interval'; minutes: number; notify: boolean }
  | { kind: 'signIn' | 'signOut'; panel: number }
  | { kind: 'outcome' | 'external'; panel: number; outcome: Outcome }
  | { kind: 'finish' | 'reject' };

/** The real scheduler on its harness, and what the test knows it may and may not do. */
class World {
  readonly h: ReturnType<typeof harness>;
  suspended = false;
  online = true;
  interval = 5;
  maxInterval = 5;
  readonly signedIn: boolean[];
  /** Got NOT_SIGNED_IN since its last sign-in: must not be checked. */
  readonly awaiting = Array<boolean>(MODEL_PANELS).fill(false);
  /** Bumped on each sign-in and log out: results of a pass begun before do not count. */
  readonly epoch = Array<number>(MODEL_PANELS).fill(0);
  /** The last call with the panel, unless a sign-in or a cancelled pass since lets it go early. */
  readonly lastCallAt = Array<number | null>(MODEL_PANELS).fill(null);
  /** The shortest interval in force since that call. */
  readonly minInterval = Array<number>(MODEL_PANELS).fill(5);
  passEpochs: number[] = [];
  readonly violations: string[] = [];

  constructor(signedIn: boolean[]) {
    this.signedIn = signedIn;
    const list = signedIn.map((isIn, index) => ({ id: `p${index}`, signedIn: isIn, lastCheckAt: null }));
    this.h = harness({
      panels: list,
      manual: true,
      random: seededRandom(11),
      onCall: (ids, overlapping) => this.#onCall(ids, overlapping),
    });
    this.h.scheduler.start();
  }

  get paused(): boolean {
    return this.suspended || !this.online;
  }

  #onCall(ids: readonly string[], overlapping: boolean): void {
    const now = this.h.clock.now();
    const complain = (what: string) => this.violations.push(`at +${now - Date.parse('2030-01-01T00:00:00Z')} ms: ${what}`);
    if (overlapping) complain('a check started while one was under way');
    if (this.paused) complain('a check while paused');
    if (this.interval === 0) complain('a check while checks are off');
    for (const id of ids) {
      const index = Number(id.slice(1));
      if (!this.signedIn[index]) complain(`${id} is signed out`);
      if (this.awaiting[index]) complain(`${id} answered NOT_SIGNED_IN and was not signed in since`);
      const last = this.lastCallAt[index] ?? null;
      const least = 0.9 * (this.minInterval[index] ?? 0) * MINUTE - DEFAULT_TIMING.batchWindowMs;
      if (last !== null && now - last < least) complain(`${id} checked ${now - last} ms after its last check`);
      this.lastCallAt[index] = now;
      this.minInterval[index] = this.interval;
    }
    this.passEpochs = ids.map((id) => this.epoch[Number(id.slice(1))] ?? -1);
  }

  async apply(action: Action): Promise<void> {
    const { h } = this;
    const id = 'panel' in action ? `p${action.panel}` : '';
    const index = 'panel' in action ? action.panel : -1;
    switch (action.kind) {
      case 'advance':
        return h.clock.advanceBy(action.ms);
      case 'system': {
        const under = h.pending;
        if (action.event === 'suspend' || action.event === 'resume') this.suspended = action.event === 'suspend';
        else this.online = action.event === 'online';
        h.emit(action.event);
        // A cancelled pass checked nothing: its panels may go again as soon as they are due.
        if (under && !h.pending) for (const panelId of under.ids) this.lastCallAt[Number(panelId.slice(1))] = null;
        return settle();
      }
      case 'interval':
        this.interval = h.settings.checkIntervalMinutes = action.minutes;
        if (action.minutes > 0) {
          this.maxInterval = Math.max(this.maxInterval, action.minutes);
          for (const [panel, least] of this.minInterval.entries()) this.minInterval[panel] = Math.min(least, action.minutes);
        }
        if (action.notify) h.scheduler.settingsChanged();
        return;
      case 'signIn':
        if (!this.signedIn[index] || this.awaiting[index]) {
          [this.signedIn[index], this.awaiting[index], this.lastCallAt[index]] = [true, false, null];
          this.epoch[index] = (this.epoch[index] ?? 0) + 1;
        }
        return h.scheduler.panelChanged({ id, signedIn: true, lastCheckAt: null });
      case 'signOut':
        if (this.signedIn[index]) this.epoch[index] = (this.epoch[index] ?? 0) + 1;
        [this.signedIn[index], this.awaiting[index]] = [false, false];
        return h.scheduler.panelChanged({ id, signedIn: false, lastCheckAt: null });
      case 'outcome':
        h.outcomes.set(id, action.outcome);
        return;
      case 'external':
        if (this.signedIn[index]) this.awaiting[index] = action.outcome === 'NOT_SIGNED_IN';
        return h.scheduler.recordResults([resultOf(id, action.outcome, h.clock.now())]);
      case 'finish': {
        const call = h.pending;
        if (!call) return;
        call.ids.forEach((panelId, position) => {
          const panel = Number(panelId.slice(1));
          if (this.epoch[panel] === this.passEpochs[position]) this.awaiting[panel] = h.outcomes.get(panelId) === 'NOT_SIGNED_IN';
        });
        return h.finish();
      }
      case 'reject':
        return h.pending ? h.fail(new Error('checker broke')) : undefined;
    }
  }

  checkInvariants(): void {
    const { h } = this;
    assert.deepEqual(this.violations, []);
    assert.ok(h.clock.maxPending <= 1, 'never more than one timer');
    if (this.paused) assert.equal(h.clock.pendingCount(), 0, 'no timer while paused');
    const eligible = this.signedIn.some((isIn, index) => isIn && !this.awaiting[index]);
    if (!this.paused && !h.pending && eligible) assert.equal(h.clock.pendingCount(), 1, 'a timer while panels wait');
    const longest = Math.max(HOUR, 1.1 * this.maxInterval * MINUTE) + DEFAULT_TIMING.firstPassDelayMs + DEFAULT_TIMING.firstPassSpreadMs;
    for (let index = 0; index < MODEL_PANELS; index++) {
      const next = h.scheduler.nextCheckAt(`p${index}`);
      if (next !== null) assert.ok(next - h.clock.now() <= longest, `p${index} due ${next - h.clock.now()} ms from now`);
      if (!this.signedIn[index] || this.awaiting[index]) assert.equal(next, null, `p${index} is not scheduled`);
    }
  }

  /** In the end, with everything back to normal, every panel is checked again within an hour and a bit. */
  async checkEveryPanelComesBack(): Promise<void> {
    for (const event of ['resume', 'online'] as const) await this.apply({ kind: 'system', event });
    await this.apply({ kind: 'finish' });
    await this.apply({ kind: 'interval', minutes: 5, notify: true });
    for (let panel = 0; panel < MODEL_PANELS; panel++) {
      await this.apply({ kind: 'outcome', panel, outcome: 'ok' });
      await this.apply({ kind: 'signIn', panel });
    }
    const from = this.h.clock.now();
    for (let minute = 0; minute < 70; minute++) {
      await this.apply({ kind: 'advance', ms: MINUTE });
      await this.apply({ kind: 'finish' });
      this.checkInvariants();
    }
    assert.equal(this.h.checkedSince(from).size, MODEL_PANELS, 'every panel checked again');
  }
}

class Step implements fc.AsyncCommand<World, World> {
  readonly action: Action;
  constructor(action: Action) {
    this.action = action;
  }
  check(): boolean {
    return true;
  }
  async run(_model: World, world: World): Promise<void> {
    await world.apply(this.action);
    world.checkInvariants();
  }
  toString(): string {
    return JSON.stringify(this.action);
  }
}

const panelArbitrary = fc.nat(MODEL_PANELS - 1);
const outcomeArbitrary = fc.constantFrom<Outcome>('ok', 'NETWORK', 'TIMEOUT', 'NOT_SIGNED_IN');
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(500, 5 * SECOND, 30 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR)
      .map((ms) => ({ kind: 'advance' as const, ms })),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<SystemEvent>('suspend', 'resume', 'offline', 'online').map((event) => ({ kind: 'system' as const, event })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('interval' as const), minutes: fc.constantFrom(0, 1, 5, 30, 60), notify: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('signIn' as const, 'signOut' as const), panel: panelArbitrary }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('outcome' as const, 'external' as const),
      panel: panelArbitrary,
      outcome: outcomeArbitrary,
    }),
  },
  { weight: 4, arbitrary: fc.constantFrom<Action>({ kind: 'finish' }, { kind: 'finish' }, { kind: 'finish' }, { kind: 'reject' }) },
);

test('model: random sequences of time, sleep, network, interval changes, sign-ins and outcomes keep every invariant', async (t) => {
  const stats = { sequences: 0, steps: 0, checks: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.boolean(), { minLength: MODEL_PANELS, maxLength: MODEL_PANELS }),
      fc.commands([actionArbitrary.map((action) => new Step(action))], { maxCommands: 40, size: 'max' }),
      async (signedIn, steps) => {
        const world = new World(signedIn);
        await fc.asyncModelRun(() => ({ model: world, real: world }), steps);
        await world.checkEveryPanelComesBack();
        stats.sequences++;
        stats.steps += [...steps].length;
        stats.checks += world.h.calls.length;
      },
    ),
    { numRuns: 200 },
  );
  t.diagnostic(`${stats.sequences} sequences, ${stats.steps} steps, ${stats.checks} check calls`);
});

describe('results that arrive twice or say nothing', () => {
  test('the same result through the pass and through recordResults counts once; CANCELLED counts not at all', async () => {
    const h = harness({ panels: panels(1), manual: true, random: () => 0.5 });
    h.scheduler.start();
    await h.clock.advanceBy(20 * SECOND);
    const answer = [resultOf('p0', 'NETWORK', h.clock.now())];
    await h.finish(answer);
    const after = h.scheduler.nextCheckAt('p0');
    assert.ok(after !== null);
    // An operator's "Check all" joined that pass and got the very same result back.
    h.scheduler.recordResults(answer);
    assert.equal(h.scheduler.nextCheckAt('p0'), after, 'counted twice: the back-off doubled');
    h.scheduler.recordResults([resultOf('p0', 'CANCELLED', h.clock.now() + SECOND)]);
    assert.equal(h.scheduler.nextCheckAt('p0'), after, 'a cancelled check moved the schedule');
  });
});
