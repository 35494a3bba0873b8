import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { agoText, durationText, HOUR_MS, MINUTE_MS, relativeText, untilText } from '../../../shared/durations.ts';

/** The one way Paneldeck words a length of time: the window, the list and the notification agree. */

const SECOND = 1000;
const DAY = 24 * HOUR_MS;
const now = Date.parse('2030-01-01T12:00:00.000Z');

test('a length of time: minutes, then hours and minutes, then days from 48 hours', () => {
  assert.equal(durationText(0), 'under a minute');
  assert.equal(durationText(59 * SECOND), 'under a minute');
  assert.equal(durationText(MINUTE_MS), '1 min');
  assert.equal(durationText(40 * MINUTE_MS), '40 min');
  assert.equal(durationText(HOUR_MS), '1 h');
  assert.equal(durationText(2 * HOUR_MS + 5 * MINUTE_MS), '2 h 5 min');
  assert.equal(durationText(47 * HOUR_MS + 59 * MINUTE_MS), '47 h 59 min');
  assert.equal(durationText(48 * HOUR_MS), '2 days');
  assert.equal(durationText(72 * HOUR_MS + 30 * MINUTE_MS), '3 days');
  assert.equal(durationText(-5 * MINUTE_MS), 'under a minute', 'a negative length is none');
});

test('one rounding rule: whole units gone by or left, rounded down, never up', () => {
  assert.equal(durationText(10 * MINUTE_MS - 1), '9 min');
  assert.equal(durationText(3 * MINUTE_MS + 20 * SECOND), '3 min');
  assert.equal(durationText(HOUR_MS - 1), '59 min');
  assert.equal(durationText(3 * DAY - 1), '2 days');
  // A countdown never says more time is left than there is; "ago" never says longer than it was.
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10 * DAY }), (ms) => {
      const text = durationText(ms);
      const said = text === 'under a minute' ? 0 : unitsOf(text);
      assert.ok(said <= ms, `${text} for ${ms} ms`);
      assert.ok(ms - said < (said >= 2 * DAY ? DAY : MINUTE_MS), `${text} for ${ms} ms is more than one unit short`);
    }),
  );
});

test('ago: "just now" under a minute, a time ahead of the clock too; nothing for no time', () => {
  assert.equal(agoText(now, now), 'just now');
  assert.equal(agoText(now - 30 * SECOND, now), 'just now');
  assert.equal(agoText(now - 3 * MINUTE_MS - 59 * SECOND, now), '3 min ago');
  assert.equal(agoText(now - 5 * HOUR_MS, now), '5 h ago');
  assert.equal(agoText(now - 72 * HOUR_MS, now), '3 days ago');
  assert.equal(agoText(now + 5 * MINUTE_MS, now), 'just now');
  assert.equal(agoText(Date.parse('not a time'), now), '');
});

test('until: "in" and the length left; a time gone by is under a minute; nothing for no time', () => {
  assert.equal(untilText(now + 9 * MINUTE_MS, now), 'in 9 min');
  assert.equal(untilText(now + 10 * MINUTE_MS - 1, now), 'in 9 min');
  assert.equal(untilText(now + 5 * SECOND, now), 'in under a minute');
  assert.equal(untilText(now + 125 * MINUTE_MS, now), 'in 2 h 5 min');
  assert.equal(untilText(now - MINUTE_MS, now), 'in under a minute');
  assert.equal(untilText(Number.NaN, now), '');
});

test('relative: whichever side of now the time is on', () => {
  assert.equal(relativeText(now + 3 * HOUR_MS + 10 * MINUTE_MS, now), 'in 3 h 10 min');
  assert.equal(relativeText(now - 5 * MINUTE_MS, now), '5 min ago');
  assert.equal(relativeText(now + DAY, now), 'in 24 h');
  assert.equal(relativeText(now, now), 'just now');
});

/** The milliseconds a text says: "2 h 5 min" is 125 minutes. */
function unitsOf(text: string): number {
  const sizes: Record<string, number> = { min: MINUTE_MS, h: HOUR_MS, days: DAY };
  let total = 0;
  for (const [, count, unit] of text.matchAll(/(\d+) (min|h|days)/g)) total += Number(count) * sizes[unit!]!;
  return total;
}
