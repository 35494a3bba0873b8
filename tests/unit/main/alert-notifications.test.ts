import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Alert } from '../../../shared/alerts.ts';
import { iso, MINUTE, panel, setUp, T0 } from '../../support/background-fakes.ts';

/** Main's side of the alerts: a system notification per alert unless its kind is turned off, and a click that opens the panel at the alert's tab. */

const alert = (change: Partial<Alert> = {}): Alert => ({
  id: '1-1',
  at: iso(T0),
  panelId: panel(1).id,
  panelName: 'Panel 1',
  kind: 'serviceDown',
  message: 'shop/web on Panel 1 is down.',
  tab: 'services',
  service: 'shop/web',
  host: null,
  resolvedAt: null,
  acknowledgedAt: null,
  ...change,
});

test('each alert is a notification naming it; its click shows the window and the panel at the alert tab', async () => {
  const { work, core, log } = setUp([panel(1)], { checkIntervalMinutes: 0 });
  await work.start(core);
  work.emit({ type: 'alertRaised', alert: alert() });
  work.emit({
    type: 'alertRaised',
    alert: alert({ id: '1-2', kind: 'diskFull', message: 'The disk of Panel 1 is 95% full.', tab: 'overview' }),
  });
  work.emit({
    type: 'alertRaised',
    alert: alert({ id: '1-3', kind: 'unreachable', message: 'Panel 1 stopped answering.', tab: 'session' }),
  });
  assert.deepEqual(
    log.notices.map((notice) => notice.title),
    [
      // What and where, once each.
      'shop/web on Panel 1 is down.',
      'The disk of Panel 1 is 95% full.',
      'Panel 1 stopped answering.',
    ],
  );
  for (const notice of log.notices) notice.onClick();
  assert.equal(log.shown, 3);
  const focus = log.window.filter((event) => event.type === 'focusPanel');
  assert.deepEqual(
    focus.map((event) => event.tab),
    ['services', 'overview', 'session'],
  );
  // The window heard of each alert too (its list reads them again).
  assert.equal(log.window.filter((event) => event.type === 'alertRaised').length, 3);
  assert.deepEqual(log.errors, []);
});

test('Preferences: a kind turned off notifies no more (the window still hears of it); a change applies at once', async () => {
  const { work, core, log } = setUp([panel(1)], { checkIntervalMinutes: 0, notifyServiceDown: false });
  await work.start(core);
  work.emit({ type: 'alertRaised', alert: alert() });
  work.emit({ type: 'alertRaised', alert: alert({ id: '1-2', kind: 'diskFull', tab: 'overview' }) });
  assert.equal(log.notices.length, 1);
  assert.equal(log.window.filter((event) => event.type === 'alertRaised').length, 2);
  const status = await core.updateSettings({ notifyServiceDown: true, notifyDiskFull: false });
  assert.equal(status.settings.notifyDiskFull, false);
  work.emit({ type: 'alertRaised', alert: alert({ id: '1-3' }) });
  work.emit({ type: 'alertRaised', alert: alert({ id: '1-4', kind: 'diskFull', tab: 'overview' }) });
  assert.equal(log.notices.length, 2);
  assert.match(log.notices[1]!.title, /^shop\/web on Panel 1 is down/);
});

test('a session ending is recorded as an alert by the core, and notified once, by the expiry watcher alone', async () => {
  const a = panel(1, { sessionExpiresAt: iso(T0 + 15 * MINUTE) });
  const { clock, work, core, log } = setUp([a], { checkIntervalMinutes: 0 });
  const recorded: [string, string][] = [];
  await work.start({ ...core, sessionEnding: async (panelId: string, expiresAt: string) => void recorded.push([panelId, expiresAt]) });
  await clock.advanceTo(T0 + 5 * MINUTE);
  assert.deepEqual(recorded, [[a.id, a.sessionExpiresAt]]);
  // The core's alertRaised for it notifies nothing more.
  work.emit({ type: 'alertRaised', alert: alert({ kind: 'sessionEnding', tab: 'session' }) });
  assert.equal(log.notices.length, 1);
});
