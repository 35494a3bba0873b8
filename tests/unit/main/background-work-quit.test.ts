import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import { createCore } from '../../../electron/core/index.ts';
import { BackgroundWork } from '../../../electron/main/background-work.ts';
import { startReferencePanel, DEMO_USER } from '../../support/reference-panel/server.ts';
import { settle } from '../../support/fake-clock.ts';
import { tempDir, testEncryption } from '../../support/helpers.ts';
import { fakeSystem, iso, MINUTE, panel, setUp, T0 } from '../../support/background-fakes.ts';

/** Main's background at quit, and end to end with a real core and reference panel. */

describe('background work at quit', () => {
  test('stop at quit: no more checks or warnings, and the core is flushed once', async () => {
    const a = panel(1, { sessionExpiresAt: iso(T0 + 15 * MINUTE) });
    const { clock, work, core, log } = setUp([a]);
    await work.start(core);
    await Promise.all([work.stop(), work.stop()]);
    assert.equal(log.flushes, 1);
    work.emit({ type: 'panelsChanged', panels: [panel(2)] });
    await clock.advanceBy(60 * MINUTE);
    assert.deepEqual(log.checks, []);
    assert.deepEqual(log.notices, []);
    assert.equal(clock.pendingCount(), 0);
  });

  test('before-quit is held once until the flush is done, then the quit goes through', async () => {
    const { work, core, log } = setUp([]);
    await work.start(core);
    let quits = 0;
    const onBeforeQuit = work.beforeQuit(() => quits++);
    const prevented: boolean[] = [];
    const event = () => {
      const record = { prevented: false, preventDefault: () => (record.prevented = true) };
      return record;
    };
    const first = event();
    onBeforeQuit(first);
    const repeated = event();
    onBeforeQuit(repeated);
    prevented.push(first.prevented, repeated.prevented);
    await settle();
    assert.equal(log.flushes, 1);
    assert.equal(quits, 1);
    const last = event();
    onBeforeQuit(last);
    prevented.push(last.prevented);
    assert.deepEqual(prevented, [true, true, false]);
  });

  test('a flush that never ends does not keep the app from quitting', async () => {
    const { clock, core } = setUp([]);
    const work = new BackgroundWork({
      toWindow: () => undefined,
      showWindow: () => undefined,
      system: fakeSystem(),
      notifier: { notify: () => undefined },
      clock,
      quitTimeoutMs: 20,
    });
    await work.start({ ...core, flush: () => new Promise<void>(() => undefined) });
    const event = { prevented: false, preventDefault: () => (event.prevented = true) };
    let quits = 0;
    const quitted = new Promise<'quit'>((resolve) =>
      work.beforeQuit(() => {
        quits++;
        resolve('quit');
      })(event),
    );
    assert.equal(event.prevented, true, 'the first quit is held for the flush');
    assert.equal(quits, 0);
    // quitTimeoutMs is 20 ms; a quit that waits for the flush would wait forever: give up after 2 s.
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 2000)));
    try {
      assert.equal(await Promise.race([quitted, hung]), 'quit', 'the quit went through without the flush');
    } finally {
      clearTimeout(timer);
    }
    assert.equal(quits, 1);
  });
});

test('with a real core and panel: the first pass checks, the window hears it, an expired session shows signed out', async () => {
  const server = await startReferencePanel();
  const dir = await tempDir();
  const window: PanelEvent[] = [];
  const work = new BackgroundWork({
    toWindow: (event) => window.push(event),
    showWindow: () => undefined,
    system: fakeSystem(),
    notifier: { notify: () => undefined },
    timing: { firstPassDelayMs: 0, firstPassSpreadMs: 0 },
  });
  const core = createCore({ dataDir: dir.path, encryption: testEncryption(), emit: work.emit });
  try {
    const added = await core.addPanel({ address: server.url, name: 'Production' });
    await core.logIn(added.id, { email: DEMO_USER.email, password: DEMO_USER.password });
    await work.start(core);
    const changedPanels = () => window.flatMap((event) => (event.type === 'panelsChanged' ? event.panels : []));
    await waitFor(() => changedPanels().some((one) => one.lastCheck?.ok === true && one.sessionExpiresAt !== null));
    assert.ok(window.some((event) => event.type === 'checkProgress'));
    // The pass goes on to read the panel's state after its session: a check asked for before it ends joins it.
    await waitFor(() => window.some((event) => event.type === 'checkProgress' && event.total > 0 && event.done === event.total));

    server.expireAllTokens();
    const [result] = await core.checkPanels(undefined);
    assert.equal(result?.ok, false);
    await waitFor(() => changedPanels().at(-1)?.signedIn === false);
    assert.equal(changedPanels().at(-1)?.signedOutReason?.code, 'UNAUTHORIZED');
  } finally {
    await work.stop();
    await server.close();
  }
  assert.ok(existsSync(join(dir.path, 'checks.json')), 'the check history was written at stop');
  await dir.cleanup();
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) assert.fail('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
