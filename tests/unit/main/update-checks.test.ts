import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCore } from '../../../electron/core/index.ts';
import type { Log, LogFields } from '../../../electron/core/log/log.ts';
import { UpdateChecks, type Updater, type UpdaterEvents } from '../../../electron/main/update-checks.ts';
import type { PanelEvent } from '../../../shared/contract/events.ts';
import { isPanelEvent } from '../../../shared/contract/events.ts';
import { plainEvent } from '../../../electron/main/window-events.ts';
import { FakeClock } from '../../support/fake-clock.ts';
import { rejectsWith, tempDir, testEncryption } from '../../support/helpers.ts';

/**
 * When Paneldeck looks for an update and what it does with one, on a fake clock with a fake
 * updater that plays the release feed: found or not, downloaded, offline, refused.
 */

const SECOND = 1_000;
const DAY = 24 * 60 * 60 * SECOND;
const FIRST_CHECK = 30 * SECOND;

/** An error as electron-updater makes them: a message, and a code. */
function updaterError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A promise the test resolves when it chooses (`Promise.withResolvers` is newer than the lib here). */
interface Hold {
  promise: Promise<void>;
  resolve(): void;
}

function hold(): Hold {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve: () => resolve() };
}

class FakeUpdater implements Updater {
  checks = 0;
  downloads = 0;
  installs = 0;
  listeners: UpdaterEvents | null = null;
  /** What the next checks find; null for none. */
  latest: string | null = null;
  /** Set to make the next check fail, as electron-updater does: the `error` event, then the rejection. */
  failCheck: Error | null = null;
  /** A check that does not end until the test says so. */
  hold: Hold | null = null;

  async check(): Promise<void> {
    this.checks += 1;
    if (this.hold) await this.hold.promise;
    if (this.failCheck) {
      this.listeners?.error(this.failCheck);
      throw this.failCheck;
    }
    if (this.latest !== null) this.listeners?.available(this.latest);
  }

  async download(): Promise<void> {
    this.downloads += 1;
    if (this.latest !== null) this.listeners?.downloaded(this.latest);
  }

  quitAndInstall(): void {
    this.installs += 1;
  }

  listen(listeners: UpdaterEvents): void {
    assert.equal(this.listeners, null, 'listened to once');
    this.listeners = listeners;
  }
}

function recordingLog(): Log & { entries: { level: string; event: string; fields?: LogFields }[] } {
  const entries: { level: string; event: string; fields?: LogFields }[] = [];
  return {
    entries,
    info: (event, fields) => void entries.push({ level: 'info', event, fields }),
    warn: (event, fields) => void entries.push({ level: 'warn', event, fields }),
    error: (event, fields) => void entries.push({ level: 'error', event, fields }),
  };
}

function setUp({ packaged = true, createUpdater }: { packaged?: boolean; createUpdater?: () => Promise<Updater> } = {}) {
  const clock = new FakeClock(0);
  const updater = new FakeUpdater();
  const log = recordingLog();
  const window: PanelEvent[] = [];
  let created = 0;
  const checks = new UpdateChecks({
    packaged,
    createUpdater:
      createUpdater ??
      (async () => {
        created += 1;
        return updater;
      }),
    clock,
    log,
    toWindow: (event) => void window.push(event),
  });
  return { clock, updater, log, window, checks, created: () => created };
}

const events = (log: ReturnType<typeof recordingLog>) => log.entries.map((entry) => entry.event);

describe('update checks', () => {
  test('a build that is not packaged does nothing at all: no updater loaded, no timer, nothing logged or sent', async () => {
    const { clock, log, window, checks, created } = setUp({ packaged: false });
    checks.start();
    assert.equal(clock.pendingCount(), 0);
    await clock.advanceBy(3 * DAY);
    assert.equal(created(), 0);
    assert.deepEqual(log.entries, []);
    assert.deepEqual(window, []);
    assert.equal(checks.install(), false);
  });

  test('the first check comes a little after start, then one a day; start twice plans once', async () => {
    const { clock, updater, checks } = setUp();
    checks.start();
    checks.start();
    await clock.advanceBy(FIRST_CHECK - 1);
    assert.equal(updater.checks, 0, 'not while the window is coming up');
    await clock.advanceBy(1);
    assert.equal(updater.checks, 1);
    await clock.advanceBy(DAY - 1);
    assert.equal(updater.checks, 1);
    await clock.advanceBy(1);
    assert.equal(updater.checks, 2);
    await clock.advanceBy(DAY);
    assert.equal(updater.checks, 3);
    assert.equal(updater.downloads, 0, 'nothing found, nothing downloaded');
    assert.equal(clock.pendingCount(), 1, 'one timer at a time');
  });

  test("no second check while one runs: the day's check is skipped, the next one goes ahead", async () => {
    const { clock, updater, log, checks } = setUp();
    updater.hold = hold();
    checks.start();
    await clock.advanceBy(FIRST_CHECK);
    assert.equal(updater.checks, 1);
    await clock.advanceBy(DAY);
    assert.equal(updater.checks, 1, 'the first one still runs');
    assert.ok(events(log).includes('update.check-skipped'));
    updater.hold.resolve();
    updater.hold = null;
    await clock.advanceBy(DAY);
    assert.equal(updater.checks, 2);
  });

  test('a newer version is downloaded in the background and the window is told once; no restart, no more checks', async () => {
    const { clock, updater, log, window, checks } = setUp();
    updater.latest = '1.2.0';
    checks.start();
    await clock.advanceBy(FIRST_CHECK);
    assert.equal(updater.downloads, 1);
    assert.equal(checks.readyVersion, '1.2.0');
    assert.deepEqual(window, [{ type: 'updateReady', version: '1.2.0' }]);
    // The updater saying it again, and days going by, change nothing.
    updater.listeners?.downloaded('1.2.0');
    await clock.advanceBy(5 * DAY);
    assert.deepEqual(window, [{ type: 'updateReady', version: '1.2.0' }]);
    assert.equal(updater.checks, 1, 'nothing to look for until it is installed');
    assert.equal(updater.installs, 0, 'never restarts by itself');
    assert.deepEqual(events(log), ['update.check', 'update.download', 'update.ready']);
  });

  test("quit and install only on the operator's request, and only with an update downloaded", async () => {
    const { clock, updater, checks } = setUp();
    checks.start();
    await clock.advanceBy(FIRST_CHECK);
    assert.equal(checks.install(), false, 'nothing downloaded yet');
    assert.equal(updater.installs, 0);
    updater.latest = '1.3.0';
    await clock.advanceBy(DAY);
    assert.equal(updater.installs, 0);
    assert.equal(checks.install(), true);
    assert.equal(updater.installs, 1);
  });

  test('a failed check is logged (once, with its code, never its message) and retried the next day', async () => {
    const { clock, updater, log, window, checks } = setUp();
    updater.failCheck = updaterError('No published versions on GitHub: https://x.example/?token=abc', 'ERR_UPDATER_NO_PUBLISHED_VERSIONS');
    checks.start();
    await clock.advanceBy(FIRST_CHECK);
    const warnings = log.entries.filter((entry) => entry.level !== 'info');
    assert.equal(warnings.length, 1, 'the error event and the rejection are one failure');
    assert.equal(warnings[0]?.event, 'update.error');
    assert.equal(warnings[0]?.fields?.code, 'ERR_UPDATER_NO_PUBLISHED_VERSIONS');
    assert.equal(JSON.stringify(log.entries).includes('token=abc'), false);
    assert.deepEqual(window, []);
    updater.failCheck = null;
    updater.latest = '1.2.0';
    await clock.advanceBy(DAY);
    assert.equal(updater.checks, 2);
    assert.deepEqual(window, [{ type: 'updateReady', version: '1.2.0' }]);
  });

  test('a rejection the updater did not report (offline), a failed download and an updater that cannot load are logged and retried', async () => {
    const { clock, updater, log, checks } = setUp();
    updater.check = async () => {
      updater.checks += 1;
      throw Object.assign(new Error('net::ERR_INTERNET_DISCONNECTED'), { statusCode: 0 });
    };
    checks.start();
    await clock.advanceBy(FIRST_CHECK);
    assert.deepEqual(log.entries.at(-1), {
      level: 'warn',
      event: 'update.check-failed',
      fields: { error: log.entries.at(-1)?.fields?.error, statusCode: 0 },
    });
    updater.check = FakeUpdater.prototype.check;
    updater.latest = '2.0.0';
    updater.download = async () => {
      throw updaterError('sha512 checksum mismatch', 'ERR_CHECKSUM_MISMATCH');
    };
    await clock.advanceBy(DAY);
    assert.equal(log.entries.at(-1)?.event, 'update.download-failed');
    assert.equal(checks.readyVersion, null);

    let attempts = 0;
    const broken = setUp({
      createUpdater: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('app-update.yml missing');
        return broken.updater;
      },
    });
    broken.updater.latest = '2.0.0';
    broken.checks.start();
    await broken.clock.advanceBy(FIRST_CHECK);
    assert.equal(events(broken.log).at(-1), 'update.load-failed');
    await broken.clock.advanceBy(DAY);
    assert.equal(attempts, 2);
    assert.deepEqual(broken.window, [{ type: 'updateReady', version: '2.0.0' }]);
  });

  test('stop ends the checks; a check under way when it stopped downloads nothing', async () => {
    const { clock, updater, checks } = setUp();
    updater.latest = '1.2.0';
    updater.hold = hold();
    checks.start();
    await clock.advanceBy(FIRST_CHECK);
    checks.stop();
    updater.hold.resolve();
    await clock.advanceBy(3 * DAY);
    assert.equal(updater.checks, 1);
    assert.equal(updater.downloads, 0);
    assert.equal(clock.pendingCount(), 0);
  });

  test('a window that cannot be told does not stop anything', async () => {
    const clock = new FakeClock(0);
    const updater = new FakeUpdater();
    const log = recordingLog();
    updater.latest = '1.2.0';
    const checks = new UpdateChecks({
      packaged: true,
      createUpdater: async () => updater,
      clock,
      log,
      toWindow: () => {
        throw new Error('window gone');
      },
    });
    checks.start();
    await clock.advanceBy(FIRST_CHECK);
    assert.equal(checks.readyVersion, '1.2.0');
    assert.ok(events(log).includes('update.notice-failed'));
    assert.equal(checks.install(), true);
  });
});

describe('updateReady on its way to the window', () => {
  test('crosses as plain data, and the bridge passes only a short text version', () => {
    const event: PanelEvent = { type: 'updateReady', version: '1.2.0' };
    assert.deepEqual(plainEvent({ ...event, notes: '<script>' } as PanelEvent), event);
    assert.ok(isPanelEvent(event));
    assert.ok(!isPanelEvent({ type: 'updateReady' }));
    assert.ok(!isPanelEvent({ type: 'updateReady', version: 12 }));
    assert.ok(!isPanelEvent({ type: 'updateReady', version: 'x'.repeat(101) }));
  });

  test("installUpdate: NOT_FOUND with no update ready, the app's install otherwise", async () => {
    const dir = await tempDir();
    try {
      let ready = false;
      let installs = 0;
      const core = createCore({ dataDir: dir.path, encryption: testEncryption(), installUpdate: () => ready && ++installs > 0 });
      await rejectsWith(core.installUpdate(), 'NOT_FOUND', /No update is ready/);
      assert.equal(installs, 0);
      ready = true;
      await core.installUpdate();
      assert.equal(installs, 1);
      await rejectsWith(createCore({ dataDir: dir.path, encryption: testEncryption() }).installUpdate(), 'NOT_FOUND');
    } finally {
      await dir.cleanup();
    }
  });
});
