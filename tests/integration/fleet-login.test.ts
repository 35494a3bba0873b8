import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createCore, type LogFields, type Core } from '../../electron/core/index.ts';
import type { Envelope } from '../../shared/contract/contract.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import { countOutcomes, type FleetLogInResult } from '../../shared/fleet-login.ts';
import { channelOf } from '../../shared/contract/methods.ts';
import { registeredIpc, type FakeIpc } from '../support/fake-ipc.ts';
import { readAllFiles, testEncryption } from '../support/helpers.ts';
import {
  DEMO_USER,
  startReferencePanel,
  type DemoUser,
  type ReferencePanel,
  type RequestEvent,
} from '../support/reference-panel/server.ts';
import { secretFormsIn } from '../support/secret-forms.ts';
import { selfSignedCertificate } from '../support/tls-certificate.ts';

/**
 * "Log in to N panels" over real HTTP: 200 reference panels, each its own server on loopback,
 * signed in from one call through the registrar (as the window calls it). Half take the shared
 * email and password, some ask for a second factor, one presents a self-signed certificate, the
 * rest refuse the password. The servers report to one observer that counts the log ins in flight.
 */

const SHARED: DemoUser = { ...DEMO_USER, password: 'fleet-shared-password-7f3a' };
const input = { email: SHARED.email, password: SHARED.password, rememberMe: true };
const FLEET = 200;
/** How long each reference panel takes to answer a log in in the first test. */
const LATENCY_MS = 50;
const GROUPS = { signedIn: 100, needsCode: 10, needsCertificate: 1, wrongPassword: 89 } as const;
/** Data folders go to tmpfs when there is one: hundreds of log ins are hundreds of fsyncs. */
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

async function scratchDir(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(SCRATCH, 'paneldeck-fleet-login-'));
  return { path, cleanup: () => rm(path, { recursive: true, force: true, maxRetries: 5 }) };
}

/** Log ins in flight at the servers themselves. */
class LogInLoad {
  inFlight = 0;
  peak = 0;
  arrived = 0;
  readonly observe = (event: RequestEvent): void => {
    if (!event.path.endsWith('/login')) return;
    if (event.phase === 'arrived') {
      this.arrived++;
      this.peak = Math.max(this.peak, ++this.inFlight);
    } else this.inFlight--;
  };
  reset(): void {
    this.peak = this.arrived = 0;
  }
}

const load = new LogInLoad();
const servers: { panel: ReferencePanel; group: keyof typeof GROUPS }[] = [];

before(async () => {
  const tls = await selfSignedCertificate();
  const users: Record<keyof typeof GROUPS, DemoUser> = {
    signedIn: SHARED,
    needsCode: { ...SHARED, id: 'usr_2fa', twoFactorCode: '135790' },
    needsCertificate: SHARED,
    wrongPassword: { ...SHARED, id: 'usr_other', password: 'another-password-of-this-panel' },
  };
  for (const group of Object.keys(GROUPS) as (keyof typeof GROUPS)[]) {
    for (let index = 0; index < GROUPS[group]; index++) {
      const panel = await startReferencePanel({
        users: [users[group]],
        observer: load.observe,
        ...(group === 'needsCertificate' ? { tls } : {}),
      });
      servers.push({ panel, group });
    }
  }
  assert.equal(servers.length, FLEET);
});
after(() => Promise.all(servers.map(({ panel }) => panel.close())));

describe('log in to 200 panels from one call', () => {
  let dir: Awaited<ReturnType<typeof scratchDir>>;
  let core: Core;
  let ipc: FakeIpc;
  let events: PanelEvent[];
  let logged: { event: string; fields: LogFields | undefined }[];
  let ids: string[];

  beforeEach(async () => {
    dir = await scratchDir();
    events = [];
    logged = [];
    core = createCore({ dataDir: dir.path, encryption: testEncryption(), emit: (event) => events.push(event) });
    const log = { info: (event: string, fields?: LogFields) => void logged.push({ event, fields }) };
    ipc = registeredIpc({ core, log: { info: log.info, warn: log.info, error: log.info } });
    ids = [];
    for (const { panel } of servers) ids.push((await core.addPanel({ address: panel.url })).id);
    for (const { panel } of servers) panel.setFault('login', null);
    load.reset();
  });
  afterEach(async () => {
    await core.flush();
    await dir.cleanup();
  });

  async function logInPanels(chosen: readonly string[], given: object = input): Promise<FleetLogInResult[]> {
    const answer = (await ipc.call(channelOf('logInPanels'), chosen, given)) as Envelope<FleetLogInResult[]>;
    assert.ok(answer.ok, `logInPanels failed: ${answer.ok ? '' : answer.error.message}`);
    return answer.value;
  }

  test('every outcome per panel, within the concurrency setting, with rememberMe sent, and the password nowhere', async () => {
    // A panel on the network takes a while to answer: long enough here for log ins to overlap at the servers.
    for (const { panel } of servers) panel.setFault('login', { kind: 'latency', ms: LATENCY_MS });
    const started = performance.now();
    const results = await logInPanels(ids);
    const ms = performance.now() - started;
    assert.deepEqual(
      results.map((result) => result.panelId),
      ids,
    );
    const counts = countOutcomes(results);
    assert.deepEqual({ ...counts }, { ...counts, ...GROUPS, plainHttpRefused: 0, unreachable: 0, rateLimited: 0, cancelled: 0, failed: 0 });
    for (const [index, result] of results.entries()) assert.equal(result.outcome, servers[index]!.group, `panel ${index}`);
    const certificate = results.find((result) => result.outcome === 'needsCertificate');
    assert.ok(certificate && 'error' in certificate && certificate.error.certificate?.sha256, 'the certificate to trust is named');

    // Bounded: the default of 16 at once, and used.
    assert.ok(load.peak <= 16, `peak ${load.peak} log ins at once`);
    assert.ok(load.peak > 1, 'log ins ran side by side');
    assert.equal(load.arrived, FLEET - 1, 'one log in per panel (the certificate refused before any request reached its server)');

    const panels = await core.listPanels();
    assert.equal(panels.filter((panel) => panel.signedIn).length, GROUPS.signedIn);
    const signedInServer = servers.find(({ group }) => group === 'signedIn')!.panel;
    assert.deepEqual(JSON.parse(signedInServer.requests.find((request) => request.path === '/api/login')!.body), {
      email: SHARED.email,
      password: SHARED.password,
      rememberMe: true,
    });

    const progress = events.flatMap((event) => (event.type === 'logInProgress' ? [event] : []));
    assert.deepEqual(progress[0], { type: 'logInProgress', done: 0, total: FLEET });
    assert.deepEqual(progress.at(-1), { type: 'logInProgress', done: FLEET, total: FLEET });
    assert.ok(progress.every((event, index) => index === 0 || event.done >= progress[index - 1]!.done));

    await core.flush();
    const files = await readAllFiles(dir.path);
    const places: Record<string, string> = {
      results: JSON.stringify(results),
      events: JSON.stringify(events),
      log: JSON.stringify(logged),
      ...Object.fromEntries(files.map((file) => [file.path, file.content])),
    };
    const leaks = Object.entries(places).flatMap(([place, text]) =>
      secretFormsIn(text, SHARED.password).map((form) => `${place}: ${form}`),
    );
    assert.deepEqual(leaks, []);
    assert.ok(logged.some((entry) => entry.event === 'ipc.call' && entry.fields?.method === 'logInPanels'));
    console.log(
      `fleet log in: ${FLEET} reference panels (each answering in ${LATENCY_MS} ms) in ${Math.round(ms)} ms, at most ${load.peak} log ins at once`,
    );
  });

  test('Cancel starts no more log ins; those sent finish with their outcome', async () => {
    await core.updateSettings({ checkConcurrency: 4 });
    for (const { panel } of servers) panel.setFault('login', { kind: 'latency', ms: 150 });
    const chosen = ids.slice(0, 40);
    const running = logInPanels(chosen);
    while (load.arrived < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    const ack = (await ipc.call(channelOf('cancelLogIns'))) as Envelope<void>;
    assert.ok(ack.ok);
    const results = await running;
    const cancelled = results.filter((result) => result.outcome === 'cancelled');
    const sent = results.filter((result) => result.outcome !== 'cancelled');
    assert.equal(results.length, chosen.length);
    assert.equal(load.arrived, sent.length, 'a log in request for every panel not cancelled, and none for the cancelled');
    assert.ok(sent.length >= 4 && sent.length <= 8, `${sent.length} log ins went ahead`);
    assert.ok(load.peak <= 4);
    const signedIn = new Set((await core.listPanels()).filter((panel) => panel.signedIn).map((panel) => panel.id));
    assert.ok(cancelled.every((result) => !signedIn.has(result.panelId)));
    const last = events.filter((event) => event.type === 'logInProgress').at(-1);
    assert.deepEqual(last, { type: 'logInProgress', done: chosen.length, total: chosen.length });
  });

  test('one run at a time: a second call while one runs is refused; a new run after it ends is taken', async () => {
    for (const { panel } of servers) panel.setFault('login', { kind: 'latency', ms: 50 });
    const first = logInPanels(ids.slice(0, 3));
    const second = (await ipc.call(channelOf('logInPanels'), ids.slice(3, 5), input)) as Envelope<FleetLogInResult[]>;
    assert.equal(second.ok, false);
    assert.match(second.ok ? '' : second.error.message, /already logging in/);
    await first;
    assert.equal((await logInPanels(ids.slice(3, 5))).length, 2);
  });
});

describe('panels on plain http', () => {
  test('the password goes over plain http only to the panels the form named', async () => {
    const dir = await scratchDir();
    const core = createCore({ dataDir: dir.path, encryption: testEncryption() });
    try {
      const [named, unnamed] = servers.filter(({ group }) => group === 'signedIn').slice(0, 2);
      const namedId = (await core.addPanel({ address: named!.panel.url, allowPlainHttp: true })).id;
      const unnamedId = (await core.addPanel({ address: unnamed!.panel.url, allowPlainHttp: true })).id;
      const before = unnamed!.panel.requests.length;
      const results = await core.logInPanels([namedId, unnamedId], { ...input, sendOverPlainHttp: [namedId] });
      assert.deepEqual(
        results.map((result) => result.outcome),
        ['signedIn', 'plainHttpRefused'],
      );
      assert.equal(unnamed!.panel.requests.length, before, 'nothing was sent to the panel not named');
    } finally {
      await core.flush();
      await dir.cleanup();
    }
  });
});
