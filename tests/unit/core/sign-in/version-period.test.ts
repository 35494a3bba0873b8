import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSION_READ_AT_MOST_MS, VERSION_READ_EVERY_MS, versionPeriodMs } from '../../../../electron/core/sign-in/session-reader.ts';

/**
 * A fleet's version reads, all made in one pass, must not fall due together an hour later: each
 * panel's period is its own, stable, between an hour and an hour and a half.
 */

const ids = Array.from({ length: 10_000 }, (_, index) => `panel-${index.toString(36)}-${(index * 7919).toString(16)}`);

test('a panel keeps its period, within an hour and an hour and a half', () => {
  for (const id of ids.slice(0, 500)) {
    const period = versionPeriodMs(id);
    assert.ok(period >= VERSION_READ_EVERY_MS && period < VERSION_READ_AT_MOST_MS, `${id}: ${period}`);
    assert.equal(versionPeriodMs(id), period);
  }
});

test('10,000 panels read in one pass fall due spread over the half hour: no minute holds over 6% of them', () => {
  const minutes = new Map<number, number>();
  for (const id of ids) {
    const minute = Math.floor((versionPeriodMs(id) - VERSION_READ_EVERY_MS) / 60_000);
    minutes.set(minute, (minutes.get(minute) ?? 0) + 1);
  }
  // 30 minutes: an even spread puts 333 in each; all together would be 10,000 in one.
  assert.equal(minutes.size, 30);
  assert.ok(Math.max(...minutes.values()) < 600, `busiest minute: ${Math.max(...minutes.values())}`);
});
