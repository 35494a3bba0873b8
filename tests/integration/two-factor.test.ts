import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Envelope } from '../../shared/contract/contract.ts';
import { CODE_REFUSED_MESSAGE, TWO_FACTOR_REQUIRED_MESSAGE, type ErrorInfo } from '../../shared/contract/errors.ts';
import { channelOf, type MethodName } from '../../shared/contract/methods.ts';
import type { Panel } from '../../shared/types.ts';
import { createCore, type Core } from '../../electron/core/index.ts';
import { createFileLog } from '../../electron/core/log/file-log.ts';
import { registeredIpc } from '../support/fake-ipc.ts';
import { readAllFiles, tempDir, testEncryption } from '../support/helpers.ts';
import {
  DEMO_USER,
  startReferencePanel,
  TWO_FACTOR_USER,
  type ReferencePanel,
  type ReferencePanelOptions,
} from '../support/reference-panel/server.ts';

/**
 * Two-factor log in over real HTTP, through the IPC registrar and a real file log as in the app:
 * Easypanel 2.33+'s answers, the spellings other panels use, and the code kept out of every message
 * and file like the password.
 */

const { email, password } = TWO_FACTOR_USER;
const code = TWO_FACTOR_USER.twoFactorCode ?? '';
const wrongCode = '135791';

interface App {
  core: Core;
  call<T>(method: MethodName, ...args: unknown[]): Promise<Envelope<T>>;
  /** Every file in the data folder and the log folder, for searching for secrets. */
  files(): Promise<{ path: string; content: string }[]>;
  close(): Promise<void>;
}

async function openApp(): Promise<App> {
  const data = await tempDir();
  const logs = await tempDir('paneldeck-logs-');
  const core = createCore({ dataDir: data.path, encryption: testEncryption(), timeoutMs: 3000 });
  const ipc = registeredIpc({ core, log: createFileLog({ dir: logs.path }) });
  return {
    core,
    call: async <T>(method: MethodName, ...args: unknown[]) => (await ipc.call(channelOf(method), ...args)) as Envelope<T>,
    files: async () => [...(await readAllFiles(data.path)), ...(await readAllFiles(logs.path))],
    close: async () => {
      await core.flush();
      await data.cleanup();
      await logs.cleanup();
    },
  };
}

function failure(answer: Envelope<unknown>): ErrorInfo {
  assert.ok(!answer.ok, `expected a failure, got ${JSON.stringify(answer)}`);
  return answer.error;
}

describe('two-factor log in', () => {
  let panel: ReferencePanel;
  let app: App;
  let panelId: string;

  const loginBodies = () =>
    panel.requests.filter((request) => request.path === '/api/login').map((request) => JSON.parse(request.body) as Record<string, unknown>);

  before(async () => {
    panel = await startReferencePanel({ users: [DEMO_USER, TWO_FACTOR_USER] });
  });
  after(() => panel.close());
  beforeEach(async () => {
    panel.setFault('login', null);
    panel.requests.length = 0;
    app = await openApp();
    panelId = (await app.core.addPanel({ address: panel.url, name: 'Guarded' })).id;
  });
  afterEach(() => app.close());

  test('without a code: TWO_FACTOR_REQUIRED, nothing stored, and no code key was sent', async () => {
    const error = failure(await app.call('logIn', panelId, { email, password }));
    assert.deepEqual(error, { code: 'TWO_FACTOR_REQUIRED', message: TWO_FACTOR_REQUIRED_MESSAGE });
    // "Keep me signed in" is on by default: rememberMe goes with every log in.
    assert.deepEqual(loginBodies(), [{ email, password, rememberMe: true }]);
    assert.deepEqual(panel.issuedTokens(), []);
    const [listed] = await app.core.listPanels();
    assert.equal(listed?.signedIn, false);
    assert.equal(listed?.tokenStorage, null);
    const tokens = (await app.files()).find((file) => file.path.endsWith('tokens.json'));
    assert.ok(!tokens || !/"token"/.test(tokens.content), 'no token in tokens.json');
  });

  test('with the right code (spaces ignored): signed in, and the session reads', async () => {
    assert.equal(failure(await app.call('logIn', panelId, { email, password })).code, 'TWO_FACTOR_REQUIRED');
    const answer = await app.call<Panel>('logIn', panelId, { email, password, code: `${code.slice(0, 3)} ${code.slice(3)}` });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.equal(answer.value.signedIn, true);
    assert.deepEqual(loginBodies().at(-1), { email, password, rememberMe: true, code });
    const session = await app.core.getSession(panelId);
    assert.equal((session.session as { user: { email: string } }).user.email, email);
  });

  test('a wrong code: INVALID_CREDENTIALS saying the code was refused; the next code is a new attempt', async () => {
    const error = failure(await app.call('logIn', panelId, { email, password, code: wrongCode }));
    assert.deepEqual(error, { code: 'INVALID_CREDENTIALS', message: CODE_REFUSED_MESSAGE });
    assert.match(error.message, /refused the code/);
    assert.ok((await app.call('logIn', panelId, { email, password, code })).ok);
    assert.equal(loginBodies().length, 2);
  });

  test('a user without two-factor logs in as before, and a wrong password with a code is still about the password', async () => {
    assert.ok((await app.call('logIn', panelId, { email: DEMO_USER.email, password: DEMO_USER.password })).ok);
    const wrong = failure(await app.call('logIn', panelId, { email, password: 'not-it', code }));
    assert.equal(wrong.code, 'INVALID_CREDENTIALS');
    assert.match(wrong.message, /did not accept this email and password/);
  });

  test('codes that are not 6 to 8 digits are refused before anything is sent', async () => {
    for (const typed of ['12345', '123456789', '12a456', '', 'one two', 42]) {
      const error = failure(await app.call('logIn', panelId, { email, password, code: typed }));
      assert.equal(error.code, 'INVALID_INPUT');
      assert.match(error.message, /Authentication code/);
    }
    assert.deepEqual(loginBodies(), []);
  });

  test('the code appears in no message, panels.json, tokens.json or the log, even when the panel echoes it', async () => {
    const messages: string[] = [];
    const echoes: { status: number; body: unknown }[] = [
      { status: 409, body: { message: `Code ${wrongCode} was used already` } },
      { status: 200, body: { note: `got ${wrongCode}` } },
      { status: 200, body: { [wrongCode]: true } },
    ];
    for (const echo of echoes) {
      panel.setFault('login', { kind: 'status', ...echo });
      messages.push(failure(await app.call('logIn', panelId, { email, password, code: wrongCode })).message);
    }
    panel.setFault('login', null);
    messages.push(failure(await app.call('logIn', panelId, { email, password, code: wrongCode })).message);
    assert.ok((await app.call('logIn', panelId, { email, password, code })).ok);
    await app.core.flush();

    const files = await app.files();
    assert.ok(files.some((file) => file.path.endsWith('panels.json')));
    assert.ok(files.some((file) => file.path.endsWith('tokens.json')));
    assert.ok(
      files.some((file) => file.path.endsWith('.log') && file.content.includes('"logIn"')),
      'the log recorded the calls',
    );
    for (const secret of [wrongCode, code, password]) {
      for (const message of messages) assert.ok(!message.includes(secret), `"${message}" quotes a secret`);
      for (const file of files) assert.ok(!file.content.includes(secret), `${file.path} holds a secret`);
    }
  });
});

/** A core on a fresh folder, logged in to nothing, before a reference panel with `options`; both go after `work`. */
async function withPanel(options: ReferencePanelOptions, work: (core: Core, id: string) => Promise<void>): Promise<void> {
  const panel = await startReferencePanel({ users: [TWO_FACTOR_USER], ...options });
  const dir = await tempDir();
  try {
    const core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 3000 });
    const { id } = await core.addPanel({ address: panel.url });
    await work(core, id);
    await core.flush();
  } finally {
    await panel.close();
    await dir.cleanup();
  }
}

describe('two-factor answers of other panels', () => {
  const prompts: Record<string, { status: number; body: unknown }> = {
    twoFactorRequired: { status: 200, body: { twoFactorRequired: true } },
    twofa_required: { status: 200, body: { success: false, twofa_required: true } },
    'data.requires2fa': { status: 200, body: { data: { requires2fa: true } } },
    'mfaRequired with a 401': { status: 401, body: { error: 'Unauthorized', mfaRequired: true } },
  };
  for (const [name, twoFactorPrompt] of Object.entries(prompts)) {
    test(`${name}: TWO_FACTOR_REQUIRED, then the code signs in`, () =>
      withPanel({ twoFactorPrompt }, async (core, id) => {
        await assert.rejects(core.logIn(id, { email, password }), { code: 'TWO_FACTOR_REQUIRED' });
        assert.equal((await core.logIn(id, { email, password, code })).signedIn, true);
      }));
  }

  test('a flag that is not true, or an unknown key, is not a request for a code', () =>
    withPanel({ twoFactorPrompt: { status: 200, body: { twoFactorEnabled: false, mfa: 'yes' } } }, async (core, id) => {
      await assert.rejects(core.logIn(id, { email, password }), { code: 'NO_TOKEN_IN_RESPONSE' });
    }));

  for (const [status, message] of [
    [401, 'Invalid two-factor code'],
    [403, 'OTP mismatch'],
    [422, 'The code is invalid'],
  ] as const) {
    test(`a ${status} "${message}" to a request with a code: the code was refused`, () =>
      withPanel({ wrongCodeAnswer: { status, body: { message } } }, async (core, id) => {
        await assert.rejects(core.logIn(id, { email, password, code: wrongCode }), {
          code: 'INVALID_CREDENTIALS',
          message: CODE_REFUSED_MESSAGE,
        });
      }));
  }
});
