import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../../../electron/core/index.ts';
import { requestLogIn } from '../../../../electron/core/easypanel/panel-endpoints.ts';
import { rejectsWith, tempDir, testEncryption } from '../../../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../../../support/reference-panel/server.ts';

/** What a log in answer may quote back, and where a log in may go. */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

describe('log in answers and login paths', () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;

  before(async () => {
    panel = await startReferencePanel();
  });
  after(() => panel.close());
  beforeEach(async () => {
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 5000 });
    panel.setFault('login', null);
    panel.requests.length = 0;
  });
  afterEach(() => dir.cleanup());

  test('NO_TOKEN_IN_RESPONSE names a few short keys: none with the password, none token-like, none huge', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    const body: Record<string, unknown> = {
      status: 'ok',
      [`echo:${credentials.password}`]: 1,
      [`ECHO:${Buffer.from(credentials.password).toString('base64')}`]: 1,
      eyJhbGciOiJIUzI1NiJ9eyJzdWIiOiIxIn0: 1,
      data: {},
    };
    for (let index = 0; index < 20; index++) body[`${index}-${'k'.repeat(150_000)}`] = index;
    panel.setFault('login', { kind: 'status', status: 200, body });

    const error = await rejectsWith(core.logIn(id, credentials), 'NO_TOKEN_IN_RESPONSE');
    assert.ok(error.message.length < 500, `${error.message.length} characters`);
    assert.ok(!error.message.includes(credentials.password));
    assert.ok(!error.message.includes(Buffer.from(credentials.password).toString('base64')));
    assert.ok(!error.message.includes('eyJhbGciOiJIUzI1NiJ9'));
    // Still helpful: the ordinary keys by name, the long ones cut short, and how many more there are.
    assert.match(error.message, /top-level keys: status, data, 0-kkk+…, 1-kkk+…, 2-kkk+… and 20 more\)/);
    assert.match(error.message, /Set the token field/);
  });

  test('an answer whose only keys hold secrets says how many there are without naming them', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    panel.setFault('login', { kind: 'status', status: 200, body: { [credentials.password]: true } });
    const error = await rejectsWith(core.logIn(id, credentials), 'NO_TOKEN_IN_RESPONSE', /top-level keys: 1 key, not shown/);
    assert.ok(!error.message.includes(credentials.password));
  });

  test('a login path that leaves /api sends nothing, even when panels.json was edited by hand', async () => {
    // The endpoint function itself, as a hand-edited record would reach it.
    const settings = { fetch: globalThis.fetch, timeoutMs: 2000, maxResponseBytes: 1024 * 1024 };
    for (const loginPath of [
      '/%2e%2e/%2e%2e/other-app/collect',
      '/../other-app/collect',
      '/%2E%2E/x',
      '/.%2e/x',
      '/%2f../x',
      '/%252e%252e/x',
    ]) {
      const error = await rejectsWith(
        requestLogIn(
          settings,
          {
            baseUrl: panel.baseUrl,
            generation: 'public',
            loginPath,
            sessionPath: '/getSession',
            tokenField: null,
            trustedCertificate: null,
          },
          credentials,
        ),
        'INVALID_INPUT',
      );
      assert.match(error.message, /email and password were not sent/);
    }
    assert.deepEqual(panel.requests, []);

    // A record edited to such a path keeps its panel; the path goes back to the default, with a notice.
    const { id } = await core.addPanel({ address: panel.url, name: 'Edited' });
    const file = join(dir.path, 'panels.json');
    const document = JSON.parse(readFileSync(file, 'utf8')) as { panels: { loginPath: string }[] };
    document.panels[0]!.loginPath = '/%2e%2e/%2e%2e/other-app/collect';
    writeFileSync(file, JSON.stringify(document));
    const restarted = createCore({ dataDir: dir.path, encryption: testEncryption() });
    const [kept] = await restarted.listPanels();
    assert.equal(kept?.id, id);
    assert.equal(kept?.loginPath, '/login');
    assert.match(
      (await restarted.loadProblem())?.message ?? '',
      /1 panel had a login path that could lead outside the panel's \/api, so it was reset to \/login/,
    );
    await restarted.logIn(id, credentials);
    // Read through a function: the assertion above narrowed `panel.requests` to an empty array.
    const sentTo = (target: ReferencePanel) => target.requests.map((request) => request.path);
    assert.deepEqual(sentTo(panel), ['/api/login']);
  });

  test('setting an escaping login path is refused with a clear message', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    await rejectsWith(
      core.updatePanel(id, { loginPath: '/%2e%2e/%2e%2e/other-app/collect' }),
      'INVALID_INPUT',
      /"\.\." segments, also not encoded/,
    );
    assert.equal((await core.listPanels())[0]?.loginPath, '/login');
  });
});
