import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import type { PanelHealth } from '../../../../shared/fleet-state.ts';
import { judgePanel, PANEL_STATES, servicesDownText, staleSince } from '../../../../renderer/ui/panel-state.ts';
import { sampleHealth, samplePanel } from '../../../support/panel-fixture.ts';

/** The window's one judgement of a panel's state (issue 31): unknown is never OK, services down are named, old figures are stale. */

const at = '2030-01-01T12:00:00.000Z';
const later = '2030-01-01T15:00:00.000Z';
const signedIn = samplePanel(1, { signedIn: true, lastEmail: 'ops@example.com', lastCheck: { at, ok: true } });
const problem = (message: string, code: ErrorCode = 'BAD_RESPONSE') => ({ at, code, message, routesMissing: false });

test('garbage task stats: servicesDown null with a problem is "State unknown", in Needs attention, never OK or 0 down', () => {
  const health = sampleHealth(signedIn, at, {
    servicesDown: null,
    services: null,
    problem: problem("The panel's task stats were not understood."),
  });
  const judged = judgePanel(signedIn, health);
  assert.deepEqual([judged.state, judged.word, judged.attention], ['unknown', 'State unknown', true]);
  assert.equal(judged.reason, "State unknown: The panel's task stats were not understood.");
  assert.doesNotMatch(judged.reason ?? '', /0 down|OK/);
});

test('services down are named where room allows, the count where not', () => {
  const two = sampleHealth(signedIn, at, { servicesDown: 2, downServices: ['shop/web', 'shop/api'] });
  assert.equal(servicesDownText(two, 'short'), 'web, api down');
  assert.equal(servicesDownText(two, 'long'), '2 services down: shop/web, shop/api');
  const five = sampleHealth(signedIn, at, { servicesDown: 5, downServices: ['a/1', 'a/2', 'a/3', 'a/4', 'a/5'] });
  assert.equal(servicesDownText(five, 'short'), '1, 2 +3 down');
  assert.equal(servicesDownText(five, 'long'), '5 services down: a/1, a/2, a/3, …');
  assert.equal(servicesDownText(sampleHealth(signedIn, at, { servicesDown: 1, downServices: null }), 'short'), '1 service down');
  const judged = judgePanel(signedIn, two);
  assert.deepEqual([judged.word, judged.tone], ['Degraded', 'amber'], 'not green');
});

test('figures older than the last check are stale: a failed check, a failed read, a panel signed out', () => {
  const health = sampleHealth(signedIn, at);
  assert.equal(staleSince(signedIn, health), null, 'the last check\u2019s own');
  const unreachable = {
    ...signedIn,
    lastCheck: { at: later, ok: false as const, error: { code: 'NETWORK' as const, message: 'refused' } },
  };
  assert.equal(staleSince(unreachable, health), at);
  assert.equal(judgePanel(unreachable, health).word, 'Unreachable');
  assert.equal(staleSince(signedIn, { ...health, problem: { ...problem('slow', 'TIMEOUT'), at: later } }), at);
  const expired = samplePanel(1, { signedOutReason: { code: 'UNAUTHORIZED', message: 'ended' } });
  assert.equal(staleSince(expired, health), at);
  assert.equal(judgePanel(expired, health).word, 'Expired');
});

test('a panel with no state routes, or not read yet, is "Signed in": not OK, and nothing to attend to', () => {
  assert.deepEqual([judgePanel(signedIn, undefined).word, judgePanel(signedIn, undefined).attention], ['Signed in', false]);
  const none = sampleHealth(signedIn, at, { servicesDown: null, services: null, problem: { ...problem('no route'), routesMissing: true } });
  const judged = judgePanel(signedIn, none);
  assert.deepEqual([judged.word, judged.attention], ['Signed in', false]);
});

test('every word the judgement gives is its state\u2019s in the one table', () => {
  const states = new Set(Object.values(PANEL_STATES).map((entry) => entry.word));
  assert.equal(states.size, Object.keys(PANEL_STATES).length, 'one word per state, no two alike');
  for (const retired of ['Failing', 'Down', 'Not answering', 'Signed in, last check failed', 'Failed'])
    assert.ok(!states.has(retired), retired);
});

test('property: whatever the panel and its state read, a reading not understood is never OK, and an OK is the table\u2019s', () => {
  const code = fc.constantFrom<ErrorCode>('BAD_RESPONSE', 'TIMEOUT', 'NETWORK', 'SERVER_ERROR', 'RESPONSE_TOO_LARGE');
  const figure = fc.option(fc.nat(1000), { nil: null });
  const health = fc.record({
    servicesDown: fc.option(fc.nat(5), { nil: null }),
    problem: fc.option(fc.record({ at: fc.constant(at), code, message: fc.string(), routesMissing: fc.boolean() }), { nil: null }),
    cpuPercent: figure,
    disk: fc.record({ usedGb: figure, totalGb: figure }),
  });
  const check = fc.option(
    fc.oneof(
      fc.constant({ at, ok: true as const }),
      fc.record({ at: fc.constant(at), ok: fc.constant(false as const), error: fc.record({ code, message: fc.string() }) }),
    ),
    { nil: null },
  );
  fc.assert(
    fc.property(fc.boolean(), fc.boolean(), check, fc.option(health, { nil: undefined }), (on, muted, lastCheck, read) => {
      const panel = samplePanel(1, { signedIn: on, muted, lastCheck, lastEmail: 'ops@example.com' });
      const state: PanelHealth | undefined = read && sampleHealth(panel, at, read);
      const judged = judgePanel(panel, state);
      assert.equal(judged.word, PANEL_STATES[judged.state].word);
      const understood = state !== undefined && state.servicesDown !== null && state.problem === null;
      if (judged.state === 'ok') {
        assert.ok(understood, 'OK only on a state read and understood');
        assert.ok(on && (lastCheck === null || lastCheck.ok));
      }
      if (on && state && !understood && !state.problem?.routesMissing) assert.notEqual(judged.state, 'ok');
    }),
  );
});
