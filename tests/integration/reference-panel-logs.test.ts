import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';

/**
 * The reference panel's log WebSocket on the wire, as docs/easypanel-api.md describes it: `/ws/serviceLogs`
 * at the root of the origin (beside `/api`), the token only as `?token=`, frames `{"output": "..."}`
 * with the backlog first, then lines as they are written.
 */

type Opened = { socket: WebSocket; frames: unknown[] } | { status: number };

function open(panel: ReferencePanel, query: string, path = '/ws/serviceLogs'): Promise<Opened> {
  const url = `${panel.url.replace(/^http/, 'ws')}${path}?${query}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const frames: unknown[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    socket.once('open', () => resolve({ socket, frames }));
    socket.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
    socket.once('error', reject);
  });
}

async function logInToken(panel: ReferencePanel): Promise<string> {
  const answer = await fetch(`${panel.baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
  });
  return ((await answer.json()) as { token: string }).token;
}

for (const style of ['trpc', 'rpc', 'public'] as const) {
  describe(`the log WebSocket of a ${style} panel`, () => {
    let panel: ReferencePanel;
    let token: string;
    before(async () => {
      panel = await startReferencePanel({ style: 'public' });
      panel.services.addService({ projectName: 'shop', name: 'web_1', type: 'app' });
      token = await logInToken(panel);
      // Logged in through 2.33's route (its token works on every route); then the style under test.
      if (style !== 'public') panel.setVersion(style === 'trpc' ? '2.28.1' : '2.32.2', { upgrade: true });
    });
    after(() => panel.close());

    test('sends the backlog as the first frame, then each written line as a frame', async () => {
      panel.logs.write('shop', 'web_1', 'started\nlistening on :3000');
      const opened = await open(panel, `token=${token}&service=shop_web_1&compose=false`);
      assert.ok('socket' in opened);
      await waitUntil(() => opened.frames.length === 1);
      assert.deepEqual(opened.frames[0], { output: 'started\nlistening on :3000\n' });
      panel.logs.write('shop', 'web_1', 'GET / 200');
      await waitUntil(() => opened.frames.length === 2);
      assert.deepEqual(opened.frames[1], { output: 'GET / 200\n' });
      assert.equal(panel.logs.openSockets('shop', 'web_1'), 1);
      opened.socket.close();
      await waitUntil(() => panel.logs.openSockets() === 0);
    });

    test('refuses a missing or unknown token with 401 before any upgrade, and an unknown service with 404', async () => {
      const before = panel.logs.accepted().length;
      assert.deepEqual(await open(panel, 'service=shop_web_1&compose=false'), { status: 401 });
      assert.deepEqual(await open(panel, 'token=nope&service=shop_web_1&compose=false'), { status: 401 });
      assert.deepEqual(await open(panel, `token=${token}&service=shop_nothing&compose=false`), { status: 404 });
      assert.equal(panel.logs.accepted().length, before);
    });

    test("a compose service's log only with compose=true, any other's only without (404 the other way round)", async () => {
      panel.services.addService({ projectName: 'shop', name: 'stack', type: 'compose' });
      panel.logs.write('shop', 'stack', 'compose up');
      assert.deepEqual(await open(panel, `token=${token}&service=shop_stack&compose=false`), { status: 404 });
      assert.deepEqual(await open(panel, `token=${token}&service=shop_web_1&compose=true`), { status: 404 });
      const opened = await open(panel, `token=${token}&service=shop_stack&compose=true`);
      assert.ok('socket' in opened);
      await waitUntil(() => opened.frames.length === 1);
      assert.deepEqual(opened.frames[0], { output: 'compose up\n' });
      assert.deepEqual(panel.logs.accepted().at(-1), { service: 'shop_stack', compose: true, certificate: null });
      opened.socket.close();
      await waitUntil(() => panel.logs.openSockets() === 0);
      panel.services.removeService('shop', 'stack');
    });

    test('refuses the upgrade with the status of a `refuse` fault, whatever the token', async () => {
      panel.logs.setFault({ kind: 'refuse', status: 403 });
      assert.deepEqual(await open(panel, `token=${token}&service=shop_web_1&compose=false`), { status: 403 });
      panel.logs.setFault(null);
    });

    test('is at the root of the origin, not under /api', async () => {
      await assert.rejects(open(panel, `token=${token}&service=shop_web_1`, '/api/ws/serviceLogs'));
    });
  });
}

describe('the log WebSocket in its hostile modes', () => {
  let panel: ReferencePanel;
  let token: string;
  before(async () => {
    panel = await startReferencePanel({ style: 'public' });
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    token = await logInToken(panel);
  });
  after(() => panel.close());
  const query = () => `token=${token}&service=shop_web&compose=false`;

  test('silent: upgrades and sends nothing', async () => {
    panel.logs.setFault({ kind: 'silent' });
    const opened = await open(panel, query());
    assert.ok('socket' in opened);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(opened.frames.length, 0);
    opened.socket.terminate();
  });

  test('flood: the backlog, then frames for as long as the client reads', async () => {
    panel.logs.setFault({ kind: 'flood', linesPerFrame: 50 });
    const opened = await open(panel, query());
    assert.ok('socket' in opened);
    await waitUntil(() => opened.frames.length > 100);
    opened.socket.terminate();
  });

  test('bad-frame: a first frame that is not {"output": text}', async () => {
    panel.logs.setFault({ kind: 'bad-frame', body: '[1,2,3]' });
    const opened = await open(panel, query());
    assert.ok('socket' in opened);
    await waitUntil(() => opened.frames.length === 1);
    assert.deepEqual(opened.frames[0], [1, 2, 3]);
    opened.socket.terminate();
    panel.logs.setFault(null);
  });
});
