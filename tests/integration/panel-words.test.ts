import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import { rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/** What real panels say when they refuse, in their own words: Easypanel's, tRPC's and plain error bodies. */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };

describe("the panel's own words", () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let id: string;

  before(async () => {
    panel = await startReferencePanel();
  });
  after(() => panel.close());
  beforeEach(async () => {
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 3000 });
    id = (await core.addPanel({ address: panel.url })).id;
    panel.setFault('login', null);
  });
  afterEach(() => dir.cleanup());

  for (const [shape, body] of [
    ["Easypanel's {code, status, message}", { code: 'BAD_REQUEST', status: 400, message: 'Email is not verified' }],
    ['tRPC', { error: { json: { message: 'Email is not verified', code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400 } } } }],
    ['a plain {"error": "..."}', { error: 'Email is not verified' }],
  ] as const) {
    test(`${shape}: the message is quoted`, async () => {
      panel.setFault('login', { kind: 'status', status: 400, body });
      await rejectsWith(core.logIn(id, credentials), 'BAD_RESPONSE', /HTTP 400 Bad Request while logging in: "Email is not verified"/);
    });
  }

  test("a 429 with Easypanel's data.reset says how long to wait", async () => {
    const reset = Date.now() + 150_000;
    panel.setFault('login', {
      kind: 'status',
      status: 429,
      body: { code: 'TOO_MANY_REQUESTS', status: 429, message: 'Too many attempts', data: { reset } },
    });
    await rejectsWith(core.logIn(id, credentials), 'RATE_LIMITED', /Wait 3 minutes and try again/);
  });

  test('a 429 inside a tRPC envelope, in seconds, says how long to wait', async () => {
    const reset = Math.floor(Date.now() / 1000) + 40;
    panel.setFault('login', {
      kind: 'status',
      status: 429,
      body: { error: { json: { message: 'Slow down', data: { httpStatus: 429, reset } } } },
    });
    await rejectsWith(core.logIn(id, credentials), 'RATE_LIMITED', /Wait (39|40|41) s and try again/);
  });

  test('a 429 with Retry-After in seconds says so; one without any hint says a minute', async () => {
    panel.setFault('login', { kind: 'rate-limited', retryAfterSeconds: 20 });
    await rejectsWith(core.logIn(id, credentials), 'RATE_LIMITED', /Wait 20 s/);
    panel.setFault('login', { kind: 'status', status: 429, body: { message: 'no hint' } });
    await rejectsWith(core.logIn(id, credentials), 'RATE_LIMITED', /Wait a minute/);
  });
});
