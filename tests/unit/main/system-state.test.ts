import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { SystemEvent } from '../../../electron/core/schedule/check-scheduler.ts';
import { electronSystemState, ONLINE_POLL_MS, type PollTimer } from '../../../electron/main/system-state.ts';

/** powerMonitor and net stand-ins, and an interval that runs when the test says. */
function fakes() {
  const power = new EventEmitter();
  const net = { online: true, isOnline: () => net.online };
  const intervals = new Map<number, { run: () => void; ms: number }>();
  let next = 1;
  const timer: PollTimer = {
    setInterval: (run, ms) => {
      intervals.set(next, { run, ms });
      return next++;
    },
    clearInterval: (handle) => intervals.delete(handle as number),
  };
  const tick = () => {
    for (const interval of [...intervals.values()]) interval.run();
  };
  return { power, net, intervals, timer, tick };
}

test('isOnline reads the network each time', () => {
  const { power, net, timer } = fakes();
  const system = electronSystemState(power, net, { timer });
  assert.equal(system.isOnline(), true);
  net.online = false;
  assert.equal(system.isOnline(), false);
});

test('suspend and resume come from the power monitor', () => {
  const { power, net, timer } = fakes();
  const seen: SystemEvent[] = [];
  electronSystemState(power, net, { timer }).onChange((event) => seen.push(event));
  power.emit('suspend');
  power.emit('resume');
  power.emit('lock-screen');
  assert.deepEqual(seen, ['suspend', 'resume']);
});

test('online and offline come from polling, every 30 s by default, and only on a change', () => {
  const { power, net, timer, intervals, tick } = fakes();
  const seen: SystemEvent[] = [];
  electronSystemState(power, net, { timer }).onChange((event) => seen.push(event));
  assert.deepEqual(
    [...intervals.values()].map((interval) => interval.ms),
    [ONLINE_POLL_MS],
  );
  assert.equal(ONLINE_POLL_MS, 30_000);
  tick();
  assert.deepEqual(seen, []);
  net.online = false;
  tick();
  tick();
  net.online = true;
  tick();
  assert.deepEqual(seen, ['offline', 'online']);
});

test('a change seen at resume is not said again by the next poll', () => {
  const { power, net, timer, tick } = fakes();
  const seen: SystemEvent[] = [];
  electronSystemState(power, net, { timer, pollMs: 1000 }).onChange((event) => seen.push(event));
  power.emit('suspend');
  net.online = false;
  power.emit('resume');
  tick();
  assert.deepEqual(seen, ['suspend', 'resume']);
});

test('unsubscribing removes the power listeners and stops the poll; twice is harmless', () => {
  const { power, net, timer, intervals, tick } = fakes();
  const seen: SystemEvent[] = [];
  const system = electronSystemState(power, net, { timer });
  const unsubscribe = system.onChange((event) => seen.push(event));
  assert.equal(power.listenerCount('suspend'), 1);
  assert.equal(power.listenerCount('resume'), 1);
  unsubscribe();
  unsubscribe();
  assert.equal(power.listenerCount('suspend'), 0);
  assert.equal(power.listenerCount('resume'), 0);
  assert.equal(intervals.size, 0);
  net.online = false;
  tick();
  power.emit('suspend');
  assert.deepEqual(seen, []);
});

test('two subscribers each get every change and unsubscribe alone', () => {
  const { power, net, timer, tick } = fakes();
  const system = electronSystemState(power, net, { timer });
  const a: SystemEvent[] = [];
  const b: SystemEvent[] = [];
  const stopA = system.onChange((event) => a.push(event));
  system.onChange((event) => b.push(event));
  net.online = false;
  tick();
  stopA();
  power.emit('suspend');
  assert.deepEqual(a, ['offline']);
  assert.deepEqual(b, ['offline', 'suspend']);
});

test('the real poll timer does not keep the process alive', () => {
  const { power, net } = fakes();
  const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
  const before = timers();
  const unsubscribe = electronSystemState(power, net).onChange(() => undefined);
  // Node lists only ref'd timers as active resources.
  assert.equal(timers(), before);
  unsubscribe();
});
