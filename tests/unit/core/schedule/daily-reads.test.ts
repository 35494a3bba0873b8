import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DailyReads, DEFAULT_DAILY_TIMING } from '../../../../electron/core/schedule/daily-reads.ts';
import { KeptPass } from '../../../../electron/core/schedule/kept-pass.ts';
import { fakeSystem } from '../../../support/background-fakes.ts';
import { FakeClock, settle } from '../../../support/fake-clock.ts';

/**
 * The daily reads on a fake clock: when they are asked, one after another, never while offline or
 * with the background off; behind a kept pass, hourly asking reads the fleet once a day.
 */

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const { firstMs, everyMs } = DEFAULT_DAILY_TIMING;

/** A read that stays under way until the test ends it; records when each call began. */
function heldRead(clock: FakeClock) {
  const starts: number[] = [];
  let finish: (() => void) | null = null;
  return {
    starts,
    read: () =>
      new Promise<void>((resolve) => {
        starts.push(clock.now());
        finish = resolve;
      }),
    finish: () => finish?.(),
  };
}

function setUp(reads: (() => Promise<unknown>)[], intervalMinutes = 5) {
  const clock = new FakeClock(0);
  const system = fakeSystem();
  const errors: unknown[] = [];
  const settings = { checkIntervalMinutes: intervalMinutes };
  const daily = new DailyReads({ clock, system, settings: () => settings, reads, onError: (error) => errors.push(error) });
  return { clock, system, errors, settings, daily };
}

test('asked first a while after the start, then every hour; the second read only once the first ended', async () => {
  const clock = new FakeClock(0);
  const first = heldRead(clock);
  const second = heldRead(clock);
  const system = fakeSystem();
  const daily = new DailyReads({ clock, system, settings: () => ({ checkIntervalMinutes: 5 }), reads: [first.read, second.read] });
  daily.start();
  await clock.advanceBy(firstMs - 1);
  assert.deepEqual(first.starts, []);
  await clock.advanceBy(1);
  assert.deepEqual(first.starts, [firstMs]);
  // Held for an hour and more: the second waits, and no second round begins meanwhile.
  await clock.advanceBy(2 * everyMs);
  assert.deepEqual(second.starts, []);
  assert.equal(first.starts.length, 1);
  first.finish();
  await settle();
  assert.deepEqual(second.starts, [firstMs + 2 * everyMs]);
  second.finish();
  await settle();
  // The next round an hour after this one ended.
  await clock.advanceBy(everyMs);
  assert.equal(first.starts.length, 2);
  daily.stop();
});

test('offline, or with background checks off, nothing is asked; the next round asks again', async () => {
  const calls: number[] = [];
  const { clock, system, settings, daily } = setUp([async () => calls.push(1)]);
  system.online = false;
  daily.start();
  await clock.advanceBy(firstMs);
  assert.deepEqual(calls, []);
  system.online = true;
  settings.checkIntervalMinutes = 0;
  await clock.advanceBy(everyMs);
  assert.deepEqual(calls, []);
  settings.checkIntervalMinutes = 5;
  await clock.advanceBy(everyMs);
  assert.deepEqual(calls, [1]);
});

test('a read that fails is reported and the others are still asked; after stop nothing is', async () => {
  const calls: string[] = [];
  const { clock, errors, daily } = setUp([
    async () => {
      calls.push('backups');
      throw new Error('the folder could not be opened');
    },
    async () => calls.push('certificates'),
  ]);
  daily.start();
  await clock.advanceBy(firstMs);
  await daily.whenIdle();
  assert.deepEqual(calls, ['backups', 'certificates']);
  assert.equal(errors.length, 1);
  daily.stop();
  await clock.advanceBy(10 * everyMs);
  assert.equal(calls.length, 2);
  assert.equal(clock.pendingCount(), 0);
});

test('behind a kept pass, asked every hour for three days the fleet is read three times, once a day', async () => {
  const clock = new FakeClock(Date.UTC(2030, 0, 1));
  const passes: number[] = [];
  const kept = new KeptPass({
    keptMs: DAY,
    now: () => new Date(clock.now()),
    read: async () => {
      passes.push(clock.now());
      return passes.length;
    },
  });
  const daily = new DailyReads({
    clock,
    system: fakeSystem(),
    settings: () => ({ checkIntervalMinutes: 5 }),
    reads: [() => kept.get()],
  });
  daily.start();
  await clock.advanceBy(firstMs + 3 * DAY - HOUR);
  assert.equal(passes.length, 3);
  for (let index = 1; index < passes.length; index++) assert.ok(passes[index]! - passes[index - 1]! >= DAY, 'a day apart at least');
  daily.stop();
});
