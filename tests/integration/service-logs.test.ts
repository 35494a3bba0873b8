import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { keeping, rejectsWith, tempDir, testEncryption, waitUntil } from '../support/helpers.ts';
import { DEMO_USER, type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { openSignedIn } from '../support/signed-in-core.ts';

/**
 * Runtime logs over real HTTP and WebSockets against the reference panel: the backlog, a live
 * follow and its end, a refused token, and hostile sockets (silent, flooding, 100 MB), with the
 * token in no answer, event or error.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const web = { projectName: 'shop', serviceName: 'web' };

const linesOf = (events: PanelEvent[], followId: string) =>
  events.flatMap((event) => (event.type === 'serviceLogLines' && event.followId === followId ? event.lines : []));
const endOf = (events: PanelEvent[], followId: string) =>
  events.find(
    (event): event is Extract<PanelEvent, { type: 'serviceLogEnded' }> => event.type === 'serviceLogEnded' && event.followId === followId,
  );

for (const style of ['trpc', 'rpc', 'public'] as const) {
  test(`a ${style} panel: the last lines through the log socket, the same in every generation`, async () => {
    const panel = await startReferencePanel({ style });
    const dir = await tempDir();
    const core = createCore({ dataDir: dir.path, encryption: testEncryption(), timeoutMs: 4000 });
    try {
      panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
      panel.logs.write('shop', 'web', 'one\ntwo\nthree');
      const { id } = await core.addPanel({ address: panel.url });
      await core.logIn(id, credentials);
      const read = await core.readServiceLogs(id, { ...web, lines: 2 });
      assert.deepEqual(read.lines, ['two', 'three']);
      assert.equal(read.truncated, true);
      assert.equal(panel.logs.accepted().at(-1)?.service, 'shop_web');
    } finally {
      await core.flush();
      await panel.close();
      await dir.cleanup();
    }
  });
}

describe('runtime logs of a 2.33 panel', () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let events: PanelEvent[];
  let id: string;
  let token: string;
  /** Every answer and error this test got, to look for the token in. */
  let seen: unknown[];

  before(async () => {
    panel = await startReferencePanel({ style: 'public' });
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
  });
  after(() => panel.close());
  beforeEach(async () => {
    dir = await tempDir();
    seen = [];
    const opened = await openSignedIn(dir.path, panel, { timeoutMs: 1500 });
    ({ core, events, id, token } = opened);
    seen.push(opened.loggedIn);
  });
  afterEach(async () => {
    core.stopAllLogFollows();
    panel.logs.setFault(null);
    await waitUntil(() => panel.logs.openSockets() === 0);
    const text = JSON.stringify([seen, events]);
    assert.ok(!text.includes(token), 'the token is in no answer, event or error');
    await core.flush();
    await dir.cleanup();
  });

  const capture = <T>(work: Promise<T>): Promise<T> => keeping(seen, work);

  test('reads the last N lines of a long backlog, says it left older ones out, and closes the socket', async () => {
    panel.logs.write('shop', 'web', Array.from({ length: 2500 }, (_, n) => `line ${n + 1}`).join('\n'));
    const last = await capture(core.readServiceLogs(id, { ...web, lines: 1000 }));
    assert.equal(last.lines.length, 1000);
    assert.equal(last.lines[0], 'line 1501');
    assert.equal(last.lines.at(-1), 'line 2500');
    assert.equal(last.truncated, true);
    assert.equal(last.panelId, id);
    assert.ok(Date.parse(last.readAt) > 0);
    await waitUntil(() => panel.logs.openSockets() === 0);
    const all = await capture(core.readServiceLogs(id, { ...web, lines: 10_000 }));
    assert.ok(all.lines.length >= 2500);
    assert.equal(all.truncated, false);
  });

  test('follows new lines live in batches, and a stop closes the socket and says so', async () => {
    const follow = await capture(core.followServiceLogs(id, web));
    await waitUntil(() => panel.logs.openSockets('shop', 'web') === 1);
    panel.logs.write('shop', 'web', 'GET / 200\nGET /health 200');
    panel.logs.write('shop', 'web', 'POST /cart 201');
    await waitUntil(() => linesOf(events, follow.followId).length === 3);
    assert.deepEqual(linesOf(events, follow.followId), ['GET / 200', 'GET /health 200', 'POST /cart 201']);
    // Both writes within one batch: one event.
    assert.equal(events.filter((event) => event.type === 'serviceLogLines').length, 1);
    await core.stopFollowingServiceLogs(follow.followId);
    assert.deepEqual(endOf(events, follow.followId)?.error, null);
    await waitUntil(() => panel.logs.openSockets() === 0);
    // Stopping again, or an id never given, is no error.
    await core.stopFollowingServiceLogs(follow.followId);
  });

  test('at most four follows at once: a fifth ends the oldest, said as such', async () => {
    const follows = [];
    for (let n = 0; n < 5; n++) follows.push(await capture(core.followServiceLogs(id, web)));
    assert.equal(endOf(events, follows[0]!.followId)?.error?.code, 'CANCELLED');
    assert.match(endOf(events, follows[0]!.followId)?.error?.message ?? '', /at most 4 logs/);
    assert.equal(endOf(events, follows[4]!.followId), undefined);
    await waitUntil(() => panel.logs.openSockets() === 4);
  });

  test('a follow ends when the sign-in ends, and when the window stops listening', async () => {
    const first = await capture(core.followServiceLogs(id, web));
    await waitUntil(() => panel.logs.openSockets() === 1);
    seen.push(await core.logOut(id));
    await waitUntil(() => endOf(events, first.followId) !== undefined, 1500);
    assert.equal(endOf(events, first.followId)?.error?.code, 'NOT_SIGNED_IN');
    await waitUntil(() => panel.logs.openSockets() === 0);

    seen.push(await core.logIn(id, credentials));
    token = panel.issuedTokens().at(-1)!;
    const second = await capture(core.followServiceLogs(id, web));
    await waitUntil(() => panel.logs.openSockets() === 1);
    core.stopAllLogFollows();
    assert.deepEqual(endOf(events, second.followId)?.error, null);
  });

  test('a token the log socket refuses: UNAUTHORIZED for a read, and an ended follow; no message quotes it', async () => {
    // The socket alone refuses it: the reads before it (the service's type) take the token.
    panel.logs.setFault({ kind: 'refuse', status: 401 });
    const error = await rejectsWith(capture(core.readServiceLogs(id, web)), 'UNAUTHORIZED', /refused the saved token/);
    assert.ok(!error.message.includes(token));
    // That ended the sign-in (token-refusals.test.ts says more): a new one for the follow.
    seen.push(await core.logIn(id, credentials));
    token = panel.issuedTokens().at(-1)!;
    const follow = await capture(core.followServiceLogs(id, web));
    await waitUntil(() => endOf(events, follow.followId) !== undefined);
    assert.equal(endOf(events, follow.followId)?.error?.code, 'UNAUTHORIZED');
  });

  test("a compose service's log is asked for with compose=true (its type read from the panel); an unknown service opens no socket", async () => {
    panel.services.addService({ projectName: 'shop', name: 'stack', type: 'compose' });
    try {
      panel.logs.write('shop', 'stack', 'stack up');
      const read = await capture(core.readServiceLogs(id, { projectName: 'shop', serviceName: 'stack' }));
      assert.deepEqual(read.lines, ['stack up']);
      assert.deepEqual(panel.logs.accepted().at(-1), { service: 'shop_stack', compose: true, certificate: null });
      await waitUntil(() => panel.logs.openSockets() === 0);
      const follow = await capture(core.followServiceLogs(id, { projectName: 'shop', serviceName: 'stack' }));
      await waitUntil(() => panel.logs.openSockets('shop', 'stack') === 1);
      panel.logs.write('shop', 'stack', 'worker restarted');
      await waitUntil(() => linesOf(events, follow.followId).length === 1);
      await core.stopFollowingServiceLogs(follow.followId);
      await capture(core.readServiceLogs(id, web));
      assert.equal(panel.logs.accepted().at(-1)?.compose, false);
      const accepted = panel.logs.accepted().length;
      await rejectsWith(
        capture(core.readServiceLogs(id, { projectName: 'shop', serviceName: 'gone' })),
        'NOT_FOUND',
        /no service shop\/gone/,
      );
      assert.equal(panel.logs.accepted().length, accepted);
    } finally {
      panel.services.removeService('shop', 'stack');
    }
  });

  test('wrong names and a signed-out panel never reach the panel', async () => {
    const accepted = panel.logs.accepted().length;
    await rejectsWith(capture(core.readServiceLogs(id, { projectName: 'shop', serviceName: 'web&token=x' })), 'INVALID_INPUT');
    await rejectsWith(capture(core.followServiceLogs(id, { projectName: '../x', serviceName: 'web' })), 'INVALID_INPUT');
    await rejectsWith(capture(core.readServiceLogs(id, { ...web, lines: 10_001 })), 'INVALID_INPUT');
    await core.logOut(id);
    await rejectsWith(capture(core.readServiceLogs(id, web)), 'NOT_SIGNED_IN');
    assert.equal(panel.logs.accepted().length, accepted);
  });

  test('a socket that never sends: the read gives up at its deadline, said as such', async () => {
    panel.logs.setFault({ kind: 'silent' });
    // The socket never sends: only the read's own deadline ends it, and the message names which.
    await rejectsWith(capture(core.readServiceLogs(id, web)), 'TIMEOUT', /did not send the log within 1\.5 s/);
  });

  test('a 100 MB backlog (1 MB fragments) is refused once it passes 8 MiB, the rest never read', async () => {
    panel.logs.setFault({ kind: 'huge-backlog', bytes: 100 * 1024 * 1024 });
    const heap = process.memoryUsage().heapUsed;
    const started = performance.now();
    await rejectsWith(capture(core.readServiceLogs(id, web)), 'RESPONSE_TOO_LARGE', /larger than 8\.0 MiB/);
    const took = performance.now() - started;
    const grew = (process.memoryUsage().heapUsed - heap) / 1024 / 1024;
    console.log(`100 MB backlog: refused after ${Math.round(took)} ms, heap grew ${grew.toFixed(1)} MiB`);
    assert.ok(grew < 64, `heap grew ${grew.toFixed(1)} MiB`);
  });

  test('a backlog sent in 1 MB fragments is put together; a first frame that is not {"output"} is BAD_RESPONSE', async () => {
    panel.logs.setFault({ kind: 'huge-backlog', bytes: 3 * 1024 * 1024 });
    const read = await capture(core.readServiceLogs(id, { ...web, lines: 10 }));
    assert.deepEqual(
      read.lines,
      Array.from({ length: 10 }, () => 'y'.repeat(1023)),
    );
    assert.equal(read.truncated, true);
    panel.logs.setFault({ kind: 'bad-frame', body: '{"data":"x"}' });
    await rejectsWith(capture(core.readServiceLogs(id, web)), 'BAD_RESPONSE', /not \{"output": text\}/);
  });

  test('a flooding socket: batches capped, the socket paused between them, main responsive, memory bounded', async () => {
    panel.logs.setFault({ kind: 'flood', linesPerFrame: 200 });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const heap = process.memoryUsage().heapUsed;
    delay.enable();
    const follow = await capture(core.followServiceLogs(id, web));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Main still answers the window while the flood goes on: within the next two batches, not after the flood.
    const batchesSoFar = () => events.filter((event) => event.type === 'serviceLogLines' && event.followId === follow.followId).length;
    const batchesAsked = batchesSoFar();
    const asked = performance.now();
    await core.listPanels();
    const answerMs = performance.now() - asked;
    const batchesWhileAsked = batchesSoFar() - batchesAsked;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    delay.disable();
    await core.stopFollowingServiceLogs(follow.followId);
    const batches = events.filter((event) => event.type === 'serviceLogLines' && event.followId === follow.followId);
    const lines = linesOf(events, follow.followId).length;
    const grew = (process.memoryUsage().heapUsed - heap) / 1024 / 1024;
    const maxDelayMs = delay.max / 1e6;
    console.log(
      `flood for 3 s: listPanels answered in ${answerMs.toFixed(1)} ms, ${batches.length} batches, ${lines} lines, event loop delay max ${maxDelayMs.toFixed(1)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, heap grew ${grew.toFixed(1)} MiB`,
    );
    assert.ok(batches.every((event) => event.type === 'serviceLogLines' && event.lines.length <= 2000));
    // Read in batches (several, each capped), never as one flood; the figures above are printed, not asserted.
    assert.ok(batches.length >= 4, `${batches.length} batches`);
    assert.ok(batchesWhileAsked <= 2, `listPanels waited for ${batchesWhileAsked} batches`);
    assert.ok(grew < 100, `heap grew ${grew.toFixed(1)} MiB`);
    // Events hold the lines; the test keeps them all. What main holds besides is a batch at most.
    events.length = 0;
  });

  test('control characters and colour codes are shown harmless; a line without end is cut', async () => {
    panel.logs.write('shop', 'web', `\x1b[31mred\x1b[0m alert\u0007 \u202egnp.exe\r\nnul\u0000byte\n${'z'.repeat(9000)}`);
    const read = await capture(core.readServiceLogs(id, web));
    const tail = read.lines.slice(-3);
    assert.equal(tail[0], 'red alert\uFFFD \uFFFDgnp.exe');
    assert.equal(tail[1], 'nul\uFFFDbyte');
    assert.equal(tail[2]!.length, 4000);
    assert.equal(read.truncated, true);
  });
});
