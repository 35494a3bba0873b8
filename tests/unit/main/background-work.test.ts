import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import type { PanelCheck } from '../../../shared/types.ts';
import { BackgroundWork } from '../../../electron/main/background-work.ts';
import { checkedIds, fakeSystem, iso, MINUTE, panel, SECOND, setUp, T0 } from '../../support/background-fakes.ts';

/**
 * Main's wiring of the background on a fake clock, around a fake core that records what it is
 * asked: events reach the window and the scheduler and watcher, and settings re-plan at once.
 */

describe('background work', () => {
  test('start reads the settings and the list; the first pass checks the signed-in panels only', async () => {
    const a = panel(1);
    const b = panel(2, { signedIn: false, tokenStorage: null });
    const { clock, work, core, log } = setUp([a, b]);
    await work.start(core);
    await clock.advanceBy(10 * SECOND - 1);
    assert.deepEqual(log.checks, []);
    await clock.advanceBy(1);
    assert.deepEqual(checkedIds(log), [[a.id]]);
    // Then every interval (5 min by default).
    await clock.advanceBy(5 * MINUTE);
    assert.deepEqual(checkedIds(log), [[a.id], [a.id]]);
    assert.deepEqual(log.errors, []);
  });

  test('every event of the core goes to the window, before start too', async () => {
    const { work, core, log } = setUp([]);
    const events: PanelEvent[] = [
      { type: 'panelsChanged', panels: [panel(1)] },
      { type: 'checkProgress', done: 1, total: 2 },
      { type: 'panelsRemoved', panelIds: [panel(1).id] },
    ];
    work.emit(events[0]!);
    await work.start(core);
    work.emit(events[1]!);
    work.emit(events[2]!);
    assert.deepEqual(log.window, events);
  });

  test('panelsChanged: a panel signed in now is checked soon; panelsRemoved: a removed one is not checked', async () => {
    const a = panel(1, { signedIn: false, tokenStorage: null });
    const b = panel(2);
    const { clock, work, core, log } = setUp([a, b]);
    await work.start(core);
    work.emit({ type: 'panelsChanged', panels: [{ ...a, signedIn: true, tokenStorage: 'keyring' }] });
    work.emit({ type: 'panelsRemoved', panelIds: [b.id] });
    await clock.advanceBy(5 * SECOND);
    assert.deepEqual(checkedIds(log), [[a.id]]);
    await clock.advanceBy(20 * SECOND);
    assert.deepEqual(checkedIds(log), [[a.id]], 'b was removed before its first pass');
  });

  test('a window that throws does not stop the background', async () => {
    const { clock, core, log } = setUp([panel(1)]);
    const work = new BackgroundWork({
      toWindow: () => {
        throw new Error('window gone');
      },
      showWindow: () => undefined,
      system: fakeSystem(),
      notifier: { notify: () => undefined },
      clock,
      random: () => 0.5,
      onError: (error) => log.errors.push(error),
    });
    await work.start(core);
    work.emit({ type: 'checkProgress', done: 0, total: 1 });
    await clock.advanceBy(10 * SECOND);
    assert.equal(log.checks.length, 1);
    assert.equal(log.errors.length, 1);
  });

  test('a session about to end: the window is told, a notification shows, and its click focuses the panel', async () => {
    const a = panel(1, { sessionExpiresAt: iso(T0 + 15 * MINUTE) });
    const { clock, work, core, log } = setUp([a], { checkIntervalMinutes: 0 });
    await work.start(core);
    await clock.advanceTo(T0 + 5 * MINUTE);
    assert.deepEqual(log.window, [{ type: 'sessionExpiring', panelId: a.id, expiresAt: a.sessionExpiresAt }]);
    assert.equal(log.notices.length, 1);
    assert.match(log.notices[0]!.title, /Panel 1/);
    log.notices[0]!.onClick();
    assert.equal(log.shown, 1);
    assert.deepEqual(log.window.at(-1), { type: 'focusPanel', panelId: a.id, tab: 'session' });
    // Once it has ended, the panel is checked again (its read will say the session ended).
    await clock.advanceTo(T0 + 15 * MINUTE + 5 * SECOND);
    assert.deepEqual(checkedIds(log), [[a.id]]);
  });

  test('no notification when the operator turned them off; the window is still told', async () => {
    const a = panel(1, { sessionExpiresAt: iso(T0 + 15 * MINUTE) });
    const { clock, work, core, log } = setUp([a], { checkIntervalMinutes: 0, notifyBeforeExpiry: false });
    await work.start(core);
    await clock.advanceTo(T0 + 5 * MINUTE);
    assert.equal(log.window.length, 1);
    assert.deepEqual(log.notices, []);
  });

  test('a settings change the core tells of re-plans at once: interval and warning time', async () => {
    const a = panel(1, { lastCheck: { at: iso(T0), ok: true }, sessionExpiresAt: iso(T0 + 60 * MINUTE) });
    const { clock, work, core, log } = setUp([a]);
    await work.start(core);
    await clock.advanceBy(10 * SECOND);
    assert.equal(log.checks.length, 1);
    const status = await core.updateSettings({ checkIntervalMinutes: 0, expiryWarningMinutes: 58 });
    assert.equal(status.settings.checkIntervalMinutes, 0);
    // The warning moves to 58 minutes before the end: now plus two minutes, not 50 minutes away.
    await clock.advanceTo(T0 + 2 * MINUTE);
    assert.deepEqual(
      log.window.map((event) => event.type),
      ['sessionExpiring'],
    );
    // Checks are off: nothing for an hour (but the recheck at the session's end).
    await clock.advanceTo(T0 + 59 * MINUTE);
    assert.equal(log.checks.length, 1);
    await core.updateSettings({ checkIntervalMinutes: 1 });
    await clock.advanceBy(10 * SECOND);
    assert.equal(log.checks.length, 2, 'checks back on: the panel is checked soon');
  });

  test('checks the operator starts count as the last checks: the first pass does not repeat them', async () => {
    const a = panel(1);
    const { clock, work, core, log } = setUp([a]);
    await work.start(core);
    await clock.advanceBy(2 * SECOND);
    const results = await core.checkPanels(undefined);
    assert.deepEqual(
      results.map((result) => result.panelId),
      [a.id],
    );
    await clock.advanceBy(MINUTE);
    assert.equal(log.checks.length, 1, 'only the operator\u2019s check');
    await clock.advanceTo(T0 + 2 * SECOND + 5 * MINUTE);
    assert.equal(log.checks.length, 2);
  });

  test('a check that says the panel is signed out stops its checks until it signs in again', async () => {
    const a = panel(1);
    const { clock, work, core, log, setFailure } = setUp([a]);
    setFailure('UNAUTHORIZED');
    await work.start(core);
    await clock.advanceBy(10 * SECOND);
    assert.equal(log.checks.length, 1);
    work.emit({ type: 'panelsChanged', panels: [{ ...a, signedIn: false, tokenStorage: null }] });
    await clock.advanceBy(60 * MINUTE);
    assert.equal(log.checks.length, 1);
  });

  test('sleep cancels the pass under way and pauses the checks; offline too; both pick up again after', async () => {
    const a = panel(1);
    const { clock, work, core, log, system } = setUp([a]);
    let started = 0;
    let release: (() => void) | undefined;
    const slow = {
      ...core,
      checkPanels: (ids?: string[]) => {
        started++;
        return new Promise<PanelCheck[]>((resolve) => (release = () => resolve(core.checkPanels(ids))));
      },
    };
    await work.start(slow);
    await clock.advanceBy(10 * SECOND);
    assert.equal(started, 1);
    system.emit('suspend');
    assert.equal(log.cancels, 1, 'the pass under way is cancelled');
    release?.();
    await clock.advanceBy(30 * MINUTE);
    assert.equal(started, 1, 'nothing while asleep');
    system.emit('resume');
    await clock.advanceBy(5 * MINUTE + 10 * SECOND);
    assert.equal(started, 2, 'awake: checks again');
    release?.();
    system.online = false;
    system.emit('offline');
    await clock.advanceBy(30 * MINUTE);
    assert.equal(started, 2, 'nothing while offline');
    system.online = true;
    system.emit('online');
    await clock.advanceBy(10 * SECOND);
    assert.equal(started, 3, 'online: the overdue panel is checked soon');
    release?.();
    assert.deepEqual(log.errors, []);
  });
});

describe('the daily reads in the background', () => {
  test('the backups and the certificates are asked a while after the start, one after the other, then hourly, and no more after stop', async () => {
    const { clock, work, core, log } = setUp([panel(1)]);
    const asked: string[] = [];
    const withReads = {
      ...core,
      listBackups: async () => {
        asked.push(`backups ${clock.now() - T0}`);
        return [];
      },
      listCertificates: async () => {
        asked.push(`certificates ${clock.now() - T0}`);
        return [];
      },
    };
    await work.start(withReads);
    await clock.advanceBy(3 * MINUTE);
    assert.deepEqual(asked, [`backups ${3 * MINUTE}`, `certificates ${3 * MINUTE}`]);
    await clock.advanceBy(60 * MINUTE);
    assert.equal(asked.length, 4);
    await work.stop();
    await clock.advanceBy(5 * 60 * MINUTE);
    assert.equal(asked.length, 4);
    assert.deepEqual(log.errors, []);
  });
});
