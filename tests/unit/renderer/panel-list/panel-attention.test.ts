import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API_TOKEN_KEPT_MESSAGE } from '../../../../shared/contract/errors.ts';
import type { PanelHealth } from '../../../../shared/fleet-state.ts';
import type { Panel } from '../../../../shared/types.ts';
import { panelAttention, panelFacts, SEVERITY } from '../../../../renderer/panel-list/panel-attention.ts';
import { samplePanel } from '../../../support/panel-fixture.ts';

/** Why a panel needs attention: facts only, worst first, each with its reason; muted panels keep the reason and leave the list. */

const at = '2030-01-01T00:05:00.000Z';
const signedIn = (change: Partial<Panel> = {}) =>
  samplePanel(1, { signedIn: true, lastEmail: 'ops@example.com', lastCheck: { at, ok: true }, ...change });
function health(change: Partial<PanelHealth> = {}): PanelHealth {
  return {
    panelId: samplePanel(1).id,
    readAt: at,
    servicesDown: 0,
    downServices: [],
    services: { running: 4 },
    cpuPercent: 12.5,
    memory: { usedMb: 1000, totalMb: 4000 },
    disk: { usedGb: 40, totalGb: 100 },
    version: '2.30.1',
    problem: null,
    ...change,
  };
}

test('a healthy panel, one signed out on purpose, and one never logged in need nothing; the last two are told apart', () => {
  const ok = panelAttention(signedIn(), health());
  assert.deepEqual([ok.severity, ok.reason, ok.attention, ok.tone, ok.word], [SEVERITY.none, null, false, 'green', 'OK']);
  const loggedOut = panelAttention(samplePanel(1, { lastEmail: 'ops@example.com' }), undefined);
  assert.deepEqual([loggedOut.attention, loggedOut.word, loggedOut.reason], [false, 'Signed out', null]);
  const never = panelAttention(samplePanel(1), undefined);
  assert.deepEqual([never.attention, never.word, never.tone], [false, 'New', 'grey']);
  const tokenKept = panelAttention(
    samplePanel(1, { signedOutReason: { code: 'UNAUTHORIZED', message: API_TOKEN_KEPT_MESSAGE } }),
    undefined,
  );
  assert.equal(tokenKept.severity, SEVERITY.expired, 'a panel that ended the session is expired however it was said');
});

test('each fact, with its reason: unreachable, expired, a failed log in, services down, a full disk, a failed check', () => {
  const unreachable = panelAttention(
    signedIn({ lastCheck: { at, ok: false, error: { code: 'NETWORK', message: 'refused\nmore' } } }),
    health(),
  );
  assert.deepEqual([unreachable.severity, unreachable.reason, unreachable.tone], [SEVERITY.unreachable, 'Unreachable: refused', 'red']);
  const expired = panelAttention(samplePanel(1, { signedOutReason: { code: 'UNAUTHORIZED', message: 'The panel said 401.' } }), undefined);
  assert.deepEqual([expired.severity, expired.reason, expired.word], [SEVERITY.expired, 'Session expired: The panel said 401.', 'Expired']);
  const failed = panelAttention(samplePanel(1, { signedOutReason: { code: 'ENCRYPTION_UNAVAILABLE', message: 'No keyring.' } }), undefined);
  assert.equal(failed.severity, SEVERITY.loginFailed);
  assert.match(failed.reason ?? '', /No keyring/);
  const down = panelAttention(signedIn(), health({ servicesDown: 1, downServices: null }));
  assert.deepEqual([down.severity, down.reason, down.tone], [SEVERITY.servicesDown, '1 service down', 'amber']);
  const named = panelAttention(signedIn(), health({ servicesDown: 2, downServices: ['shop/web', 'shop/api'] }));
  assert.deepEqual([named.word, named.reason], ['Degraded', '2 services down: shop/web, shop/api']);
  const full = panelAttention(signedIn(), health({ disk: { usedGb: 91, totalGb: 100 } }));
  assert.deepEqual([full.severity, full.reason], [SEVERITY.diskFull, 'Disk 91% full']);
  assert.equal(panelAttention(signedIn(), health({ disk: { usedGb: 90, totalGb: 100 } })).attention, false, 'over 90 %, not at it');
  const failing = panelAttention(signedIn({ lastCheck: { at, ok: false, error: { code: 'SERVER_ERROR', message: '500' } } }), health());
  assert.deepEqual([failing.severity, failing.word, failing.attention], [SEVERITY.stateUnknown, 'State unknown', true]);
});

test('several facts: the worst decides, every reason is said worst first; a state not read is unknown, never OK', () => {
  const both = panelAttention(signedIn(), health({ servicesDown: 3, disk: { usedGb: 99, totalGb: 100 } }));
  assert.equal(both.severity, SEVERITY.servicesDown);
  assert.equal(both.reason, '3 services down · Disk 99% full');
  const unread = panelAttention(
    signedIn(),
    health({ servicesDown: null, problem: { at, code: 'TIMEOUT', message: 'slow', routesMissing: false } }),
  );
  assert.deepEqual([unread.attention, unread.reason, unread.word], [true, 'State unknown: slow', 'State unknown']);
  assert.equal(panelAttention(samplePanel(1), health({ servicesDown: 2 })).attention, false, 'a signed-out panel has no live state');
});

test('a muted panel keeps its reason and state, and leaves Needs attention', () => {
  const muted = panelAttention(signedIn({ muted: true }), health({ servicesDown: 2 }));
  assert.deepEqual([muted.severity, muted.reason, muted.attention], [SEVERITY.servicesDown, '2 services down', false]);
});

test('the facts the search tests: figures as percentages, unknown as null, the version named, an update said', () => {
  assert.deepEqual(panelFacts(signedIn({ panelVersion: '2.30.1', updateAvailable: true }), health()), {
    servicesDown: 0,
    diskPercent: 40,
    memoryPercent: 25,
    cpuPercent: 12.5,
    version: '2.30.1',
    updateAvailable: true,
  });
  assert.deepEqual(panelFacts(samplePanel(1), undefined), {
    servicesDown: null,
    diskPercent: null,
    memoryPercent: null,
    cpuPercent: null,
    version: null,
    updateAvailable: null,
  });
});
