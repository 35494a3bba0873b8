import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Core } from '../../electron/core/index.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { keeping, longestHold, rejectsWith, tempDir, waitUntil, writesOnly } from '../support/helpers.ts';
import { type ReferencePanel, startReferencePanel } from '../support/reference-panel/server.ts';
import { secretFormsIn } from '../support/secret-forms.ts';
import { openSignedIn } from '../support/signed-in-core.ts';

/**
 * Answers no real panel sends, to the operations of issue 23 (the rest is in services-read and
 * service-logs): lists too large or full of characters that reorder text, figures no server has,
 * a write answered with a web page or megabytes, log sockets that flood or never speak. Main
 * answers, says what happened, and shows nothing unsafe. The longest hold of the event loop is
 * measured and printed; the assertions are on what came back, not on milliseconds of a shared machine.
 */

const web = { projectName: 'shop', serviceName: 'web' };
/** What a name shown to the operator must never hold: control characters and marks that reorder or hide text. */
const UNSAFE = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;

describe('hostile answers to the operations', () => {
  let panel: ReferencePanel;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let events: PanelEvent[];
  let seen: unknown[];
  let id: string;
  let token: string;
  const holds: string[] = [];

  before(async () => {
    panel = await startReferencePanel({ style: 'public' });
  });
  after(async () => {
    console.log(`longest holds of the event loop: ${holds.join('; ')}`);
    await panel.close();
  });
  beforeEach(async () => {
    dir = await tempDir();
    seen = [];
    for (const record of panel.services.services()) panel.services.removeService(record.projectName, record.name);
    panel.services.addService({ projectName: 'shop', name: 'web', type: 'app' });
    const opened = await openSignedIn(dir.path, panel);
    ({ core, events, id, token } = opened);
    seen.push(opened.loggedIn);
  });
  afterEach(async () => {
    core.stopAllLogFollows();
    panel.logs.setFault(null);
    for (const route of ['listProjectsAndServices', 'getSystemStats'] as const) panel.services.setRawAnswer(route, undefined);
    for (const route of ['listProjectsAndServices', 'stopAppService', 'restartAppService'] as const) panel.setFault(route, null);
    await waitUntil(() => panel.logs.openSockets() === 0);
    const text = JSON.stringify([seen, events, await core.listActivity()]);
    assert.deepEqual(secretFormsIn(text, token), [], 'the token is in no answer, event or activity entry');
    await core.flush();
    await dir.cleanup();
  });

  const measured = async <T>(what: string, work: () => Promise<T>) => {
    const { value, heldMs } = await longestHold(work);
    holds.push(`${what} ${heldMs.toFixed(0)} ms`);
    return value;
  };

  test('a project list of 20 MB, or of more values than any real one: refused unread, main turning', async () => {
    panel.setFault('listProjectsAndServices', { kind: 'huge-body', bytes: 20 * 1024 * 1024 });
    await measured('20 MB list', () => rejectsWith(keeping(seen, core.listServices(id)), 'RESPONSE_TOO_LARGE', /larger than 16/));
    panel.setFault('listProjectsAndServices', null);
    panel.services.setRawAnswer('listProjectsAndServices', { projects: [], services: Array.from({ length: 450_000 }, () => 0) });
    await measured('450,000 values', () =>
      rejectsWith(keeping(seen, core.listServices(id)), 'RESPONSE_TOO_LARGE', /more than 400,000 values/),
    );
  });

  test('names with control, bidi and zero-width characters, very long, or not text: shown harmless, never a crash', async () => {
    const hostile = [
      { projectName: 'shop\u202e', name: 'web\u2066evil\u2069', type: 'app\u0000', enabled: true },
      { projectName: 'p', name: `x\u200b${'y'.repeat(10_000)}`, type: 'compose', enabled: true },
      { projectName: 'p', name: '\u001b[31mred\u001b[0m\r\nnext', type: { nested: true }, enabled: 'yes' },
      { projectName: 'p', name: 42, type: 'app' },
      { projectName: ['p'], name: 'q' },
      'not a service',
      null,
    ];
    panel.services.setRawAnswer('listProjectsAndServices', {
      projects: [{ name: 'shop\u202e' }, { name: '\ufeff' }, { name: { deep: 1 } }],
      services: hostile,
    });
    const list = await measured('hostile names', () => keeping(seen, core.listServices(id)));
    assert.equal(list.services.length, 3, 'items without a usable name are left out');
    const names = [...list.projects.map((one) => one.name), ...list.services.flatMap((one) => [one.projectName, one.name, one.type])];
    assert.deepEqual(
      names.filter((name) => UNSAFE.test(name)),
      [],
    );
    assert.equal(list.services[0]?.name, 'web\uFFFDevil\uFFFD');
    assert.equal(list.services[1]?.name.length, 200);
    assert.ok(list.services[1]?.name.endsWith('…'));
    assert.equal(list.services[2]?.type, 'unknown');
  });

  test('server figures as NaN, Infinity, negative, or beyond any server: not said (null), never shown as figures', async () => {
    panel.services.setRawAnswer('getSystemStats', {
      uptime: -3600,
      cpuInfo: { usedPercentage: 'NaN', count: 'many' },
      memInfo: { usedMemMb: '1e400', totalMemMb: 5e12, usedMemPercentage: 'Infinity' },
      diskInfo: { usedGb: '31.2', totalGb: '-78' },
    });
    const stats = await keeping(seen, core.getServerStats(id));
    assert.deepEqual(
      [stats.uptimeSeconds, stats.cpuPercent, stats.memory, stats.disk],
      [null, null, { usedMb: null, totalMb: null }, { usedGb: 31.2, totalGb: null }],
    );
    panel.services.setRawAnswer('getSystemStats', { uptime: '12', cpuInfo: { usedPercentage: 250 }, memInfo: [], diskInfo: 'full' });
    const again = await keeping(seen, core.getServerStats(id));
    assert.deepEqual([again.uptimeSeconds, again.cpuPercent], [12, null]);
  });

  test('nesting deeper than any real answer: the load read without its nested part; the list a write reads first refused, nothing written', async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 1000; level++) deep = { deeper: deep };
    panel.services.setRawAnswer('getSystemStats', { uptime: 1, cpuInfo: deep });
    // Within the parser's bound (2,000 levels) and read without recursion: the nested part is simply not a figure.
    const stats = await measured('load nested 1,000 deep', () => keeping(seen, core.getServerStats(id)));
    assert.deepEqual([stats.uptimeSeconds, stats.cpuPercent], [1, null]);
    panel.services.setRawAnswer('listProjectsAndServices', {
      projects: [],
      services: [{ projectName: 'shop', name: 'web', type: 'app', x: deep }],
    });
    await rejectsWith(keeping(seen, core.runServiceAction(id, { ...web, action: 'stop' })), 'BAD_RESPONSE', /nested more than 64 levels/);
    assert.equal(panel.requests.filter((request) => request.path === '/api/stopAppService').length, 0);
    assert.deepEqual(writesOnly((await core.listActivity({ panelId: id })).entries), [], 'nothing sent, nothing recorded');
  });

  test('a write answered with a web page, or with megabytes: its outcome unknown (it reached something), sent once', async () => {
    panel.setFault('stopAppService', { kind: 'html-page' });
    const stopped = await measured('write answered with HTML', () => keeping(seen, core.runServiceAction(id, { ...web, action: 'stop' })));
    assert.equal(stopped.outcome, 'unknown');
    assert.match(stopped.message ?? '', /answer could not be read \(The panel answered with an HTML page \(HTTP 200/);
    assert.match(stopped.message ?? '', /the stop may have been done: check the service/);
    panel.setFault('restartAppService', { kind: 'huge-body', bytes: 64 * 1024 * 1024 });
    const restarted = await measured('write answered with 64 MB', () =>
      keeping(seen, core.runServiceAction(id, { ...web, action: 'restart' })),
    );
    assert.equal(restarted.outcome, 'unknown');
    assert.match(restarted.message ?? '', /larger than 4\.0 MiB/);
    const writes = panel.requests.filter((request) => /\/api\/(stop|restart)AppService$/.test(request.path));
    assert.equal(writes.length, 2, 'each sent once');
    const entries = writesOnly((await core.listActivity({ panelId: id })).entries);
    assert.deepEqual(
      entries.map((entry) => `${entry.what.action} ${entry.outcome}`),
      ['restart unknown', 'stop unknown'],
    );
    const phases = events.flatMap((event) => (event.type === 'serviceActionChanged' ? [`${event.action} ${event.phase}`] : []));
    assert.deepEqual(phases, ['stop sent', 'stop unknown', 'restart sent', 'restart unknown']);
  });

  test('a log socket that floods: a read takes the backlog and closes; main answers meanwhile', async () => {
    panel.logs.write('shop', 'web', 'before the flood');
    panel.logs.setFault({ kind: 'flood', linesPerFrame: 500 });
    const read = await measured('read of a flooding socket', () => keeping(seen, core.readServiceLogs(id, web)));
    assert.deepEqual(read.lines, ['before the flood']);
    await waitUntil(() => panel.logs.openSockets() === 0);
  });

  test('a log socket that never speaks nor closes: a follow waits without lines, main answers, a stop ends it at the panel', async () => {
    panel.logs.setFault({ kind: 'silent' });
    const follow = await keeping(seen, core.followServiceLogs(id, web));
    await waitUntil(() => panel.logs.openSockets() === 1);
    const answered = await measured('listPanels beside a silent follow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return core.listPanels();
    });
    assert.equal(answered.length, 1);
    assert.deepEqual(
      events.filter((event) => event.type === 'serviceLogLines' || event.type === 'serviceLogEnded'),
      [],
      'no lines, and not ended by itself',
    );
    await core.stopFollowingServiceLogs(follow.followId);
    await waitUntil(() => panel.logs.openSockets() === 0);
    assert.ok(events.some((event) => event.type === 'serviceLogEnded' && event.followId === follow.followId && event.error === null));
  });
});
