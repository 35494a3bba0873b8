import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createCore, openJsonFiles, type OpenStore } from '../../electron/core/index.ts';
import { testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/**
 * checks.json is written when a panel's check state changed materially (check-change.ts): a pass
 * that reads the same again, minutes after the last, writes nothing; one that finds a panel
 * failing writes that panel. Counted through the store the core is given (each save is one write).
 */

const FLEET = 6;
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const servers: ReferencePanel[] = [];
before(async () => {
  for (let index = 0; index < FLEET; index++) servers.push(await startReferencePanel({ users: [DEMO_USER] }));
});
after(() => Promise.all(servers.map((panel) => panel.close())));

test('a pass with nothing new writes checks.json no more than the material-change rule allows', async () => {
  const dir = await mkdtemp(join(SCRATCH, 'paneldeck-check-writes-'));
  const written: { set: string[]; whole: boolean }[] = [];
  const open = openJsonFiles(dir);
  const openStore: OpenStore = (name, options) => {
    const store = open(name, options);
    if (name !== 'checks') return store;
    return {
      ...store,
      save: (change, whole) => {
        written.push({ set: change ? change.set.map(([id]) => id) : [], whole: change === null });
        return store.save(change, whole);
      },
    };
  };
  try {
    const core = createCore({ dataDir: dir, encryption: testEncryption(), openStore });
    const ids: string[] = [];
    for (const panel of servers) {
      const { id } = await core.addPanel({ address: panel.url });
      await core.logIn(id, { email: DEMO_USER.email, password: DEMO_USER.password, rememberMe: true });
      ids.push(id);
    }
    await core.checkPanels(ids);
    await core.flush();
    assert.ok(written.length > 0, 'the first pass is written');
    written.length = 0;

    await core.checkPanels(ids);
    await core.flush();
    assert.equal(written.length, 0, `the same again, seconds later: nothing material, nothing written (${JSON.stringify(written)})`);

    servers[2]!.setFault('getSession', { kind: 'status', status: 500 });
    await core.checkPanels(ids);
    await core.flush();
    servers[2]!.setFault('getSession', null);
    assert.equal(written.length, 1, 'one write for the panel that failed');
    const [write] = written;
    assert.ok(write && (write.whole || write.set.join() === ids[2]), `written: ${JSON.stringify(written)}`);
    const listed = await core.listPanels();
    assert.equal(listed.find((panel) => panel.id === ids[2])?.lastCheck?.ok, false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
