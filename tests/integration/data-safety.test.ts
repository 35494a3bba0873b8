import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { rejectsWith, restartableServices } from '../support/helpers.ts';
import { DEMO_USER } from '../support/reference-panel/server.ts';

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const v1Fixture = join(import.meta.dirname, '..', 'support', 'fixtures', 'panels-v1.json');

describe('data is never lost: format upgrades, damaged files, a keyring that changes', () => {
  const services = restartableServices();
  const start = services.start;
  const file = (name: string) => join(services.dir(), name);
  const read = (name: string) => JSON.parse(readFileSync(file(name), 'utf8'));
  const filesMatching = (pattern: RegExp) => readdirSync(services.dir()).filter((name) => pattern.test(name));

  describe('the panel list format', () => {
    test('a format-1 file is backed up byte for byte, then upgraded to the current format (account renamed lastEmail, no group, tags, colour or favourite), once', async () => {
      copyFileSync(v1Fixture, file('panels.json'));
      const core = start();
      const panels = await core.listPanels();
      assert.deepEqual(
        panels.map((p) => [p.name, p.lastEmail, p.loginPath, p.tokenField]),
        [
          ['Production', 'ops@example.com', '/login', null],
          ['Staging', null, '/auth/sign-in', 'data.auth.token'],
        ],
      );
      assert.equal(panels[1]?.signedOutReason?.code, 'UNAUTHORIZED');
      assert.deepEqual(panels[0]?.lastCheck, { at: '2026-11-21T08:00:00.000Z', ok: true });
      assert.equal(await core.loadProblem(), null);

      const migration = await core.migration();
      assert.equal(migration?.fromVersion, 1);
      assert.match(migration?.backupPath ?? '', /panels\.v1-backup-.*\.json$/);
      assert.equal(readFileSync(migration!.backupPath, 'utf8'), readFileSync(v1Fixture, 'utf8'));

      const upgraded = read('panels.json');
      assert.equal(upgraded.version, 4);
      assert.equal(upgraded.panels[0].lastEmail, 'ops@example.com');
      assert.deepEqual(
        panels.map((p) => [p.group, p.tags, p.colour, p.favourite]),
        [
          [null, [], null, false],
          [null, [], null, false],
        ],
      );
      assert.ok(!('account' in upgraded.panels[0]), 'the old field name is gone');

      const again = start();
      assert.equal((await again.listPanels()).length, 2);
      assert.equal(await again.migration(), null);
      assert.equal(filesMatching(/backup/).length, 1, 'the upgrade ran once');
    });

    test('a format-2 file is backed up byte for byte and upgraded to the current format; the panels keep their sign-ins and take new labels', async () => {
      const core = start();
      const { id } = await core.addPanel({ address: services.panel().url, name: 'Signed in' });
      await core.logIn(id, credentials);
      const current = read('panels.json');
      const asVersion2 = JSON.stringify({
        version: 2,
        panels: current.panels.map(({ group: _g, tags: _t, colour: _c, favourite: _f, ...rest }: Record<string, unknown>) => rest),
      });
      writeFileSync(file('panels.json'), asVersion2);

      const upgraded = start();
      const [restarted] = await upgraded.listPanels();
      assert.equal(restarted?.signedIn, true);
      assert.deepEqual([restarted?.group, restarted?.tags, restarted?.colour, restarted?.favourite], [null, [], null, false]);
      const migration = await upgraded.migration();
      assert.equal(migration?.fromVersion, 2);
      assert.match(migration?.backupPath ?? '', /panels\.v2-backup-.*\.json$/);
      assert.equal(readFileSync(migration!.backupPath, 'utf8'), asVersion2);
      assert.equal(read('panels.json').version, 4);

      const labelled = await upgraded.updatePanel(id, {
        group: '  Acme  Corp ',
        tags: ['eu', ' EU', 'billing', ''],
        colour: 'red',
        favourite: true,
      });
      assert.deepEqual([labelled.group, labelled.tags, labelled.colour, labelled.favourite], ['Acme Corp', ['eu', 'billing'], 'red', true]);
      const [again] = await start().listPanels();
      assert.deepEqual([again?.group, again?.tags, again?.colour, again?.favourite], ['Acme Corp', ['eu', 'billing'], 'red', true]);
    });

    test("a format-3 file, with each panel's generation under its old name and value, upgrades to format 4 and keeps the sign-ins", async () => {
      const core = start();
      const { id } = await core.addPanel({ address: services.panel().url, name: 'Signed in' });
      await core.logIn(id, credentials);
      const old = await core.addPanel({ address: 'old.example.com', name: 'Old tRPC' });
      await core.updatePanel(old.id, { generation: 'trpc' });
      const current = read('panels.json');
      const oldName = { public: 'plain', rpc: 'rpc', trpc: 'trpc' } as const; // retired-word: the values format 3 wrote
      const asVersion3 = JSON.stringify({
        version: 3,
        panels: current.panels.map(({ generation, ...rest }: Record<string, unknown>) => ({
          ...rest,
          apiStyle: oldName[generation as keyof typeof oldName], // retired-word: format 3's field
        })),
      });
      writeFileSync(file('panels.json'), asVersion3);

      const upgraded = start();
      const panels = await upgraded.listPanels();
      assert.deepEqual(
        panels.map((panel) => [panel.name, panel.generation, panel.signedIn]),
        [
          ['Signed in', 'public', true],
          ['Old tRPC', 'trpc', false],
        ],
      );
      const migration = await upgraded.migration();
      assert.equal(migration?.fromVersion, 3);
      assert.equal(readFileSync(migration!.backupPath, 'utf8'), asVersion3);
      await upgraded.updatePanel(old.id, { name: 'Old tRPC panel' });
      const written = read('panels.json');
      assert.equal(written.version, 4);
      assert.deepEqual(
        written.panels.map((panel: Record<string, unknown>) => [panel.generation, Object.keys(panel).includes('apiStyle')]), // retired-word
        [
          ['public', false],
          ['trpc', false],
        ],
      );
    });

    test('panels signed in under format 1 stay signed in after the upgrade', async () => {
      const core = start();
      const { id } = await core.addPanel({ address: services.panel().url, name: 'Signed in' });
      await core.logIn(id, credentials);
      const current = read('panels.json');
      const asVersion1 = {
        version: 1,
        panels: current.panels.map(({ lastEmail, ...rest }: Record<string, unknown>) => ({ ...rest, account: lastEmail })),
      };
      writeFileSync(file('panels.json'), JSON.stringify(asVersion1));

      const upgraded = start();
      const [restarted] = await upgraded.listPanels();
      assert.deepEqual([restarted?.signedIn, restarted?.lastEmail, restarted?.tokenStorage], [true, DEMO_USER.email, 'keyring']);
      assert.equal((await upgraded.getSession(id)).panelId, id);
    });

    test('a panel list from a version that called keyring protection "encrypted" loads signed in, read as keyring; the next save writes the new word', async () => {
      const core = start();
      const { id } = await core.addPanel({ address: services.panel().url, name: 'Signed in' });
      await core.logIn(id, credentials);
      const current = read('panels.json');
      assert.equal(current.panels[0].tokenStorage, 'keyring');
      const asOlder = {
        ...current,
        panels: current.panels.map((panel: Record<string, unknown>) => ({ ...panel, tokenStorage: 'encrypted' })),
      };
      writeFileSync(file('panels.json'), JSON.stringify(asOlder));

      const restarted = start();
      const [panel] = await restarted.listPanels();
      assert.deepEqual([panel?.signedIn, panel?.tokenStorage, panel?.signedOutReason], [true, 'keyring', null]);
      assert.equal(await restarted.loadProblem(), null, 'no entry was skipped as damaged');
      assert.equal((await restarted.getSession(id)).panelId, id);
      await restarted.updatePanel(id, { name: 'Renamed' });
      assert.equal(read('panels.json').panels[0].tokenStorage, 'keyring');
    });

    test('a format from a newer Paneldeck: the file is copied aside untouched, the window is told, the app starts', async () => {
      const newer = JSON.stringify({ version: 5, panels: [{ id: 'x', somethingNew: true }] });
      writeFileSync(file('panels.json'), newer);
      const core = start();
      assert.deepEqual(await core.listPanels(), []);
      const [problem] = (await core.getAppStatus()).startupProblems;
      assert.equal(problem?.file, 'panels');
      assert.match(problem?.message ?? '', /newer Paneldeck \(format 5; this one reads up to 4\)/);
      assert.equal(readFileSync(problem!.copyPath!, 'utf8'), newer);
    });
  });

  describe('what the window is told at start', () => {
    test('nothing wrong: no startup problems; the protection in use is named', async () => {
      const status = await start().getAppStatus();
      assert.deepEqual(status, {
        settings: {
          storeTokensWithWeakProtection: false,
          checkConcurrency: 16,
          checkIntervalMinutes: 5,
          expiryWarningMinutes: 10,
          notifyBeforeExpiry: true,
          panelList: { selectedPanelId: null, sort: 'name', attentionOnly: false, collapsedGroups: [] },
          requestTimeoutSeconds: 15,
          theme: 'system',
          defaultEmail: null,
          diskAlertPercent: 90,
          certificateAlertDays: 14,
          notifyServiceDown: true,
          notifyDiskFull: true,
          notifyUnreachable: true,
        },
        tokenProtection: { level: 'keyring', backend: 'gnome_libsecret' },
        startupProblems: [],
      });
      services.encryption().backendName = 'basic_text';
      assert.deepEqual((await start().getAppStatus()).tokenProtection, { level: 'weak', backend: 'basic_text' });
      services.encryption().available = false;
      assert.equal((await start().getAppStatus()).tokenProtection.level, 'memory');
    });

    test('damaged panel list, token store and settings each become a startup problem naming the kept copy', async () => {
      writeFileSync(file('panels.json'), '{"version": 2, "panels": [');
      writeFileSync(file('tokens.json'), '[1, 2');
      writeFileSync(file('settings.json'), '{"version": 1, "storeTokensWithWeakProtection": "yes"}');
      const status = await start().getAppStatus();
      assert.deepEqual(
        status.startupProblems.map((problem) => problem.file),
        ['panels', 'tokens', 'settings'],
      );
      for (const problem of status.startupProblems) {
        assert.match(problem.copyPath ?? '', new RegExp(`${problem.file}\\.corrupt-.*\\.json$`));
        assert.ok(readFileSync(problem.copyPath!, 'utf8').length > 0, 'the copy holds the damaged content');
      }
      assert.match(status.startupProblems[2]!.message, /back to their defaults/);
      assert.equal(status.settings.storeTokensWithWeakProtection, false, 'a damaged settings file falls back to the safe default');
    });

    test('a copy is never written over an earlier copy of the same moment', async () => {
      const fixed = new Date('2026-11-23T10:00:00.000Z');
      for (let run = 0; run < 3; run++) {
        writeFileSync(file('panels.json'), `not json ${run}`);
        await createCore({ dataDir: services.dir(), encryption: services.encryption(), now: () => fixed }).listPanels();
      }
      const copies = filesMatching(/^panels\.corrupt-/)
        .map((name) => readFileSync(file(name), 'utf8'))
        .sort();
      assert.deepEqual(copies, ['not json 0', 'not json 1', 'not json 2']);
    });
  });

  describe('the keyring changes between runs', () => {
    async function signedInPanel(core: Core): Promise<string> {
      const { id } = await core.addPanel({ address: services.panel().url });
      await core.logIn(id, credentials);
      return id;
    }

    test('gnome_libsecret to basic_text: signed out with that reason, ciphertext untouched, a new log in never saved under basic_text', async () => {
      const id = await signedInPanel(start());
      const before = readFileSync(file('tokens.json'), 'utf8');
      services.encryption().backendName = 'basic_text';
      const degraded = start();
      const [signedOut] = await degraded.listPanels();
      assert.equal(signedOut?.signedIn, false);
      assert.equal(signedOut?.signedOutReason?.code, 'ENCRYPTION_UNAVAILABLE');
      assert.match(signedOut?.signedOutReason?.message ?? '', /changed from gnome_libsecret to basic_text/);
      assert.match(signedOut?.signedOutReason?.message ?? '', /Store tokens with weak protection on this system/);
      assert.equal(readFileSync(file('tokens.json'), 'utf8'), before, 'nothing deleted or rewritten at start');
      await rejectsWith(degraded.getSession(id), 'NOT_SIGNED_IN', /changed from gnome_libsecret to basic_text/);

      const calls = services.encryption().encryptCalls;
      assert.equal((await degraded.logIn(id, credentials)).tokenStorage, 'memory');
      assert.equal(services.encryption().encryptCalls, calls, 'the token was never encrypted under basic_text');
      assert.ok(!readFileSync(file('tokens.json'), 'utf8').includes('basic_text'));
    });

    test('one keyring to another (kwallet to gnome_libsecret): TOKEN_UNREADABLE naming both, ciphertext kept', async () => {
      services.encryption().backendName = 'kwallet5';
      const id = await signedInPanel(start());
      services.encryption().backendName = 'gnome_libsecret';
      services.encryption().changeKeyring();
      const [signedOut] = await start().listPanels();
      assert.equal(signedOut?.signedOutReason?.code, 'TOKEN_UNREADABLE');
      assert.match(signedOut?.signedOutReason?.message ?? '', /changed from kwallet5 to gnome_libsecret.*kept on disk/);
      assert.equal(read('tokens.json').tokens[id].backend, 'kwallet5');
    });

    test('weak protection allowed by the operator: saved under basic_text, kept across restarts; turned off, deleted from disk but kept in memory', async () => {
      services.encryption().backendName = 'basic_text';
      const core = start();
      const { id } = await core.addPanel({ address: services.panel().url });
      assert.equal((await core.logIn(id, credentials)).tokenStorage, 'memory');
      assert.deepEqual(filesMatching(/^tokens/), [], 'nothing on disk while weak protection is off');

      // Turning it on saves the token that is in memory now.
      const on = await core.updateSettings({ storeTokensWithWeakProtection: true });
      assert.equal(on.settings.storeTokensWithWeakProtection, true);
      assert.equal((await core.listPanels())[0]?.tokenStorage, 'weak');
      assert.equal(read('tokens.json').tokens[id].backend, 'basic_text');
      assert.equal(read('settings.json').storeTokensWithWeakProtection, true);

      const restarted = start();
      assert.deepEqual(
        (await restarted.listPanels()).map((p) => [p.signedIn, p.tokenStorage]),
        [[true, 'weak']],
      );
      assert.equal((await restarted.getSession(id)).panelId, id);

      await restarted.updateSettings({ storeTokensWithWeakProtection: false });
      assert.equal(read('tokens.json').tokens[id], undefined, 'the weakly protected copy is gone from disk');
      assert.deepEqual(
        (await restarted.listPanels()).map((p) => [p.signedIn, p.tokenStorage]),
        [[true, 'memory']],
      );
      const [afterRestart] = await start().listPanels();
      assert.equal(afterRestart?.signedIn, false);
      assert.match(afterRestart?.signedOutReason?.message ?? '', /kept in memory only/);
    });

    test('a keyring that appears later: tokens saved under basic_text are re-encrypted under it', async () => {
      services.encryption().backendName = 'basic_text';
      const core = start();
      await core.updateSettings({ storeTokensWithWeakProtection: true });
      const id = await signedInPanel(core);
      assert.equal(read('tokens.json').tokens[id].backend, 'basic_text');

      services.encryption().backendName = 'gnome_libsecret';
      const [upgraded] = await start().listPanels();
      assert.deepEqual([upgraded?.signedIn, upgraded?.tokenStorage], [true, 'keyring']);
      assert.equal(read('tokens.json').tokens[id].backend, 'gnome_libsecret');
    });

    test('with weak protection off, a basic_text copy found on disk is not read (the setting decides, not the file)', async () => {
      services.encryption().backendName = 'basic_text';
      const core = start();
      await core.updateSettings({ storeTokensWithWeakProtection: true });
      const id = await signedInPanel(core);
      writeFileSync(file('settings.json'), JSON.stringify({ version: 1, storeTokensWithWeakProtection: false }));
      const [signedOut] = await start().listPanels();
      assert.equal(signedOut?.signedIn, false);
      assert.equal(signedOut?.signedOutReason?.code, 'ENCRYPTION_UNAVAILABLE');
      assert.ok(read('tokens.json').tokens[id], 'the copy is still there: turning the setting on again is the operator\u2019s call');
    });

    test('the setting is refused with INVALID_INPUT when it is not a boolean, and nothing is written', async () => {
      const core = start();
      await rejectsWith(
        core.updateSettings({ storeTokensWithWeakProtection: 'yes' as unknown as boolean }),
        'INVALID_INPUT',
        /true or false/,
      );
      await rejectsWith(core.updateSettings({ other: true } as never), 'INVALID_INPUT', /Unexpected field/);
      assert.deepEqual(filesMatching(/^settings/), []);
    });
  });
});
