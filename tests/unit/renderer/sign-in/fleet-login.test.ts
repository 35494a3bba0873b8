import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CODE_REFUSED_MESSAGE } from '../../../../shared/contract/errors.ts';
import { countOutcomes, outcomeOfError, type FleetLogInResult } from '../../../../shared/fleet-login.ts';
import {
  fleetLogInLabel,
  fleetTargets,
  otherFailures,
  outcomeLines,
  resultsToFinish,
  retriedResult,
  fleetEmail,
  groupRuns,
  logInGroups,
  fleetEmails,
  credentialsKey,
  mergedResults,
  notRefusedBefore,
  refusedPanels,
  sharedEmail,
  unencryptedTargets,
  withOutcome,
} from '../../../../renderer/sign-in/fleet-login.ts';

const result = (panelId: string, outcome: FleetLogInResult['outcome']): FleetLogInResult =>
  outcome === 'signedIn' ? { panelId, outcome } : { panelId, outcome, error: { code: 'INTERNAL', message: outcome } };

test('the email is the panels’ own when they agree, else the default', () => {
  assert.equal(sharedEmail([{ lastEmail: 'a@x' }, { lastEmail: null }, { lastEmail: 'a@x' }], 'd@x'), 'a@x');
  assert.equal(sharedEmail([{ lastEmail: 'a@x' }, { lastEmail: 'b@x' }], 'd@x'), 'd@x');
  assert.equal(sharedEmail([{ lastEmail: null }], null), '');
});

test('with neither, the email the fleet used most is offered (the one typed for 188 panels, for the next 12)', () => {
  const fleet = [{ lastEmail: 'ops@x' }, { lastEmail: 'client@y' }, { lastEmail: 'ops@x' }, { lastEmail: null }];
  assert.equal(fleetEmail(fleet), 'ops@x');
  assert.equal(fleetEmail([{ lastEmail: null }]), null);
  assert.deepEqual(fleetEmails(fleet), ['ops@x', 'client@y']);
  // A tie goes to the first seen, so the offer does not change while nothing is signed in.
  assert.equal(fleetEmail([{ lastEmail: 'b@x' }, { lastEmail: 'a@x' }]), 'b@x');
  assert.equal(sharedEmail([{ lastEmail: null }], null, fleet), 'ops@x');
  // The panels' own, then Preferences, come first.
  assert.equal(sharedEmail([{ lastEmail: null }], 'd@x', fleet), 'd@x');
  assert.equal(sharedEmail([{ lastEmail: 'client@y' }], 'd@x', fleet), 'client@y');
});

test('signed-in panels only when asked; plain http named; the label counts who it goes to', () => {
  const panels = [
    { signedIn: true, allowPlainHttp: false, baseUrl: 'https://a/api' },
    { signedIn: false, allowPlainHttp: true, baseUrl: 'http://b/api' },
    { signedIn: false, allowPlainHttp: true, baseUrl: 'https://c/api' },
  ];
  assert.equal(fleetTargets(panels, false).length, 2);
  assert.equal(fleetTargets(panels, true).length, 3);
  assert.deepEqual(unencryptedTargets(panels), [panels[1]]);
  assert.equal(fleetLogInLabel(panels), 'Log in to 2 panels…');
  assert.equal(fleetLogInLabel([panels[0]!, panels[0]!]), 'Log in again to 2 panels…');
});

test('outcomes: counted, those to finish apart from the other failures, a row finished replaced', () => {
  const results = [result('a', 'signedIn'), result('b', 'needsCode'), result('c', 'unreachable'), result('d', 'needsCode')];
  assert.deepEqual(
    outcomeLines(results).map((line) => line.text),
    ['1 signed in', '2 need a two-factor code', '1 could not be reached'],
  );
  assert.deepEqual(
    resultsToFinish(results).map((one) => one.panelId),
    ['b', 'd'],
  );
  assert.deepEqual(
    otherFailures(results).map((one) => one.panelId),
    ['c'],
  );
  const finished = withOutcome(results, { panelId: 'b', outcome: 'signedIn' });
  assert.equal(countOutcomes(finished).signedIn, 2);
  assert.equal(
    Object.values(countOutcomes(finished)).reduce((sum, n) => sum + n, 0),
    results.length,
  );
});

test('error codes map to outcomes; a refused code still needs a code', () => {
  assert.equal(outcomeOfError({ code: 'TWO_FACTOR_REQUIRED', message: '' }), 'needsCode');
  assert.equal(outcomeOfError({ code: 'CERTIFICATE_CHANGED', message: '' }), 'needsCertificate');
  assert.equal(outcomeOfError({ code: 'INVALID_CREDENTIALS', message: '' }), 'wrongPassword');
  assert.equal(outcomeOfError({ code: 'TIMEOUT', message: '' }), 'unreachable');
  assert.equal(outcomeOfError({ code: 'SERVER_ERROR', message: '' }), 'failed');
  const refused = { code: 'INVALID_CREDENTIALS' as const, message: CODE_REFUSED_MESSAGE };
  assert.equal(retriedResult(result('b', 'needsCode'), refused).outcome, 'needsCode');
  assert.equal(retriedResult(result('b', 'wrongPassword'), refused).outcome, 'wrongPassword');
});

test("by group: a client's panels share their credentials; groups by name, no group last; a group with no password is left out", () => {
  const panels = [
    { id: 'a1', group: 'Acme' },
    { id: 'n1', group: null },
    { id: 'g1', group: 'Globex' },
    { id: 'a2', group: 'Acme' },
    { id: 'b1', group: 'beta 10' },
    { id: 'b2', group: 'beta 9' },
  ];
  const groups = logInGroups(panels);
  assert.deepEqual(
    groups.map(({ key, panels: members }) => `${key || '(none)'}: ${members.map((panel) => panel.id).join(' ')}`),
    ['Acme: a1 a2', 'beta 9: b2', 'beta 10: b1', 'Globex: g1', '(none): n1'],
  );
  const typed = new Map([
    ['Acme', { email: ' ops@acme ', password: 'acme-pass' }],
    ['Globex', { email: 'ops@globex', password: '' }],
    ['', { email: 'me@x', password: 'mine' }],
  ]);
  assert.deepEqual(groupRuns(groups, typed), [
    { key: 'Acme', panelIds: ['a1', 'a2'], email: 'ops@acme', password: 'acme-pass' },
    { key: '', panelIds: ['n1'], email: 'me@x', password: 'mine' },
  ]);
  // Each panel is in exactly one run: never two passwords sent to one panel in a run.
  const sent = groupRuns(groups, new Map(groups.map(({ key }) => [key, { email: 'e@x', password: 'p' }]))).flatMap((run) => run.panelIds);
  assert.deepEqual([...sent].sort(), panels.map((panel) => panel.id).sort());
});

test('a second run over the first: the panels sent again take their new outcome, the rest keep theirs, in order', () => {
  const first = [result('a', 'signedIn'), result('b', 'wrongPassword'), result('c', 'needsCode'), result('d', 'wrongPassword')];
  assert.deepEqual(refusedPanels(first), ['b', 'd']);
  const merged = mergedResults(first, [result('d', 'signedIn'), result('b', 'wrongPassword')]);
  assert.deepEqual(
    merged.map((one) => [one.panelId, one.outcome]),
    [
      ['a', 'signedIn'],
      ['b', 'wrongPassword'],
      ['c', 'needsCode'],
      ['d', 'signedIn'],
    ],
  );
  assert.deepEqual(refusedPanels(merged), ['b']);
  assert.deepEqual(
    mergedResults([], [result('x', 'signedIn')]).map((one) => one.panelId),
    ['x'],
  );
});

test('a panel that refused an email and password is never sent the same pair again; another password or email goes', () => {
  const key = (email: string, password: string) => credentialsKey({ email, password });
  const refused = new Map([
    ['a', new Set([key('ops@x', 'secret')])],
    ['b', new Set([key('ops@x', 'secret'), key('ops@x', 'client-b')])],
  ]);
  assert.deepEqual(notRefusedBefore(['a', 'b', 'c'], { email: 'ops@x', password: 'secret' }, refused), ['c']);
  assert.deepEqual(notRefusedBefore(['a', 'b', 'c'], { email: 'ops@x', password: 'client-b' }, refused), ['a', 'c']);
  assert.deepEqual(notRefusedBefore(['a', 'b'], { email: 'other@x', password: 'secret' }, refused), ['a', 'b']);
  // The pair is the email and the password together: a newline in either cannot make another pair match.
  const newline = new Map([['a', new Set([key('ops@x', 'secret\n')])]]);
  assert.deepEqual(notRefusedBefore(['a'], { email: 'ops@x\nsecret', password: '' }, newline), ['a']);
  assert.deepEqual(notRefusedBefore(['a'], { email: 'ops@x', password: 'secret\n' }, newline), []);
});
