import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { PanelError } from '../../shared/contract/errors.ts';
import { createCore, type Core } from '../../electron/core/index.ts';
import { HIDDEN_SECRET } from '../../electron/core/secrets/session-redaction.ts';
import { activityLineOutcomes, readAllFiles, tempDir, testEncryption, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';
import { echoForms, secretFormsIn } from '../support/secret-forms.ts';
import { confirmations } from '../support/confirmations.ts';

/**
 * A panel that echoes the token (or, while logging in, the password) encoded: URL-encoded,
 * inside base64, in another case. None of those forms may reach the window, an error message, or
 * the files in the data folder (panels.json keeps error messages as lastCheck.error).
 */

// Laravel Sanctum's shape: the "|" is what URL-encoding changes.
let issued = 0;
const sanctumToken = () => `${++issued}|${randomBytes(30).toString('base64url')}`;
// Shorter than the 24 characters that make server text opaque: only the matcher can catch it.
const user = { ...DEMO_USER, password: 'correct|horse:battery' };
const credentials = { email: user.email, password: user.password };

describe('encoded echoes of the token and the password', () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;

  before(async () => {
    panel = await startReferencePanel({ users: [user], issueToken: sanctumToken });
  });
  after(() => panel.close());
  beforeEach(async () => {
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), confirmWrite: confirmations().confirmWrite, timeoutMs: 3000 });
    panel.setFault('login', null);
    panel.setFault('getSession', null);
    panel.setFault('logout', null);
    panel.setSessionBody(undefined);
  });
  afterEach(() => dir.cleanup());

  async function signedIn(): Promise<{ id: string; token: string }> {
    const { id } = await core.addPanel({ address: panel.url });
    const known = new Set(panel.issuedTokens());
    await core.logIn(id, credentials);
    const token = panel.issuedTokens().find((candidate) => !known.has(candidate));
    assert.ok(token?.includes('|'), 'the panel issued a Sanctum-style token');
    return { id, token: token ?? '' };
  }

  /** Fails naming every place where `secret` shows up in one of its forms. */
  async function assertNowhere(secret: string, texts: Record<string, string>): Promise<void> {
    const files = await readAllFiles(dir.path);
    const places = { ...texts, ...Object.fromEntries(files.map((file) => [file.path, file.content])) };
    const leaks = Object.entries(places).flatMap(([place, text]) => secretFormsIn(text, secret).map((form) => `${place}: ${form}`));
    assert.deepEqual(leaks, []);
  }

  async function messageOf(work: Promise<unknown>): Promise<string> {
    const error = await work.then(
      () => assert.fail('expected a failure'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof PanelError, String(error));
    return `${error.code}: ${error.message}`;
  }

  test('the helper finds every form, so that the checks below mean something', () => {
    const token = sanctumToken();
    for (const form of echoForms(token, user.email)) {
      assert.notDeepEqual(secretFormsIn(form.text, token), [], form.name);
    }
    assert.deepEqual(secretFormsIn(JSON.stringify({ user: DEMO_USER, at: new Date().toISOString() }), token), []);
  });

  for (const form of echoForms('{token}', user.email).map((entry) => entry.name)) {
    test(`a session holding the token ${form}: hidden, and the rest of the session kept`, async () => {
      const { id, token } = await signedIn();
      const echo = echoForms(token, user.email).find((entry) => entry.name === form)!.text;
      panel.setSessionBody({
        user: { email: user.email, name: user.name },
        request: { header: echo },
        [echo]: 'as a key',
        plain: 'sk-demo-not-a-real-key',
      });

      const result = await core.getSession(id);
      assert.deepEqual(result.session, {
        user: { email: user.email, name: user.name },
        request: { header: HIDDEN_SECRET },
        [`${HIDDEN_SECRET} 1`]: 'as a key',
        plain: 'sk-demo-not-a-real-key',
      });
      await assertNowhere(token, {
        'the session result': JSON.stringify(result),
        'the panel list': JSON.stringify(await core.listPanels()),
      });
    });

    test(`a 422 whose message holds the token ${form}, on getSession: not quoted, not kept`, async () => {
      const { id, token } = await signedIn();
      const echo = echoForms(token, user.email).find((entry) => entry.name === form)!.text;
      panel.setFault('getSession', { kind: 'status', status: 422, body: { message: `Invalid ${echo}` } });

      const message = await messageOf(core.getSession(id));
      assert.match(message, /^BAD_RESPONSE: The panel answered HTTP 422/);
      const [listed] = await core.listPanels();
      assert.equal(listed?.lastCheck?.ok, false);
      await assertNowhere(token, { 'the error message': message, 'the panel list': JSON.stringify(await core.listPanels()) });
    });

    test(`a 422 whose message holds the password ${form}, on log in: not quoted`, async () => {
      const { id } = await core.addPanel({ address: panel.url });
      const echo = echoForms(credentials.password, user.email).find((entry) => entry.name === form)!.text;
      panel.setFault('login', { kind: 'status', status: 422, body: { message: `Rejected ${echo}` } });

      const message = await messageOf(core.logIn(id, credentials));
      assert.match(message, /^BAD_RESPONSE: The panel answered HTTP 422/);
      await assertNowhere(credentials.password, {
        'the error message': message,
        'the panel list': JSON.stringify(await core.listPanels()),
      });
    });
  }

  for (const form of echoForms('{token}', user.email).map((entry) => entry.name)) {
    test(`a log out whose refusal holds the token ${form}: recorded in the activity log without it`, async () => {
      const { id, token } = await signedIn();
      const echo = echoForms(token, user.email).find((entry) => entry.name === form)!.text;
      panel.setFault('logout', { kind: 'status', status: 422, body: { message: `Cannot end ${echo}` } });

      const panelAfter = await core.logOut(id);
      const activity = await core.listActivity();
      const [entry] = activity.entries;
      assert.equal(entry?.what.action, 'logOut');
      assert.equal(entry?.outcome, 'failed');
      await assertNowhere(token, {
        'the activity log': JSON.stringify(activity),
        'the panel after the log out': JSON.stringify(panelAfter),
      });
    });
  }

  test('a log in and a log out are each recorded before they are sent and again with their outcome, and hold neither token nor password', async () => {
    const { id, token } = await signedIn();
    await core.logOut(id);
    const { entries } = await core.listActivity({ panelId: id });
    assert.deepEqual(
      entries.map((entry) => `${entry.what.action} ${entry.panelId}`),
      [`logOut ${id}`, `logIn ${id}`],
    );
    assert.equal(entries[1]?.outcome, 'ok');
    assert.deepEqual(await activityLineOutcomes(dir.path), ['pending', 'ok', 'pending', entries[0]?.outcome]);
    await assertNowhere(token, { 'the activity log': JSON.stringify(entries) });
    await assertNowhere(credentials.password, { 'the activity log': JSON.stringify(entries) });
  });

  test('a log in refused for a wrong password and a wrong code is recorded as failed, without the password or the code', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    const wrong = { email: user.email, password: 'not-the-password-4711', code: '918273' };
    await assert.rejects(core.logIn(id, wrong));
    const { entries } = await core.listActivity({ panelId: id });
    assert.deepEqual(
      entries.map((entry) => `${entry.what.action} ${entry.outcome}`),
      ['logIn failed'],
    );
    assert.ok(entries[0]?.message, "the panel's refusal is kept in words");
    await assertNowhere(wrong.password, { 'the activity log': JSON.stringify(entries) });
    await assertNowhere(wrong.code, { 'the activity log': JSON.stringify(entries) });
  });

  test('a log in with an API token is recorded without the token', async () => {
    const token = `1|${'a'.repeat(40)}`;
    const { id } = await core.addPanel({ address: panel.url });
    await assert.rejects(core.logInWithApiToken(id, { token }));
    const { entries } = await core.listActivity({ panelId: id });
    assert.deepEqual(
      entries.map((entry) => entry.what.action),
      ['logInWithApiToken'],
    );
    assert.notEqual(entries[0]?.outcome, 'pending');
    await assertNowhere(token, { 'the activity log': JSON.stringify(entries) });
  });

  test('the runtime log: a panel that writes the token into a log line, and refuses it afterwards; in no line, event or message', async () => {
    const events: unknown[] = [];
    core = createCore({
      dataDir: dir.path,
      encryption: testEncryption(),
      confirmWrite: confirmations().confirmWrite,
      timeoutMs: 3000,
      emit: (event) => events.push(event),
    });
    const { id, token } = await signedIn();
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    for (const form of echoForms(token, user.email)) panel.logs.write('shop', 'web', `echo ${form.text} end`);
    panel.logs.write('shop', 'web', 'an ordinary line');
    const read = await core.readServiceLogs(id, { projectName: 'shop', serviceName: 'web' });
    assert.equal(read.lines.at(-1), 'an ordinary line');
    await waitUntil(() => panel.logs.openSockets() === 0);
    const follow = await core.followServiceLogs(id, { projectName: 'shop', serviceName: 'web' });
    await waitUntil(() => panel.logs.openSockets() === 1);
    panel.logs.write('shop', 'web', `live ${token}`);
    await waitUntil(() => JSON.stringify(events).includes('serviceLogLines'));
    await core.stopFollowingServiceLogs(follow.followId);
    panel.expireAllTokens();
    const refused = await messageOf(core.readServiceLogs(id, { projectName: 'shop', serviceName: 'web' }));
    await assertNowhere(token, { 'the log read': JSON.stringify(read), events: JSON.stringify(events), 'the refusal': refused });
  });

  test('a build log and a deployments list that hold the token in every form: in no line, type or message', async () => {
    const easypanel = await startReferencePanel({ style: 'public', users: [user], issueToken: sanctumToken });
    after(() => easypanel.close());
    const { id } = await core.addPanel({ address: easypanel.url });
    await core.logIn(id, credentials);
    const token = easypanel.issuedTokens().at(-1) ?? '';
    easypanel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    const action = easypanel.serviceActions.beginAction('shop', 'web', 'build');
    action.log = `${echoForms(token, user.email)
      .map((form) => `echo ${form.text} end`)
      .join('\n')}\nan ordinary line\n`;
    const log = await core.getDeploymentLog(id, action.id);
    assert.equal(log.log.split('\n').at(-1), 'an ordinary line');
    easypanel.serviceActions.setRawAnswer('listActions', [
      { id: 'a1', type: token, status: 'done' },
      { id: token.replace(/[^A-Za-z0-9_-]/g, ''), type: 'build', status: 'done' },
      { id: Buffer.from(token).toString('hex').slice(0, 120), type: 'build', status: 'done' },
    ]);
    const list = await core.listDeployments(id, { projectName: 'shop', serviceName: 'web' });
    assert.deepEqual(
      list.deployments.map((one) => one.type),
      ['unknown', 'build'],
    );
    easypanel.serviceActions.setRawAnswer('getAction', { status: token, log: 1 });
    const odd = await core.getDeploymentLog(id, action.id);
    easypanel.expireAllTokens();
    const refused = await messageOf(core.getDeploymentLog(id, action.id));
    await assertNowhere(token, {
      'the build log': JSON.stringify(log),
      'the list': JSON.stringify(list),
      'a status made of the token': JSON.stringify(odd),
      'the refusal': refused,
    });
  });

  test('a redirect to a host made of the token, in hex or as it is: the host is not named', async () => {
    const { id, token } = await signedIn();
    for (const host of [Buffer.from(token).toString('hex'), token.replace('|', '-')]) {
      panel.setFault('getSession', { kind: 'redirect', to: `http://${host}.invalid/next` });
      const message = await messageOf(core.getSession(id));
      assert.match(message, /^REDIRECT_REFUSED: The panel redirected to an address not named here/);
      await assertNowhere(token.replace('|', '-'), { 'the error message': message });
      await assertNowhere(token, { 'the error message': message, 'the panel list': JSON.stringify(await core.listPanels()) });
    }
  });

  test('an ordinary 422 message is still quoted', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    panel.setFault('login', { kind: 'status', status: 422, body: { message: 'The email field must be a valid email address.' } });
    assert.match(await messageOf(core.logIn(id, credentials)), /HTTP 422.*"The email field must be a valid email address\."/);
  });
});

describe('a log in while signed in, whose error echoes the current token', () => {
  // Shorter than an opaque run: only the matcher, told of the current token, can catch it.
  const shortToken = () => `${++issued}|pQ7x${randomBytes(3).toString('hex')}`;
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    panel = await startReferencePanel({ users: [user], issueToken: shortToken });
  });
  after(() => panel.close());
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.cleanup());

  for (const form of echoForms('{token}', user.email).map((entry) => entry.name)) {
    test(`${form}: not quoted`, async () => {
      const core = createCore({
        dataDir: dir.path,
        encryption: testEncryption(),
        confirmWrite: confirmations().confirmWrite,
        timeoutMs: 3000,
      });
      panel.setFault('login', null);
      const { id } = await core.addPanel({ address: panel.url, name: form });
      await core.logIn(id, credentials);
      const token = panel.issuedTokens().at(-1)!;
      const echo = echoForms(token, user.email).find((entry) => entry.name === form)!.text;
      panel.setFault('login', { kind: 'status', status: 422, body: { message: `Already signed in as ${echo}` } });
      const error = await core.logIn(id, credentials).then(
        () => assert.fail('expected a failure'),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof PanelError, String(error));
      assert.match(error.message, /^The panel answered HTTP 422/);
      assert.deepEqual(secretFormsIn(error.message, token), []);
    });
  }
});
