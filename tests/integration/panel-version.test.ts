import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { VERSION_READ_AT_MOST_MS } from '../../electron/core/sign-in/session-reader.ts';
import type { Panel } from '../../shared/types.ts';
import { isVersionRead, rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel, type ReferencePanelOptions } from '../support/reference-panel/server.ts';

/**
 * The panel's Easypanel version, read with the session check over real HTTP (after a log in,
 * then about hourly), and a panel that an upgrade moved to a newer generation, followed at the
 * next check with the token it has.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
/** How long a version read is trusted (about an hour). */
/** Past any panel's period between version reads (an hour to an hour and a half, its own). */
const PAST_ANY_PERIOD = VERSION_READ_AT_MOST_MS;

/** A core on a fresh folder whose clock the test moves, and the reference panels it started. */
function versionSuite() {
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  const servers: ReferencePanel[] = [];
  const clock = { now: Date.now() };
  const encryption = testEncryption();
  let core: Core | undefined;
  const open = () => createCore({ dataDir: dir!.path, encryption, now: () => new Date(clock.now) });
  before(async () => {
    dir = await tempDir();
    core = open();
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await dir?.cleanup();
  });
  return {
    clock,
    core: () => core!,
    dir: () => dir!.path,
    /** A new run of the app on the same folder, once this one has written what it holds. */
    async restart(change?: (folder: string) => Promise<void>): Promise<Core> {
      await core!.flush();
      await change?.(dir!.path);
      core = open();
      return core;
    },
    /** A reference panel added to the core and logged in to. */
    async signedIn(options: ReferencePanelOptions, sessionPath?: string): Promise<{ server: ReferencePanel; id: string }> {
      const server = await startReferencePanel(options);
      servers.push(server);
      const { id } = await core!.addPanel({ address: server.url, name: options.style ?? 'simple' });
      await core!.logIn(id, credentials);
      if (sessionPath !== undefined) await core!.updatePanel(id, { sessionPath });
      return { server, id };
    },
    async panel(id: string): Promise<Panel> {
      return (await core!.listPanels()).find((panel) => panel.id === id)!;
    },
  };
}

const versionReads = (server: ReferencePanel) => server.requests.filter(isVersionRead).length;

describe('the version, read with the session check', () => {
  const suite = versionSuite();

  test('read after the log in, kept and shown; not read again until an hour has passed; read again after a new log in', async () => {
    const { server, id } = await suite.signedIn({ style: 'rpc' });
    const app = suite.core();
    assert.equal((await suite.panel(id)).panelVersion, null);
    assert.deepEqual(
      (await app.checkPanels([id])).map((check) => check.ok),
      [true],
    );
    assert.equal((await suite.panel(id)).panelVersion, '2.32.2');
    assert.equal(versionReads(server), 1);
    // Through the panel's own generation: the RPC layer's POST.
    assert.ok(server.requests.some((request) => request.method === 'POST' && request.path === '/api/rpc/update/getStatus'));

    for (let check = 0; check < 3; check++) {
      suite.clock.now += 19 * 60 * 1000;
      await app.checkPanels([id]);
      await app.getSession(id);
    }
    assert.equal(versionReads(server), 1, 'no version read within the hour');

    server.setVersion('2.32.3');
    suite.clock.now += PAST_ANY_PERIOD;
    await app.checkPanels([id]);
    assert.equal(versionReads(server), 2);
    assert.equal((await suite.panel(id)).panelVersion, '2.32.3');

    await app.logOut(id);
    assert.equal((await suite.panel(id)).panelVersion, '2.32.3', 'the version is the server’s: still shown when signed out');
    await app.logIn(id, credentials);
    await app.getSession(id);
    assert.equal(versionReads(server), 3, 'read again after a log in');
  });

  test('a panel without a version route: checks stay ok, the version unknown, the route tried once an hour', async () => {
    const { server, id } = await suite.signedIn({});
    const app = suite.core();
    for (let check = 0; check < 3; check++) {
      assert.deepEqual(
        (await app.checkPanels([id])).map((one) => one.ok),
        [true],
      );
    }
    const panel = await suite.panel(id);
    assert.equal(panel.panelVersion, null);
    assert.equal(panel.lastCheck?.ok, true);
    assert.equal(versionReads(server), 1);
  });

  test('a version route that fails (405, 500, not JSON) never fails the check, and keeps the version last named', async () => {
    const { server, id } = await suite.signedIn({ style: 'public' });
    const app = suite.core();
    await app.checkPanels([id]);
    assert.equal((await suite.panel(id)).panelVersion, '2.33.4');
    const faults = [{ kind: 'status', status: 405 }, { kind: 'server-error' }, { kind: 'html-page' }] as const;
    for (const fault of faults) {
      server.setFault('getUpdateStatus', fault);
      suite.clock.now += PAST_ANY_PERIOD;
      const [check] = await app.checkPanels([id]);
      assert.equal(check?.ok, true, fault.kind);
      const panel = await suite.panel(id);
      assert.equal(panel.panelVersion, '2.33.4', fault.kind);
      assert.equal(panel.signedIn, true);
    }
    assert.equal(versionReads(server), 1 + faults.length);
  });
});

describe('the version across restarts', () => {
  const suite = versionSuite();

  test('kept in checks.json (panels.json untouched), shown after a restart and not read again within the hour', async () => {
    const { server, id } = await suite.signedIn({ style: 'public' });
    const panelsBefore = await readFile(join(suite.dir(), 'panels.json'));
    await suite.core().checkPanels([id]);
    const app = await suite.restart();
    const history = JSON.parse(await readFile(join(suite.dir(), 'checks.json'), 'utf8')) as { panels: Record<string, unknown> };
    assert.deepEqual(
      Object.entries(history.panels[id] as object).filter(([field]) => field.startsWith('version') || field === 'panelVersion'),
      [
        ['panelVersion', '2.33.4'],
        ['versionReadAt', new Date(suite.clock.now).toISOString()],
      ],
    );
    assert.ok((await readFile(join(suite.dir(), 'panels.json'))).equals(panelsBefore), 'the version read rewrote panels.json');
    assert.equal((await suite.panel(id)).panelVersion, '2.33.4');
    assert.equal((await app.checkPanels([id]))[0]?.ok, true);
    assert.equal(versionReads(server), 1);
  });

  test('a check history of an older version (no version fields) is read as it is; the version is read at the next check', async () => {
    const { server, id } = await suite.signedIn({ style: 'trpc' });
    await suite.core().checkPanels([id]);
    const app = await suite.restart(async (folder) => {
      const file = join(folder, 'checks.json');
      const history = JSON.parse(await readFile(file, 'utf8')) as { panels: Record<string, Record<string, unknown>> };
      for (const entry of Object.values(history.panels)) {
        delete entry.panelVersion;
        delete entry.versionReadAt;
      }
      await writeFile(file, JSON.stringify(history));
    });
    const before = await suite.panel(id);
    assert.deepEqual([before.panelVersion, before.lastCheck?.ok], [null, true]);
    await app.checkPanels([id]);
    assert.equal((await suite.panel(id)).panelVersion, '2.28.1');
    assert.equal(versionReads(server), 2);
  });
});

describe('a panel upgraded to a newer generation', () => {
  const suite = versionSuite();

  /** What the panel received after `from`, as `METHOD path`. */
  const sentSince = (server: ReferencePanel, from: number) =>
    server.requests.slice(from).map((request) => `${request.method} ${request.path.split('?')[0]}`);

  test('2.30 (tRPC) → 2.31 (RPC): the next check finds it with the same token, saves the style, and is ok', async () => {
    const { server, id } = await suite.signedIn({ style: 'trpc' });
    const app = suite.core();
    await app.checkPanels([id]);
    assert.deepEqual([(await suite.panel(id)).generation, (await suite.panel(id)).panelVersion], ['trpc', '2.28.1']);
    const from = server.requests.length;
    server.setVersion('2.31.0', { upgrade: true });
    const [check] = await app.checkPanels([id]);
    assert.equal(check?.ok, true, JSON.stringify(check));
    const panel = await suite.panel(id);
    assert.deepEqual(
      [panel.generation, panel.loginPath, panel.sessionPath, panel.panelVersion, panel.signedIn],
      ['rpc', '/rpc/auth/login', '/rpc/auth/getSession', '2.31.0', true],
    );
    assert.deepEqual(sentSince(server, from), [
      'GET /api/trpc/auth.getSession', // 405 on 2.31
      'GET /api/trpc/update.getStatus', // 405 too
      'GET /api/getUpdateStatus', // no public API before 2.33
      'POST /api/rpc/update/getStatus', // 2.31.0
      'POST /api/rpc/auth/getSession',
      // The panel's state, read beside the session, in the generation it was found to speak.
      'POST /api/rpc/monitorOld/getDockerTaskStats', // a real 2.32.2 has only monitorOld: asked first
      'POST /api/rpc/monitorOld/getSystemStats', // the legacy monitor first: metrics need the paid stack
    ]);
    // The password went to no route at all: no log in since the upgrade.
    for (const request of server.requests.slice(from)) assert.ok(!request.body.includes(DEMO_USER.password));
    // From now on the session is read in the new generation only.
    const next = server.requests.length;
    await app.checkPanels([id]);
    assert.deepEqual(sentSince(server, next), [
      'POST /api/rpc/auth/getSession',
      'POST /api/rpc/monitorOld/getDockerTaskStats', // a real 2.32.2 has only monitorOld: asked first
      'POST /api/rpc/monitorOld/getSystemStats',
    ]);
    assert.equal(server.logouts.length, 0);
  });

  test('2.30 (tRPC) → 2.33 (public API) in one step: followed to the public API', async () => {
    const { server, id } = await suite.signedIn({ style: 'trpc' });
    const app = suite.core();
    await app.getSession(id);
    server.setVersion('2.33.1', { upgrade: true });
    const { session } = await app.getSession(id);
    assert.equal((session as { userId?: unknown }).userId, 'usr_1001');
    const panel = await suite.panel(id);
    assert.deepEqual([panel.generation, panel.sessionPath, panel.panelVersion], ['public', '/getSession', '2.33.1']);
  });

  test('2.32 (RPC) → 2.33: its RPC routes still answer, so the hourly version read moves it to the public API', async () => {
    const { server, id } = await suite.signedIn({ style: 'rpc' });
    const app = suite.core();
    await app.checkPanels([id]);
    server.setVersion('2.33.0', { upgrade: true });
    await app.checkPanels([id]);
    assert.equal((await suite.panel(id)).generation, 'rpc', 'nothing says so before the next version read');
    suite.clock.now += PAST_ANY_PERIOD;
    const from = server.requests.length;
    const [check] = await app.checkPanels([id]);
    assert.equal(check?.ok, true);
    const panel = await suite.panel(id);
    assert.deepEqual(
      [panel.generation, panel.loginPath, panel.sessionPath, panel.panelVersion],
      ['public', '/login', '/getSession', '2.33.0'],
    );
    assert.deepEqual(sentSince(server, from), [
      'POST /api/rpc/auth/getSession',
      'POST /api/rpc/update/getStatus',
      'GET /api/getSession',
      // The panel's state, read beside the session, in the generation it was found to speak.
      'GET /api/getDockerTaskStats',
      'GET /api/getLegacyMonitorSystemStats',
    ]);
    const next = server.requests.length;
    await app.checkPanels([id]);
    assert.deepEqual(sentSince(server, next), [
      'GET /api/getSession',
      'GET /api/getDockerTaskStats',
      'GET /api/getLegacyMonitorSystemStats',
      // Its fourth check: the panel's actions history, read every ACTIONS_EVERY_CHECKS checks (2.33: over RPC, for `limit`).
      'POST /api/rpc/actions/listActions',
    ]);
  });

  test('an upgrade in place (2.32.2 → 2.33.0) that the Overview reads first: the kept version is the one read, everywhere; the next check follows the move', async () => {
    const { server, id } = await suite.signedIn({ style: 'rpc' });
    const app = suite.core();
    await app.checkPanels([id]);
    assert.equal((await suite.panel(id)).panelVersion, '2.32.2');
    server.setVersion('2.33.0', { upgrade: true });
    // 2.33 has no legacy monitor: its load is read from the metrics stack.
    server.services.setMetrics(true);
    // Within the hour no check reads the version again; the Overview's read names the new one.
    assert.equal((await app.getServerStats(id)).version, '2.33.0');
    // One read, one version: the panel (header badge, table, search) and its state say it too.
    assert.equal((await suite.panel(id)).panelVersion, '2.33.0');
    assert.equal((await app.getFleetState()).find((health) => health.panelId === id)?.version, '2.33.0');
    // A new version read: the next check reads it in full and follows the panel to the public API.
    const [check] = await app.checkPanels([id]);
    assert.equal(check?.ok, true);
    const panel = await suite.panel(id);
    assert.deepEqual([panel.generation, panel.panelVersion], ['public', '2.33.0']);
  });

  test('an upgrade whose token no longer works: UNAUTHORIZED and signed out; after a new log in the next check follows it', async () => {
    const { server, id } = await suite.signedIn({ style: 'trpc' });
    const app = suite.core();
    server.setVersion('2.32.0', { upgrade: true });
    server.expireAllTokens();
    const [check] = await app.checkPanels([id]);
    assert.equal(check?.ok === false && check.error.code, 'UNAUTHORIZED');
    assert.equal((await suite.panel(id)).signedIn, false);
    // 2.31–2.32 still log in through tRPC (a POST), so the log in keeps the style; the check moves it.
    const again = await app.logIn(id, credentials);
    assert.deepEqual([again.generation, again.signedIn], ['trpc', true]);
    assert.equal((await app.checkPanels([id]))[0]?.ok, true);
    const panel = await suite.panel(id);
    assert.deepEqual([panel.generation, panel.panelVersion], ['rpc', '2.32.0']);
  });

  test('paths the operator set are theirs: not followed, the check fails as it did, no version probing', async () => {
    // `/api/v2/...` answers like `/api/...`: a custom session path that reads the tRPC session.
    const { server, id } = await suite.signedIn({ style: 'trpc' }, '/v2/trpc/auth.getSession');
    const app = suite.core();
    assert.equal((await app.checkPanels([id]))[0]?.ok, true);
    server.setVersion('2.31.0', { upgrade: true });
    const from = server.requests.length;
    const [check] = await app.checkPanels([id]);
    assert.equal(check?.ok === false && check.error.code, 'BAD_RESPONSE');
    assert.deepEqual(sentSince(server, from), ['GET /api/v2/trpc/auth.getSession']);
    const panel = await suite.panel(id);
    assert.deepEqual([panel.generation, panel.sessionPath, panel.signedIn], ['trpc', '/v2/trpc/auth.getSession', true]);
  });

  test('a downgrade (2.33 → 2.30) is not followed: the check fails as before and the style stays', async () => {
    const { server, id } = await suite.signedIn({ style: 'public' });
    const app = suite.core();
    await app.checkPanels([id]);
    server.setVersion('2.30.0', { upgrade: true });
    const [check] = await app.checkPanels([id]);
    assert.equal(check?.ok === false && check.error.code, 'BAD_RESPONSE');
    const panel = await suite.panel(id);
    assert.deepEqual([panel.generation, panel.signedIn], ['public', true]);
    await rejectsWith(app.getSession(id), 'BAD_RESPONSE', /no session endpoint/);
  });

  test('a search that found no generation is not repeated by each check: one request a check until its period passed; opening the panel searches at once', async () => {
    const { server, id } = await suite.signedIn({ style: 'public' });
    const app = suite.core();
    await app.checkPanels([id]);
    server.setVersion('2.30.0', { upgrade: true });
    const searched = server.requests.length;
    assert.equal((await app.checkPanels([id]))[0]?.ok, false);
    const search = sentSince(server, searched);
    assert.ok(search.length >= 3, `the session read and the version probes: ${search.join(', ')}`);

    for (let check = 0; check < 3; check++) {
      suite.clock.now += 5 * 60 * 1000;
      const from = server.requests.length;
      const [failed] = await app.checkPanels([id]);
      assert.equal(failed?.ok === false && failed.error.code, 'BAD_RESPONSE');
      assert.deepEqual(sentSince(server, from), ['GET /api/getSession'], 'the session read alone');
    }

    let from = server.requests.length;
    await rejectsWith(app.getSession(id), 'BAD_RESPONSE');
    assert.deepEqual(sentSince(server, from), search, 'the operator opening the panel searches again');

    suite.clock.now += PAST_ANY_PERIOD;
    from = server.requests.length;
    await app.checkPanels([id]);
    assert.deepEqual(sentSince(server, from).slice(0, search.length), search, 'a check searches again once the period passed');
  });
});

describe('whether an update is out, said on the version read', () => {
  const suite = versionSuite();

  for (const style of ['trpc', 'rpc', 'public'] as const) {
    test(`${style}: said at the first check with the version, no request more; read again hourly; kept across a restart`, async () => {
      const { server, id } = await suite.signedIn({ style, updateAvailable: true });
      assert.equal((await suite.panel(id)).updateAvailable, null, 'not said before the first check');
      await suite.core().checkPanels([id]);
      assert.equal((await suite.panel(id)).updateAvailable, true);
      const reads = versionReads(server);
      // Within the hour a check asks nothing of it.
      server.setUpdateAvailable(false);
      await suite.core().checkPanels([id]);
      assert.equal(versionReads(server), reads);
      assert.equal((await suite.panel(id)).updateAvailable, true);
      // Past the period the same read says it is up to date now.
      suite.clock.now += PAST_ANY_PERIOD;
      await suite.core().checkPanels([id]);
      assert.equal(versionReads(server), reads + 1);
      assert.equal((await suite.panel(id)).updateAvailable, false);
      await suite.restart();
      assert.equal((await suite.panel(id)).updateAvailable, false);
    });
  }

  test('upgraded in place (2.32 → 2.33): the update said of 2.32 is not kept for 2.33; the next version read says it anew', async () => {
    const { server, id } = await suite.signedIn({ style: 'rpc', updateAvailable: true });
    await suite.core().checkPanels([id]);
    assert.equal((await suite.panel(id)).updateAvailable, true);
    server.setVersion('2.33.0', { upgrade: true });
    // The new version's answer says nothing of updates (no yes or no): what 2.32.2 said is not kept.
    server.setUpdateAvailable('unsaid' as unknown as boolean);
    suite.clock.now += PAST_ANY_PERIOD;
    await suite.core().checkPanels([id]);
    const panel = await suite.panel(id);
    assert.equal(panel.panelVersion, '2.33.0');
    assert.equal(panel.updateAvailable, null, 'the update said of 2.32.2 stayed after the upgrade');
    server.setUpdateAvailable(false);
    suite.clock.now += PAST_ANY_PERIOD;
    await suite.core().checkPanels([id]);
    assert.equal((await suite.panel(id)).updateAvailable, false);
  });

  test('an answer without `available` (or not a yes or a no) says nothing: the last one said is kept', async () => {
    const { server, id } = await suite.signedIn({ style: 'public', updateAvailable: true });
    await suite.core().checkPanels([id]);
    assert.equal((await suite.panel(id)).updateAvailable, true);
    server.setUpdateAvailable('soon' as unknown as boolean);
    suite.clock.now += PAST_ANY_PERIOD;
    await suite.core().checkPanels([id]);
    assert.equal((await suite.panel(id)).updateAvailable, true);
  });

  test('a check history with an update field that is not a yes or a no is dropped for that panel alone, never a crash', async () => {
    const { id } = await suite.signedIn({ style: 'public', updateAvailable: true });
    await suite.core().checkPanels([id]);
    const app = await suite.restart(async (folder) => {
      const file = join(folder, 'checks.json');
      const history = JSON.parse(await readFile(file, 'utf8')) as { panels: Record<string, Record<string, unknown>> };
      history.panels[id]!.updateAvailable = 'yes';
      await writeFile(file, JSON.stringify(history));
    });
    const panel = (await app.listPanels()).find((one) => one.id === id)!;
    assert.equal(panel.updateAvailable, null);
  });
});
