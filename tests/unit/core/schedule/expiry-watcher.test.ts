import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  DEFAULT_GRACE_MS,
  ExpiryWatcher,
  MAX_TIMER_DELAY_MS,
  type ExpiryClock,
  type ExpiryNotifier,
  type WatchedPanel,
} from '../../../../electron/core/schedule/expiry-watcher.ts';
import { FakeClock } from '../../../support/fake-clock.ts';

/**
 * The expiry watcher on a fake clock: every wait is fake time, and every callback is recorded
 * with the fake time it ran at. Times in the notification go through an injected formatter, so
 * nothing depends on the machine's locale or time zone.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
// A whole second, so "the second an expiry falls in" is easy to reason about.
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

type Notice = { title: string; body: string; onClick: () => void; at: number };

function harness(options: { warningMinutes?: number; notify?: boolean; notifier?: ExpiryNotifier; clock?: ExpiryClock } = {}) {
  const fake = new FakeClock(T0);
  const settings = { expiryWarningMinutes: options.warningMinutes ?? 10, notifyBeforeExpiry: options.notify ?? true };
  const log = {
    expiring: [] as { id: string; expiresAt: string; at: number }[],
    notices: [] as Notice[],
    focused: [] as string[],
    rechecks: [] as { ids: string[]; at: number }[],
    errors: [] as unknown[],
  };
  const clock = options.clock ?? fake;
  const watcher = new ExpiryWatcher({
    clock,
    settings: () => settings,
    notifier: options.notifier ?? { notify: (notice) => log.notices.push({ ...notice, at: clock.now() }) },
    emitExpiring: (id, expiresAt) => log.expiring.push({ id, expiresAt, at: clock.now() }),
    focusPanel: (id) => log.focused.push(id),
    recheck: (ids) => log.rechecks.push({ ids: [...ids], at: clock.now() }),
    onError: (error) => log.errors.push(error),
    formatTime: (ms) => `T0+${(ms - T0) / MINUTE}m`,
  });
  return { clock: fake, settings, log, watcher };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A signed-in panel whose session ends `endsIn` ms after T0 (null: no known end). */
function panel(id: string, endsIn: number | null, signedIn = true): WatchedPanel {
  return { id, name: `Panel ${id}`, signedIn, sessionExpiresAt: endsIn === null ? null : iso(T0 + endsIn) };
}

/** Recheck calls with their ids sorted: the order inside one call is not promised. */
function sortedIds(calls: readonly { ids: string[]; at: number }[]): { ids: string[]; at: number }[] {
  return calls.map((call) => ({ ids: call.ids.toSorted(), at: call.at }));
}

/** Where the recheck of a session ending at `endsAt` falls: the next whole second, plus the grace. */
function recheckAt(endsAt: number): number {
  return Math.ceil(endsAt / SECOND) * SECOND + DEFAULT_GRACE_MS;
}

describe('expiry warning', () => {
  test('fires at expiry minus the warning time, once, with a notification that names the panel', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('a', HOUR)]);
    await clock.advanceTo(T0 + 50 * MINUTE - 1);
    assert.equal(log.expiring.length, 0);
    await clock.advanceTo(T0 + 50 * MINUTE);
    assert.deepEqual(log.expiring, [{ id: 'a', expiresAt: iso(T0 + HOUR), at: T0 + 50 * MINUTE }]);
    assert.equal(log.notices.length, 1);
    assert.equal(log.notices[0]!.title, 'Session ending: Panel a');
    assert.equal(log.notices[0]!.body, 'The session ends at T0+60m (in 10 min). Log in again to keep working.');
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.equal(log.expiring.length, 1);
    assert.equal(log.notices.length, 1);
  });

  test('the notification is shown only when the setting is on; the window is told either way', async () => {
    const { clock, settings, log, watcher } = harness({ notify: false });
    watcher.setPanels([panel('a', HOUR), panel('b', 2 * HOUR)]);
    await clock.advanceTo(T0 + 55 * MINUTE);
    assert.equal(log.expiring.length, 1);
    assert.equal(log.notices.length, 0);
    settings.notifyBeforeExpiry = true;
    watcher.settingsChanged();
    await clock.advanceTo(T0 + 115 * MINUTE);
    assert.deepEqual(
      log.expiring.map((entry) => entry.id),
      ['a', 'b'],
    );
    assert.deepEqual(
      log.notices.map((notice) => notice.title),
      ['Session ending: Panel b'],
    );
  });

  test('clicking the notification focuses that panel', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('a', HOUR), panel('b', 2 * HOUR)]);
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.equal(log.notices.length, 2);
    assert.deepEqual(log.focused, []);
    log.notices[1]!.onClick();
    assert.deepEqual(log.focused, ['b']);
  });

  test('a panel already inside the warning window when it becomes known is warned at once, once', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('a', 3 * MINUTE + 20 * SECOND)]);
    await clock.advanceBy(0);
    assert.equal(log.expiring.length, 1);
    assert.equal(log.expiring[0]!.at, T0);
    assert.match(log.notices[0]!.body, /\(in 3 min\)/);
    watcher.setPanels([panel('a', 3 * MINUTE + 20 * SECOND)]);
    await clock.advanceTo(T0 + HOUR);
    assert.equal(log.expiring.length, 1);
  });

  test('the default time format still gives the minutes left', async () => {
    const clock = new FakeClock(T0);
    const notices: string[] = [];
    const watcher = new ExpiryWatcher({
      clock,
      settings: () => ({ expiryWarningMinutes: 10, notifyBeforeExpiry: true }),
      notifier: { notify: (notice) => notices.push(notice.body) },
      emitExpiring: () => undefined,
      focusPanel: () => undefined,
      recheck: () => undefined,
    });
    watcher.setPanels([panel('a', HOUR)]);
    await clock.advanceTo(T0 + HOUR);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /^The session ends at .+ \(in 10 min\)\. Log in again to keep working\.$/);
  });
});

describe('recheck at expiry', () => {
  test('comes once, after the grace, and sessions ending in the same second share one call', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('a', HOUR + 100), panel('b', HOUR + 900), panel('c', HOUR + 1_100), panel('d', HOUR + 1_000)]);
    await clock.advanceTo(recheckAt(T0 + HOUR + 100) - 1);
    assert.deepEqual(log.rechecks, []);
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.deepEqual(sortedIds(log.rechecks), [
      { ids: ['a', 'b', 'd'], at: T0 + HOUR + SECOND + DEFAULT_GRACE_MS },
      { ids: ['c'], at: T0 + HOUR + 2 * SECOND + DEFAULT_GRACE_MS },
    ]);
  });

  test('past expiry times at start are rechecked at once, in one call, without a warning', async () => {
    const { clock, settings, log, watcher } = harness();
    watcher.setPanels([panel('old', -2 * HOUR), panel('older', -3 * MINUTE), panel('future', HOUR)]);
    await clock.advanceBy(0);
    assert.deepEqual(sortedIds(log.rechecks), [{ ids: ['old', 'older'], at: T0 }]);
    assert.deepEqual(log.expiring, []);
    assert.deepEqual(log.notices, []);
    // Told the same expired value again (the read still carries it): no second recheck.
    watcher.panelChanged(panel('old', -2 * HOUR));
    // Nor after a re-plan.
    settings.expiryWarningMinutes = 30;
    watcher.settingsChanged();
    await clock.advanceBy(10 * MINUTE);
    assert.equal(log.rechecks.length, 1);
  });

  test('a warning time of 0 warns no one but still rechecks', async () => {
    const { clock, log, watcher } = harness({ warningMinutes: 0 });
    watcher.setPanels([panel('a', HOUR)]);
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.deepEqual(log.expiring, []);
    assert.deepEqual(log.notices, []);
    assert.deepEqual(log.rechecks, [{ ids: ['a'], at: recheckAt(T0 + HOUR) }]);
  });
});

describe('changes', () => {
  test('a new expiry time re-arms; the same one again (even spelt differently) does not', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('a', HOUR)]);
    await clock.advanceTo(T0 + 55 * MINUTE);
    assert.equal(log.expiring.length, 1);
    watcher.panelChanged(panel('a', HOUR));
    watcher.panelChanged({ ...panel('a', null), sessionExpiresAt: '2030-01-01T13:00:00.000+00:00' });
    await clock.advanceBy(0);
    assert.equal(log.expiring.length, 1);
    watcher.panelChanged(panel('a', 3 * HOUR)); // logged in again
    await clock.advanceTo(T0 + 3 * HOUR - 10 * MINUTE - 1);
    assert.equal(log.expiring.length, 1);
    await clock.advanceTo(T0 + 4 * HOUR);
    assert.deepEqual(
      log.expiring.map((entry) => entry.at),
      [T0 + 50 * MINUTE, T0 + 170 * MINUTE],
    );
    // The first session's recheck is dropped: the panel moved on before it ended.
    assert.deepEqual(log.rechecks, [{ ids: ['a'], at: recheckAt(T0 + 3 * HOUR) }]);
  });

  test('signed-out, removed, unknown-expiry and left-out panels are forgotten', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('out', HOUR), panel('gone', HOUR), panel('cleared', HOUR), panel('kept', HOUR)]);
    watcher.panelChanged(panel('out', HOUR, false));
    watcher.panelRemoved('gone');
    watcher.panelChanged(panel('cleared', null));
    watcher.panelChanged({ ...panel('bad', null), sessionExpiresAt: 'not a date' });
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.deepEqual(
      log.expiring.map((entry) => entry.id),
      ['kept'],
    );
    assert.deepEqual(
      log.rechecks.map((entry) => entry.ids),
      [['kept']],
    );
    // The whole list again: whoever is not in it is forgotten.
    watcher.setPanels([panel('left', 3 * HOUR), panel('stays', 3 * HOUR)]);
    watcher.setPanels([panel('stays', 3 * HOUR)]);
    await clock.advanceTo(T0 + 4 * HOUR);
    assert.deepEqual(
      log.expiring.map((entry) => entry.id),
      ['kept', 'stays'],
    );
    assert.deepEqual(
      log.rechecks.map((entry) => entry.ids),
      [['kept'], ['stays']],
    );
    assert.equal(clock.pendingCount(), 0);
  });

  test('a longer warning time warns panels now inside it at once; a shorter one re-plans', async () => {
    const { clock, settings, log, watcher } = harness();
    watcher.setPanels([panel('a', 30 * MINUTE), panel('b', 2 * HOUR)]);
    settings.expiryWarningMinutes = 45;
    watcher.settingsChanged();
    await clock.advanceBy(0);
    assert.deepEqual(
      log.expiring.map((entry) => [entry.id, entry.at]),
      [['a', T0]],
    );
    settings.expiryWarningMinutes = 5;
    watcher.settingsChanged();
    await clock.advanceTo(T0 + 2 * HOUR - 5 * MINUTE - 1);
    assert.equal(log.expiring.length, 1);
    await clock.advanceTo(T0 + 3 * HOUR);
    assert.deepEqual(
      log.expiring.map((entry) => [entry.id, entry.at]),
      [
        ['a', T0],
        ['b', T0 + 115 * MINUTE],
      ],
    );
  });

  test('settings changed without being told are used at the next wake-up', async () => {
    const { clock, settings, log, watcher } = harness();
    watcher.setPanels([panel('a', HOUR)]);
    settings.expiryWarningMinutes = 0;
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.deepEqual(log.expiring, []);
    assert.equal(log.rechecks.length, 1);
  });

  test('stop clears the timer and ignores later calls', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('a', HOUR)]);
    watcher.stop();
    watcher.panelChanged(panel('b', HOUR));
    assert.equal(clock.pendingCount(), 0);
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.deepEqual([log.expiring, log.rechecks], [[], []]);
  });
});

describe('timers', () => {
  test('at most one timer is pending, whatever happens', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('change' as const),
        id: fc.integer({ min: 0, max: 5 }),
        endsIn: fc.integer({ min: -HOUR, max: 3 * HOUR }),
        signedIn: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant('settings' as const), minutes: fc.integer({ min: 0, max: 120 }) }),
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: HOUR }) }),
    );
    return fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const { clock, settings, log, watcher } = harness();
        for (const step of ops) {
          if (step.kind === 'change') watcher.panelChanged(panel(`p${step.id}`, step.endsIn, step.signedIn));
          else if (step.kind === 'remove') watcher.panelRemoved(`p${step.id}`);
          else if (step.kind === 'settings') {
            settings.expiryWarningMinutes = step.minutes;
            watcher.settingsChanged();
          } else await clock.advanceBy(step.ms);
          assert.ok(clock.pendingCount() <= 1);
        }
        await clock.advanceBy(10 * HOUR);
        assert.equal(clock.maxPending <= 1, true);
        assert.equal(clock.pendingCount(), 0);
        // Never a second warning for the same session.
        const keys = log.expiring.map((entry) => `${entry.id} ${entry.expiresAt}`);
        assert.equal(new Set(keys).size, keys.length);
      }),
      { numRuns: 200 },
    );
  });

  test('a far expiry waits in steps of at most a day, and still warns on time', async () => {
    const { clock, log, watcher } = harness();
    watcher.setPanels([panel('a', 3 * 24 * HOUR)]);
    assert.equal(clock.nextTimerAt(), T0 + MAX_TIMER_DELAY_MS);
    await clock.advanceTo(T0 + 3 * 24 * HOUR);
    assert.deepEqual(
      log.expiring.map((entry) => entry.at),
      [T0 + 3 * 24 * HOUR - 10 * MINUTE],
    );
    assert.equal(clock.maxPending, 1);
  });

  test('a wake-up after the session ended (the machine slept) rechecks without warning', async () => {
    const fake = new FakeClock(T0);
    let slept = 0;
    const clock: ExpiryClock = {
      now: () => fake.now() + slept,
      setTimeout: (run, ms) => fake.setTimeout(run, ms),
      clearTimeout: (handle) => fake.clearTimeout(handle),
    };
    const { log, watcher } = harness({ clock });
    watcher.setPanels([panel('a', HOUR)]);
    slept = 2 * HOUR; // the wall clock jumps while the timer waits
    await fake.advanceTo(T0 + 50 * MINUTE);
    assert.deepEqual(log.expiring, []);
    assert.deepEqual(
      log.rechecks.map((entry) => entry.ids),
      [['a']],
    );
  });
});

describe('robustness and scale', () => {
  test('a throwing notifier, window, recheck and error sink do not stop the watcher', async () => {
    const clock = new FakeClock(T0);
    const seen = { notices: [] as string[], expiring: [] as string[], rechecks: [] as string[][], errors: 0 };
    const boom = (what: string): never => {
      throw new Error(what);
    };
    const watcher = new ExpiryWatcher({
      clock,
      settings: () => ({ expiryWarningMinutes: 10, notifyBeforeExpiry: true }),
      notifier: {
        notify: (notice) => {
          seen.notices.push(notice.title);
          boom('no notification daemon');
        },
      },
      emitExpiring: (id) => {
        seen.expiring.push(id);
        boom('window gone');
      },
      focusPanel: () => boom('window gone'),
      recheck: (ids) => {
        seen.rechecks.push(ids.toSorted());
        boom('checker gone');
      },
      onError: () => {
        seen.errors++;
        boom('log gone');
      },
    });
    // a and b warn in the same wake-up: a's throws must not cost b its warning.
    watcher.setPanels([panel('a', HOUR), panel('b', HOUR), panel('c', 3 * HOUR)]);
    await clock.advanceTo(T0 + 4 * HOUR);
    assert.deepEqual(seen.expiring.toSorted(), ['a', 'b', 'c']);
    assert.equal(seen.notices.length, 3);
    assert.deepEqual(seen.rechecks, [['a', 'b'], ['c']]);
    assert.equal(seen.errors, 3 + 3 + 2);
    assert.equal(clock.pendingCount(), 0);
  });

  test('a click whose focus throws does not throw out of the notification', async () => {
    const clock = new FakeClock(T0);
    let onClick = (): void => undefined;
    const watcher = new ExpiryWatcher({
      clock,
      settings: () => ({ expiryWarningMinutes: 10, notifyBeforeExpiry: true }),
      notifier: { notify: (notice) => (onClick = notice.onClick) },
      emitExpiring: () => undefined,
      recheck: () => undefined,
      focusPanel: () => {
        throw new Error('window gone');
      },
    });
    watcher.setPanels([panel('a', HOUR)]);
    await clock.advanceTo(T0 + HOUR);
    assert.doesNotThrow(() => onClick());
  });

  test('settings that stop being readable leave the last ones in force, without a busy timer', async () => {
    const clock = new FakeClock(T0);
    let readable = true;
    const warned: number[] = [];
    let errors = 0;
    const watcher = new ExpiryWatcher({
      clock,
      settings: () => (readable ? { expiryWarningMinutes: 20, notifyBeforeExpiry: false } : assert.fail('settings file gone')),
      notifier: { notify: () => undefined },
      focusPanel: () => undefined,
      recheck: () => undefined,
      emitExpiring: () => warned.push(clock.now()),
      onError: () => errors++,
    });
    watcher.setPanels([panel('a', HOUR)]);
    readable = false;
    watcher.settingsChanged();
    await clock.advanceTo(T0 + 2 * HOUR);
    assert.deepEqual(warned, [T0 + 40 * MINUTE]);
    assert.ok(errors >= 1 && errors < 10, `${errors} errors`);
  });

  test('10,000 panels plan with one timer and each is warned and rechecked once', async () => {
    const { clock, log, watcher } = harness();
    const count = 10_000;
    // Spread over ten hours, in groups of ten ending within the same second.
    const panels = Array.from({ length: count }, (_, index) =>
      panel(`p${index}`, HOUR + Math.floor(index / 10) * 36_000 + 100 + (index % 10)),
    );
    watcher.setPanels(panels);
    watcher.setPanels(panels); // the same list again changes nothing
    assert.equal(clock.pendingCount(), 1);
    await clock.advanceTo(T0 + 12 * HOUR);
    assert.equal(clock.maxPending, 1);
    assert.equal(log.expiring.length, count);
    assert.equal(new Set(log.expiring.map((entry) => entry.id)).size, count);
    assert.equal(log.notices.length, count);
    const rechecked = log.rechecks.flatMap((entry) => entry.ids);
    assert.equal(rechecked.length, count);
    assert.equal(new Set(rechecked).size, count);
    assert.equal(log.rechecks.length, count / 10);
    for (const entry of log.expiring) assert.equal(entry.at, Date.parse(entry.expiresAt) - 10 * MINUTE);
  });
});
