import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCore, openJsonFiles, type Core, type OpenStore } from '../../electron/core/index.ts';
import { countOutcomes } from '../../shared/fleet-login.ts';
import { testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { countedStores } from '../support/storage/counted-stores.ts';

/**
 * A fleet's log ins are written in groups (token-file.ts `flush`, panel-registry.ts `#writeGroup`):
 * log ins that end while a write is on disk share the next one. Counted through the stores the
 * core is given: each `save` of a store is one durable write (an fsync'd journal line or file).
 * Each panel must still be on disk before it says signed in: the data folder is copied the moment
 * each log in answers (synchronously, so nothing is written in between), and each copy, opened
 * as after a crash, must find that panel signed in.
 */

const FLEET = 24;
const LATENCY_MS = 20;
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

const servers: ReferencePanel[] = [];
before(async () => {
  for (let index = 0; index < FLEET; index++) servers.push(await startReferencePanel({ users: [DEMO_USER] }));
});
after(() => Promise.all(servers.map((panel) => panel.close())));

async function scratch(prefix: string): Promise<string> {
  return mkdtemp(join(SCRATCH, prefix));
}

async function signedInAfterReopen(dir: string, panelId: string): Promise<boolean> {
  const reopened = createCore({ dataDir: dir, encryption: encryption });
  try {
    return (await reopened.listPanels()).find((panel) => panel.id === panelId)?.signedIn === true;
  } finally {
    await reopened.flush();
  }
}

const encryption = testEncryption();
const credentials = { email: DEMO_USER.email, password: DEMO_USER.password, rememberMe: true };

describe('log ins across a fleet, written in groups', () => {
  test('N log ins at once take fewer durable writes than N, and each is on disk before it answers', async () => {
    const dir = await scratch('paneldeck-login-writes-');
    const copies = await scratch('paneldeck-login-copies-');
    const saves = new Map<string, number>();
    let core: Core | null = null;
    try {
      core = createCore({ dataDir: dir, encryption, openStore: countedStores(dir, saves) });
      const ids: string[] = [];
      for (const panel of servers) ids.push((await core.addPanel({ address: panel.url })).id);
      // Long enough for the log ins to overlap, so that several end while a write is on disk.
      for (const panel of servers) panel.setFault('login', { kind: 'latency', ms: LATENCY_MS });
      await core.flush();
      saves.clear();
      const active = core;
      const answered = await Promise.all(
        ids.map((id, index) =>
          active.logIn(id, credentials).then((panel) => {
            // The folder as it is the moment this log in answers: what a crash now would leave.
            cpSync(dir, join(copies, String(index)), { recursive: true });
            return panel;
          }),
        ),
      );
      assert.ok(answered.every((panel) => panel.signedIn));
      const tokenWrites = saves.get('tokens') ?? 0;
      const listWrites = saves.get('panels') ?? 0;
      assert.ok(tokenWrites >= 1 && tokenWrites < FLEET, `tokens.json written ${tokenWrites} times for ${FLEET} log ins`);
      assert.ok(listWrites >= 1 && listWrites < FLEET, `panels.json written ${listWrites} times for ${FLEET} log ins`);
      await core.flush();
      core = null;
      for (const [index, id] of ids.entries()) {
        assert.ok(await signedInAfterReopen(join(copies, String(index)), id), `panel ${index} was on disk when its log in answered`);
      }
    } finally {
      await core?.flush();
      await rm(dir, { recursive: true, force: true });
      await rm(copies, { recursive: true, force: true });
    }
  });

  test('logInPanels of the fleet: fewer writes than panels, every panel signed in after a restart', async () => {
    const dir = await scratch('paneldeck-login-writes-');
    const saves = new Map<string, number>();
    try {
      const core = createCore({ dataDir: dir, encryption, openStore: countedStores(dir, saves) });
      const ids: string[] = [];
      for (const panel of servers) ids.push((await core.addPanel({ address: panel.url })).id);
      for (const panel of servers) panel.setFault('login', { kind: 'latency', ms: LATENCY_MS });
      await core.flush();
      saves.clear();
      const results = await core.logInPanels(ids, credentials);
      assert.equal(countOutcomes(results).signedIn, FLEET);
      assert.ok((saves.get('tokens') ?? 0) < FLEET, `tokens.json written ${saves.get('tokens')} times`);
      assert.ok((saves.get('panels') ?? 0) < FLEET, `panels.json written ${saves.get('panels')} times`);
      await core.flush();
      const reopened = createCore({ dataDir: dir, encryption });
      assert.equal((await reopened.listPanels()).filter((panel) => panel.signedIn).length, FLEET);
      await reopened.flush();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a log out while its group is being written stays logged out, on disk too', async () => {
    const dir = await scratch('paneldeck-login-writes-');
    const gate = { open: (): void => undefined };
    const held = { tokens: false };
    try {
      const open = openJsonFiles(dir);
      // The token store's writes wait until the test lets them go, so that a log out comes while one is under way.
      const openStore: OpenStore = (name, options) => {
        const store = open(name, options);
        if (name !== 'tokens') return store;
        return {
          ...store,
          save: async (change, whole) => {
            if (held.tokens) await new Promise<void>((resolve) => (gate.open = resolve));
            return store.save(change, whole);
          },
        };
      };
      const core = createCore({ dataDir: dir, encryption, openStore });
      const ids: string[] = [];
      for (const panel of servers.slice(0, 4)) ids.push((await core.addPanel({ address: panel.url })).id);
      await core.flush();
      held.tokens = true;
      const logIns = ids.map((id) =>
        core.logIn(id, credentials).then(
          () => 'signedIn' as const,
          (error: { code?: string }) => error.code ?? 'failed',
        ),
      );
      // Every token waits on the held write (or queued behind it): the second panel's sign-in ends now.
      while (!(await core.listPanels()).some((panel) => panel.signedIn)) await new Promise((resolve) => setImmediate(resolve));
      const target = ids[1]!;
      const loggingOut = core.logOut(target);
      held.tokens = false;
      gate.open();
      const outcomes = await Promise.all(logIns);
      await loggingOut;
      assert.equal((await core.listPanels()).find((panel) => panel.id === target)?.signedIn, false);
      assert.notEqual(outcomes[1], 'signedIn', 'the log in ended meanwhile is dropped, not answered signed in');
      await core.flush();
      const reopened = createCore({ dataDir: dir, encryption });
      const after = await reopened.listPanels();
      assert.equal(after.find((panel) => panel.id === target)?.signedIn, false, 'still logged out after a restart');
      assert.equal(after.filter((panel) => panel.signedIn).length, outcomes.filter((outcome) => outcome === 'signedIn').length);
      await reopened.flush();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
