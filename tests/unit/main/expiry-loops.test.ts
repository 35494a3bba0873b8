import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Panel, PanelCheck } from '../../../shared/types.ts';
import { iso, MINUTE, panel, SECOND, setUp, T0 } from '../../support/background-fakes.ts';

/**
 * A panel's session answers must never drive the background's reads: whatever end each answer
 * names (a past moment, one a second ahead, a sliding session on a slow clock), reads keep to the
 * check interval (plus at most one early read per interval at a session's end) and the operator
 * is warned once per sign-in.
 */
const INTERVAL_MINUTES = 5;

/** A background whose core answers each read with the session end `endFor(readAt)`, as the real core reports it. */
async function run(endFor: (readAt: number, read: number) => number, minutes: number) {
  const start = panel(1, { sessionExpiresAt: iso(endFor(T0, 0)), lastCheck: { at: iso(T0), ok: true } });
  const { clock, work, core, log } = setUp([start], { checkIntervalMinutes: INTERVAL_MINUTES, expiryWarningMinutes: 10 });
  let current: Panel = start;
  let reads = 0;
  const ends = [endFor(T0, 0)];
  core.checkPanels = async (ids?: string[]): Promise<PanelCheck[]> => {
    const at = clock.now();
    log.checks.push({ ids, at });
    reads++;
    ends.push(endFor(at, reads));
    current = { ...current, sessionExpiresAt: iso(ends.at(-1)!), lastCheck: { at: iso(at), ok: true } };
    work.emit({ type: 'panelsChanged', panels: [current] });
    return [{ panelId: current.id, checkedAt: iso(at), ok: true }];
  };
  await work.start(core);
  await clock.advanceTo(T0 + minutes * MINUTE);
  await work.stop();
  const expiring = log.window.filter((event) => event.type === 'sessionExpiring').length;
  // Answers whose end moved later by more than the warning time: a new end, worth a new warning.
  const newEnds = ends.filter((end, index) => index > 0 && end > ends[index - 1]! + 10 * MINUTE).length;
  return { reads, expiring, notices: log.notices.length, windowEvents: log.window.length, newEnds };
}

/** Reads a background may make in `minutes`: the first pass, one per interval, one early read per interval. */
const readBound = (minutes: number) => 1 + 2 * Math.ceil(minutes / INTERVAL_MINUTES);

describe('session answers do not drive reads or warnings', () => {
  test('each answer names another moment in the past: reads keep to the interval (188 reads in 10 s before)', async () => {
    const outcome = await run((readAt, read) => readAt - (read + 1) * SECOND, 10);
    assert.ok(outcome.reads <= readBound(10), `${outcome.reads} reads in 10 minutes`);
    assert.ok(outcome.windowEvents <= 3 * readBound(10), `${outcome.windowEvents} window events`);
  });

  test('each answer says the session ends in a second: one warning, reads keep to the interval (one every 7 s before)', async () => {
    const outcome = await run((readAt) => readAt + SECOND, 10);
    assert.equal(outcome.notices, 1);
    assert.equal(outcome.expiring, 1);
    assert.ok(outcome.reads <= readBound(10), `${outcome.reads} reads in 10 minutes`);
  });

  test('a sliding session that always ends 10 minutes and 1 ms after each read: one warning, not one per read', async () => {
    const outcome = await run((readAt) => readAt + 10 * MINUTE + 1, 30);
    assert.equal(outcome.notices, 1);
  });

  test('an honest sliding session on a clock 2 minutes slow: one warning, reads keep to the interval', async () => {
    const outcome = await run((readAt) => readAt + 8 * MINUTE - 2 * MINUTE, 30);
    assert.equal(outcome.notices, 1);
    assert.ok(outcome.reads <= readBound(30), `${outcome.reads} reads in 30 minutes`);
  });

  test('property: whatever ends the answers name, reads stay within the bound, and a new warning needs an end moved later by the warning time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -90 * MINUTE, max: 90 * MINUTE }), { minLength: 1, maxLength: 40 }), async (offsets) => {
        const outcome = await run((readAt, read) => readAt + offsets[read % offsets.length]!, 60);
        assert.ok(outcome.reads <= readBound(60), `${outcome.reads} reads in an hour`);
        assert.ok(outcome.notices <= 1 + outcome.newEnds, `${outcome.notices} notices for ${outcome.newEnds} new ends`);
        assert.ok(outcome.expiring === outcome.notices, 'the window is told exactly when a notification shows');
      }),
      { numRuns: 60 },
    );
  });
});
