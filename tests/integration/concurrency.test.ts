import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { channelOf } from '../../shared/contract/methods.ts';
import { PanelError, type ErrorCode } from '../../shared/contract/errors.ts';
import { registeredIpc } from '../support/fake-ipc.ts';
import { tempDir, testEncryption, type TestEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type DemoUser, type ReferencePanel, type Route } from '../support/reference-panel/server.ts';

/**
 * Calls that overlap: a log out or a removal while a request for the same panel is under way,
 * and many panels answering at once and out of order. The reference panel's latency fault holds
 * a request in flight for as long as a test needs.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const HOLD_MS = 300;

type Outcome<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string };

/** Lets a call run on while the test does other things, and keeps how it ended. */
function outcome<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => {
      assert.ok(error instanceof PanelError, `expected a PanelError, got ${String(error)}`);
      return { ok: false as const, code: error.code, message: error.message };
    },
  );
}

function requestsTo(panel: ReferencePanel, route: Route): number {
  const path = route === 'login' ? '/api/login' : '/api/getSession';
  return panel.requests.filter((request) => request.path === path).length;
}

/** Waits until the panel has received `count` requests on `route`: the request is then in flight for sure. */
async function arrived(panel: ReferencePanel, route: Route, count: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (requestsTo(panel, route) < count) {
    assert.ok(Date.now() < deadline, `${route} request ${count} never reached the panel`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The panel ids that have a token in tokens.json. */
async function storedTokenIds(dataDir: string): Promise<string[]> {
  try {
    const document = JSON.parse(await readFile(join(dataDir, 'tokens.json'), 'utf8')) as { tokens?: Record<string, unknown> };
    return Object.keys(document.tokens ?? {});
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  }
}

describe('overlapping calls', () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let encryption: TestEncryption;
  let core: Core;

  // A panel of its own for each test, so that request counts and issued tokens are the test's own.
  beforeEach(async () => {
    panel = await startReferencePanel();
    dir = await tempDir();
    encryption = testEncryption();
    core = createCore({ dataDir: dir.path, encryption, timeoutMs: 5000 });
  });
  afterEach(async () => {
    await panel.close();
    await dir.cleanup();
  });

  /** A second run of Paneldeck on the same folder and keyring. */
  const restarted = () => createCore({ dataDir: dir.path, encryption });

  /** Nothing of a sign-in is left: not in this run, not on disk, not after a restart. */
  async function assertSignedOutEverywhere(id: string): Promise<void> {
    const listed = (await core.listPanels()).find((candidate) => candidate.id === id);
    assert.equal(listed?.signedIn, false);
    assert.equal(listed?.tokenStorage, null);
    assert.equal((await outcome(core.getSession(id))).ok, false);
    assert.deepEqual(await storedTokenIds(dir.path), [], 'tokens.json still holds a token');
    const again = restarted();
    const relisted = (await again.listPanels()).find((candidate) => candidate.id === id);
    assert.equal(relisted?.signedIn, false, 'signed in again after a restart');
    const read = await outcome(again.getSession(id));
    assert.equal(read.ok ? 'ok' : read.code, 'NOT_SIGNED_IN');
  }

  async function signedInPanel(): Promise<string> {
    const { id } = await core.addPanel({ address: panel.url });
    await core.logIn(id, credentials);
    return id;
  }

  test('log out while a session read is in flight: the token does not come back, the read is not counted as a check', async () => {
    const id = await signedInPanel();
    panel.setFault('getSession', { kind: 'latency', ms: HOLD_MS });
    const reading = outcome(core.getSession(id));
    await arrived(panel, 'getSession', 1);

    assert.equal((await core.logOut(id)).signedIn, false);
    const read = await reading;
    // The panel answered for a sign-in that no longer exists: that answer is not shown as its session.
    assert.equal(read.ok ? 'ok' : read.code, 'NOT_SIGNED_IN');
    assert.match(read.ok ? '' : read.message, /logged out .*while the session was being read/);
    const [listed] = await core.listPanels();
    assert.equal(listed?.lastCheck, null, 'the dropped read marked the panel as checked');
    await assertSignedOutEverywhere(id);
  });

  test('log out while a session read that fails is in flight: its failure is not recorded either', async () => {
    const id = await signedInPanel();
    panel.setFault('getSession', { kind: 'latency', ms: HOLD_MS });
    const reading = outcome(core.getSession(id));
    await arrived(panel, 'getSession', 1);
    panel.expireAllTokens();
    await core.logOut(id);
    const read = await reading;
    assert.equal(read.ok ? 'ok' : read.code, 'NOT_SIGNED_IN');
    const [listed] = await core.listPanels();
    assert.equal(listed?.lastCheck, null);
    assert.equal(listed?.signedOutReason, null, 'a log out by the operator is not a lost session');
    await assertSignedOutEverywhere(id);
  });

  test('remove a panel while its log in is in flight: nothing is stored for it', async () => {
    const { id } = await core.addPanel({ address: panel.url });
    panel.setFault('login', { kind: 'latency', ms: HOLD_MS });
    const loggingIn = outcome(core.logIn(id, credentials));
    await arrived(panel, 'login', 1);

    await core.removePanel(id);
    const logIn = await loggingIn;
    assert.equal(logIn.ok ? 'ok' : logIn.code, 'NOT_FOUND');
    assert.equal(panel.issuedTokens().length, 1, 'the panel did issue a token, which must be dropped');
    assert.deepEqual(await core.listPanels(), []);
    assert.equal((await outcome(core.getSession(id))).ok, false);
    assert.deepEqual(await storedTokenIds(dir.path), []);
    assert.deepEqual(await restarted().listPanels(), []);
  });

  for (const when of ['before the request leaves', 'while the panel holds the request'] as const) {
    test(`a log in racing a log out (${when}): no token survives`, async () => {
      const { id } = await core.addPanel({ address: panel.url });
      panel.setFault('login', { kind: 'latency', ms: HOLD_MS });
      const loggingIn = outcome(core.logIn(id, credentials));
      if (when === 'while the panel holds the request') await arrived(panel, 'login', 1);
      await core.logOut(id);
      const logIn = await loggingIn;
      assert.equal(logIn.ok ? 'ok' : logIn.code, 'NOT_SIGNED_IN');
      await assertSignedOutEverywhere(id);
    });
  }

  test('two session reads of one panel racing a log out: neither brings the token back', async () => {
    const id = await signedInPanel();
    panel.setFault('getSession', { kind: 'latency', ms: HOLD_MS });
    const first = outcome(core.getSession(id));
    const second = outcome(core.getSession(id));
    await arrived(panel, 'getSession', 2);
    await core.logOut(id);
    for (const read of await Promise.all([first, second])) assert.equal(read.ok ? 'ok' : read.code, 'NOT_SIGNED_IN');
    await assertSignedOutEverywhere(id);
  });

  test('a read that ends before the log out counts; one still in flight at the log out does not', async () => {
    const id = await signedInPanel();
    panel.setFault('getSession', { kind: 'latency', ms: HOLD_MS });
    const slow = outcome(core.getSession(id));
    await arrived(panel, 'getSession', 1);
    panel.setFault('getSession', null);
    const fast = await outcome(core.getSession(id));
    assert.ok(fast.ok, 'the read that ended first is an ordinary answer');
    await core.logOut(id);
    const late = await slow;
    assert.equal(late.ok ? 'ok' : late.code, 'NOT_SIGNED_IN');
    const [listed] = await core.listPanels();
    assert.deepEqual(listed?.lastCheck, { at: fast.value.checkedAt, ok: true }, 'the last check is the read that ended before the log out');
    await assertSignedOutEverywhere(id);
  });

  test('a log out stops a read of its sign-in under way; a new log in after it reads with the new token', async () => {
    const id = await signedInPanel();
    panel.setFault('getSession', { kind: 'latency', ms: HOLD_MS });
    const reading = outcome(core.getSession(id));
    await arrived(panel, 'getSession', 1);
    await core.logOut(id);
    // Stopped by the log out, not left to answer later for a sign-in that has ended.
    const read = await reading;
    assert.ok(!read.ok && read.code === 'NOT_SIGNED_IN', `the read ended as ${JSON.stringify(read)}`);
    assert.match(read.message, /logged out of .* while the session was being read/);
    await core.logIn(id, credentials);
    const newToken = panel.issuedTokens().at(-1);
    panel.setFault('getSession', null);
    const again = await core.getSession(id);
    assert.ok(again.session, 'a session came back');
    assert.equal(requestsTo(panel, 'getSession'), 2, 'one read per sign-in, none repeated with the ended token');
    assert.equal(panel.requests.at(-1)?.headers.authorization, `Bearer ${newToken}`);
    assert.equal((await core.listPanels())[0]?.signedIn, true);
  });
});

describe('twenty panels reading their sessions at once', () => {
  const COUNT = 20;
  const users: DemoUser[] = Array.from({ length: COUNT }, (_, index) => ({
    id: `usr_${2000 + index}`,
    email: `operator-${index}@panel-${index}.test`,
    password: `password-${index}`,
    name: `Operator ${index}`,
    role: index % 2 ? 'admin' : 'viewer',
  }));
  let servers: ReferencePanel[];
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  /** Panel ids, in the order of `users` and `servers`. */
  let ids: string[];

  before(async () => {
    servers = await Promise.all(users.map((user) => startReferencePanel({ users: [user] })));
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 5000 });
    ids = [];
    for (const [index, server] of servers.entries()) ids.push((await core.addPanel({ address: server.url, name: `Panel ${index}` })).id);
    // The log ins overlap too, each held a different time.
    for (const server of servers) server.setFault('login', { kind: 'latency', ms: Math.floor(Math.random() * 100) });
    await Promise.all(ids.map((id, index) => core.logIn(id, { email: users[index]!.email, password: users[index]!.password })));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await dir.cleanup();
  });

  /** Each panel answers after a different delay, in an order unlike the order of the calls. */
  function scrambleLatencies(): number[] {
    const delays = users.map((_, index) => index * 15);
    for (let index = delays.length - 1; index > 0; index--) {
      const other = Math.floor(Math.random() * (index + 1));
      [delays[index], delays[other]] = [delays[other]!, delays[index]!];
    }
    // A shuffle that changed nothing would not test the order.
    if (delays.every((delay, index) => delay === index * 15)) delays.reverse();
    for (const [index, server] of servers.entries()) server.setFault('getSession', { kind: 'latency', ms: delays[index]! });
    return delays;
  }

  function assertLandsOnItsPanel(index: number, result: { panelId: string; session: unknown }): void {
    assert.equal(result.panelId, ids[index], `result ${index} is for another panel`);
    const user = (result.session as { user?: { id?: string; email?: string } }).user;
    assert.equal(user?.email, users[index]!.email, `panel ${index} got another panel's session`);
    assert.equal(user?.id, users[index]!.id);
  }

  test('through the core: every result lands on the right panel', async () => {
    const delays = scrambleLatencies();
    const finished: number[] = [];
    const results = await Promise.all(
      ids.map((id, index) =>
        core.getSession(id).then((result) => {
          finished.push(index);
          return result;
        }),
      ),
    );
    for (const [index, result] of results.entries()) assertLandsOnItsPanel(index, result);
    assert.notDeepEqual(
      finished,
      [...finished].sort((a, b) => a - b),
      'the answers arrived in the order of the calls',
    );
    assert.ok(delays.length === COUNT);
    for (const [index, listed] of (await core.listPanels()).entries()) {
      assert.equal(listed.id, ids[index]);
      assert.equal(listed.lastCheck?.ok, true, `panel ${index} was not marked as checked`);
    }
  });

  test('through the registrar: the same twenty at once, each envelope for its own panel', async () => {
    scrambleLatencies();
    const ipc = registeredIpc({ core });
    const answers = (await Promise.all(ids.map((id) => ipc.call(channelOf('getSession'), id)))) as {
      ok: boolean;
      value?: { panelId: string; session: unknown };
    }[];
    answers.forEach((answer, index) => {
      assert.equal(answer.ok, true, `panel ${index}: ${JSON.stringify(answer)}`);
      assertLandsOnItsPanel(index, answer.value!);
    });
  });
});
