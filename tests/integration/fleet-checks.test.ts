import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import { createCore, openJsonFiles, type FetchLike, type OpenStore, type Core } from '../../electron/core/index.ts';
import { diskFiles, type StoreFiles } from '../../electron/core/storage/store-files.ts';
import type { ErrorCode } from '../../shared/contract/errors.ts';
import type { PanelEvent } from '../../shared/contract/events.ts';
import type { Panel, PanelCheck, SessionResult } from '../../shared/types.ts';
import { testEncryption, type TestEncryption } from '../support/helpers.ts';
import {
  DEMO_USER,
  startReferencePanel,
  type ReferencePanel,
  type ReferencePanelOptions,
  type RequestEvent,
} from '../support/reference-panel/server.ts';

/**
 * Checks of many panels at once (checkPanels, cancelChecks, getCachedSession, the events, and the
 * split between panels.json and the coalesced checks.json), over real HTTP on loopback against
 * reference panels, with real files. Each panel has a reference panel of its own, so a panel's
 * requests are its server's requests; the servers report to one shared observer, which counts
 * the session reads in flight at the servers themselves.
 *
 * No assertion is about wall-clock time (waits have deadlines only as guards against a hang).
 * Where a test needs a pass to be under way, a gate in the core's `fetch` holds the reads (or a
 * server holds them with a latency fault) until the test has done what it needs; races are
 * explored by fast-check's scheduler at the end of the file.
 */

const credentials = { email: DEMO_USER.email, password: DEMO_USER.password };
const SESSION_PATH = '/api/getSession';
/** Data folders go to tmpfs when there is one: hundreds of log ins are hundreds of fsyncs. */
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
/** Panels signed in in the big fleet: over 200, so that progress must be throttled to pass. */
const FLEET = 208;
/** Panels of the big fleet that are never signed in. */
const FLEET_SIGNED_OUT = 4;

/**
 * A promise that notes whether its holder ever looked at it: `await`, `then`, `catch` and
 * `finally` all call `then` on a subclass. A fetch the core starts and never looks at is a
 * rejection nobody handles, which under Node ends the process (and in Electron's main process
 * shows a crash dialog).
 */
class WatchedPromise<T> extends Promise<T> {
  looked = false;

  // What `then` derives is a plain promise: only the one handed to the core is watched.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  static watch<T>(inner: Promise<T>): WatchedPromise<T> {
    const watched = new WatchedPromise<T>((resolve, reject) => {
      inner.then(resolve, reject);
    });
    // Through the base `then`, so it does not count as looking: the test reports what the
    // core ignored instead of ending on an unhandled rejection itself.
    Promise.prototype.then.call(watched, undefined, () => undefined);
    return watched;
  }

  // biome-ignore lint/suspicious/noThenProperty: the point: a promise that notes when it is awaited
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.looked = true;
    return super.then(onFulfilled, onRejected);
  }
}

/** A fetch the core made, and whether its signal was already aborted when it was made. */
interface FetchMade {
  promise: WatchedPromise<Response>;
  what: string;
  abortedAtCall: boolean;
}

function describeIgnored(fetches: readonly FetchMade[]): string[] {
  return fetches
    .filter((made) => !made.promise.looked)
    .map((made) => `${made.what}${made.abortedAtCall ? ' (its signal was aborted when fetch was called)' : ''}`);
}

/** Session reads in flight at the servers, from the servers' own reports. */
class ServerLoad {
  inFlight = 0;
  peak = 0;
  arrived = 0;
  /** Reads whose client closed the connection before the answer: cancelled requests. */
  hungUp = 0;

  readonly observe = (event: RequestEvent): void => {
    if (event.path !== SESSION_PATH) return;
    if (event.phase === 'arrived') {
      this.arrived++;
      this.inFlight++;
      this.peak = Math.max(this.peak, this.inFlight);
      return;
    }
    this.inFlight--;
    if (event.phase === 'hung-up') this.hungUp++;
  };

  reset(): void {
    this.peak = this.inFlight;
    this.arrived = 0;
    this.hungUp = 0;
  }
}

/**
 * The core's `fetch`: the global fetch, counting the session reads the core has sent and not
 * had an answer to. A closed gate holds them before they leave, so a pass stays under way, with a
 * known number of reads started, for as long as a test needs.
 */
class ClientLoad {
  inFlight = 0;
  peak = 0;
  #gate: Promise<void> | null = null;
  #open: (() => void) | null = null;

  closeGate(): void {
    this.#gate = new Promise((resolve) => (this.#open = resolve));
  }

  openGate(): void {
    this.#open?.();
    this.#gate = null;
    this.#open = null;
  }

  reset(): void {
    this.peak = this.inFlight;
  }

  readonly #made: FetchMade[] = [];

  /** Fetches whose outcome the core never looked at. */
  ignored(): string[] {
    return describeIgnored(this.#made);
  }

  readonly fetch: FetchLike = (url, init) => {
    const made: FetchMade = {
      promise: WatchedPromise.watch(this.#send(url, init)),
      what: `${init.method ?? 'GET'} ${url}`,
      abortedAtCall: init.signal?.aborted === true,
    };
    this.#made.push(made);
    return made.promise;
  };

  async #send(url: string, init: RequestInit): Promise<Response> {
    if (new URL(url).pathname !== SESSION_PATH) return fetch(url, init);
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      if (this.#gate) await this.#gate;
      return await fetch(url, init);
    } finally {
      this.inFlight--;
    }
  }
}

interface Fleet {
  core: Core;
  /** Panel ids, in the order of `servers`. */
  ids: string[];
  signedIn: string[];
  signedOut: string[];
  servers: ReferencePanel[];
  events: PanelEvent[];
  server: ServerLoad;
  client: ClientLoad;
  dir: string;
  encryption: TestEncryption;
  serverOf(id: string): ReferencePanel;
  /** Session reads that reached this panel's server since the last `resetCounts`. */
  readsOf(id: string): number;
  resetCounts(): void;
  setLatency(ms: number): void;
  /** A new run of Paneldeck on the same folder and keyring. */
  restart(): Core;
  close(): Promise<void>;
}

/** `signedIn` panels logged in and `signedOut` never logged in, each on a reference panel of its own. */
async function startFleet(signedIn: number, options: { signedOut?: number; server?: ReferencePanelOptions } = {}): Promise<Fleet> {
  const count = signedIn + (options.signedOut ?? 0);
  const server = new ServerLoad();
  const client = new ClientLoad();
  const servers = await Promise.all(
    Array.from({ length: count }, () => startReferencePanel({ ...options.server, observer: server.observe })),
  );
  const dir = await mkdtemp(join(SCRATCH, 'paneldeck-fleet-'));
  const encryption = testEncryption();
  const events: PanelEvent[] = [];
  const core = createCore({
    dataDir: dir,
    encryption,
    fetch: client.fetch,
    timeoutMs: 10_000,
    emit: (event) => events.push(event),
  });
  /** Every core on the folder: flushed before it is deleted, or a pending history write would create it again. */
  const cores = [core];
  const ids: string[] = [];
  for (const [index, panel] of servers.entries()) ids.push((await core.addPanel({ address: panel.url, name: `Panel ${index}` })).id);
  const signedInIds = ids.slice(0, signedIn);
  await Promise.all(signedInIds.map((id) => core.logIn(id, credentials)));
  const serverById = new Map(ids.map((id, index) => [id, servers[index]!]));
  const serverOf = (id: string) => {
    const found = serverById.get(id);
    assert.ok(found, `no server for panel ${id}`);
    return found;
  };
  return {
    core,
    ids,
    signedIn: signedInIds,
    signedOut: ids.slice(signedIn),
    servers,
    events,
    server,
    client,
    dir,
    encryption,
    serverOf,
    readsOf: (id) => serverOf(id).requests.filter((request) => request.path === SESSION_PATH).length,
    resetCounts: () => {
      for (const panel of servers) panel.requests.length = 0;
      server.reset();
      client.reset();
    },
    setLatency: (ms) => {
      for (const panel of servers) panel.setFault('getSession', ms > 0 ? { kind: 'latency', ms } : null);
    },
    restart: () => {
      const again = createCore({ dataDir: dir, encryption, timeoutMs: 10_000 });
      cores.push(again);
      return again;
    },
    close: async () => {
      client.openGate();
      await Promise.all(servers.map((panel) => panel.close()));
      await Promise.all(cores.map((running) => running.flush()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until `condition` holds. The deadline is a guard against a hang, not a timing claim: what
 * is awaited happens within milliseconds, or never.
 */
async function until(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `${what}: still not so after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** `promise`, or a failure saying it never settled (a hang guard, as in `until`). */
async function settles<T>(promise: Promise<T>, what: string, limitMs = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new assert.AssertionError({ message: `${what} never resolved (waited ${limitMs} ms)` })), limitMs);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

function outcomeOf(check: PanelCheck): 'ok' | ErrorCode {
  return check.ok ? 'ok' : check.error.code;
}

function byId(panels: readonly Panel[]): Map<string, Panel> {
  return new Map(panels.map((panel) => [panel.id, panel]));
}

function listed(panels: readonly Panel[], id: string): Panel {
  const panel = panels.find((candidate) => candidate.id === id);
  assert.ok(panel, `panel ${id} is not in the list`);
  return panel;
}

function progressOf(events: readonly PanelEvent[]): { done: number; total: number }[] {
  return events.flatMap((event) => (event.type === 'checkProgress' ? [{ done: event.done, total: event.total }] : []));
}

/** The last version of each panel that `panelsChanged` events carried. */
function lastChanged(events: readonly PanelEvent[]): Map<string, Panel> {
  const panels = new Map<string, Panel>();
  for (const event of events) if (event.type === 'panelsChanged') for (const panel of event.panels) panels.set(panel.id, panel);
  return panels;
}

/** The session's own end, as the reference panel writes it. */
function expiresAtOf(result: SessionResult): string {
  const expiresAt = (result.session as { expiresAt?: unknown }).expiresAt;
  assert.equal(typeof expiresAt, 'string', 'the reference panel sent no expiresAt');
  return expiresAt as string;
}

describe(`checking a fleet of ${FLEET} signed-in panels over HTTP`, () => {
  let fleet: Fleet;
  before(async () => {
    fleet = await startFleet(FLEET, { signedOut: FLEET_SIGNED_OUT });
  });
  after(() => fleet?.close());
  // Events of one test (batched for 50 ms) must not land in the next one's list.
  beforeEach(async () => {
    fleet.setLatency(0);
    await fleet.core.flush();
    fleet.events.length = 0;
    fleet.resetCounts();
  });

  for (const limit of [4, 16]) {
    test(`checkConcurrency ${limit}: the servers never see more than ${limit} session reads at once, and each signed-in panel is read exactly once`, async () => {
      const { core } = fleet;
      await core.updateSettings({ checkConcurrency: limit });
      fleet.setLatency(30);
      fleet.resetCounts();
      const results = await core.checkPanels();

      const checked = results.map((result) => result.panelId);
      assert.equal(new Set(checked).size, checked.length, 'a panel has two results');
      assert.deepEqual([...checked].sort(), [...fleet.signedIn].sort(), 'checkPanels() is every signed-in panel, and only those');
      for (const result of results) assert.equal(outcomeOf(result), 'ok', `panel ${result.panelId}: ${JSON.stringify(result)}`);
      for (const id of fleet.signedIn) assert.equal(fleet.readsOf(id), 1, `panel ${id} was read ${fleet.readsOf(id)} times in one pass`);
      for (const id of fleet.signedOut) assert.equal(fleet.readsOf(id), 0, 'a signed-out panel was sent a request');
      assert.ok(fleet.server.peak <= limit, `the servers had ${fleet.server.peak} session reads in flight at once (limit ${limit})`);
      // The bound was reached, so the line above tested it (counted where the reads start, which is deterministic).
      assert.equal(fleet.client.peak, limit, `the core never had ${limit} reads under way`);
      console.log(`fleet: concurrency ${limit}: ${results.length} panels, at most ${fleet.server.peak} reads in flight at the servers`);
    });
  }

  test('signed-out panels answer NOT_SIGNED_IN without a request; an unknown id answers NOT_FOUND in its result', async () => {
    const unknown = randomUUID();
    const asked = [fleet.signedOut[0]!, unknown, fleet.signedIn[0]!, fleet.signedOut[1]!];
    const results = await fleet.core.checkPanels(asked);
    assert.deepEqual(
      results.map((result) => result.panelId),
      asked,
      'one result per id, in the order asked',
    );
    assert.deepEqual(results.map(outcomeOf), ['NOT_SIGNED_IN', 'NOT_FOUND', 'ok', 'NOT_SIGNED_IN']);
    for (const id of fleet.signedOut) assert.equal(fleet.readsOf(id), 0, 'a signed-out panel was sent a request');
    assert.equal(fleet.readsOf(fleet.signedIn[0]!), 1);
    assert.equal(fleet.server.arrived, 1, 'requests went out for panels that were not to be read');
    const panels = await fleet.core.listPanels();
    for (const id of fleet.signedOut) assert.equal(listed(panels, id).lastCheck, null, 'a check without a request was recorded');
  });

  test('a call while a pass runs joins it: no second request for a panel, each call its own results, extra ids added to the pass', async () => {
    const { core, client } = fleet;
    await core.updateSettings({ checkConcurrency: 4 });
    client.closeGate();
    const firstIds = fleet.signedIn.slice(0, 10);
    const overlapping = fleet.signedIn.slice(5, 20);
    const first = core.checkPanels(firstIds);
    await until(() => client.inFlight === 4, 'the first pass never had its 4 reads under way');
    // Three callers while four reads are held: the same panels, some more, and "every signed-in one".
    const second = core.checkPanels(overlapping);
    const same = core.checkPanels(firstIds);
    const everyone = core.checkPanels();
    // One turn of the event loop: the three calls are past their `await` and have joined.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(client.inFlight, 4, 'the calls that joined started reads beyond the limit');
    assert.equal(fleet.server.arrived, 0, 'a read left while the gate was closed');
    client.openGate();
    const [firstResults, secondResults, sameResults, everyoneResults] = await Promise.all([first, second, same, everyone]);

    assert.deepEqual(
      firstResults.map((result) => result.panelId),
      firstIds,
    );
    assert.deepEqual(
      secondResults.map((result) => result.panelId),
      overlapping,
    );
    assert.deepEqual(sameResults, firstResults, 'the same panels asked twice got other answers');
    const results = new Map(everyoneResults.map((result) => [result.panelId, result]));
    assert.deepEqual([...results.keys()].sort(), [...fleet.signedIn].sort());
    for (const result of [...firstResults, ...secondResults]) {
      assert.equal(outcomeOf(result), 'ok', JSON.stringify(result));
      assert.deepEqual(results.get(result.panelId), result, 'two callers got different results for one read');
    }
    for (const id of fleet.signedIn) assert.equal(fleet.readsOf(id), 1, `panel ${id} was read ${fleet.readsOf(id)} times`);
    assert.ok(
      fleet.server.peak <= 4 && client.peak === 4,
      `${fleet.server.peak} reads in flight at the servers, ${client.peak} under way, with a limit of 4`,
    );

    await core.flush();
    const progress = progressOf(fleet.events);
    // One pass: its total grows as callers join, it never starts again from zero.
    assert.deepEqual(progress.at(-1), { done: fleet.signedIn.length, total: fleet.signedIn.length });
    for (let index = 1; index < progress.length; index++) {
      assert.ok(
        progress[index]!.done >= progress[index - 1]!.done && progress[index]!.total >= progress[index - 1]!.total,
        `progress went back: ${JSON.stringify(progress.slice(index - 1, index + 1))}`,
      );
    }
  });

  test(`a pass of ${FLEET} panels: checkProgress from {0, total} to {total, total}, throttled; panelsChanged carries each checked panel whole`, async () => {
    const { core } = fleet;
    await core.updateSettings({ checkConcurrency: 16 });
    fleet.setLatency(30);
    const results = await core.checkPanels();
    await core.flush();

    const progress = progressOf(fleet.events);
    const total = fleet.signedIn.length;
    assert.deepEqual(progress[0], { done: 0, total });
    assert.deepEqual(progress.at(-1), { done: total, total });
    for (const [index, step] of progress.entries()) {
      assert.equal(step.total, total, 'the total changed during a pass nobody joined');
      if (index > 0) assert.ok(step.done >= progress[index - 1]!.done, `progress went back: ${JSON.stringify(progress)}`);
    }
    assert.ok(progress.length < total, `${progress.length} progress events for ${total} panels: one per panel`);

    const panels = byId(await core.listPanels());
    const changed = lastChanged(fleet.events);
    for (const result of results) {
      const sent = changed.get(result.panelId);
      assert.ok(sent, `panel ${result.panelId} was checked but no panelsChanged carried it`);
      // Whole: exactly what listPanels gives, with the check in it.
      assert.deepEqual(sent, panels.get(result.panelId));
      assert.deepEqual(sent.lastCheck, { at: result.checkedAt, ok: true });
      assert.ok(sent.sessionExpiresAt !== null, 'the checked panel carries no session end');
    }
    for (const id of fleet.signedOut) assert.ok(!changed.has(id), 'a panel that was not checked was sent as changed');
    const changedEvents = fleet.events.filter((event) => event.type === 'panelsChanged').length;
    console.log(`fleet: a pass of ${total} panels sent ${progress.length} progress events and ${changedEvents} panelsChanged events`);
  });

  test('getCachedSession gives the session last read, redacted as read; a panel carries the session end from it', async () => {
    const { core } = fleet;
    const id = fleet.signedIn[1]!;
    const read = await core.getSession(id);
    assert.deepEqual(await core.getCachedSession(id), read);
    assert.equal(listed(await core.listPanels(), id).sessionExpiresAt, expiresAtOf(read));
    // A check reads too, and replaces what is cached.
    const [check] = await core.checkPanels([id]);
    assert.equal((await core.getCachedSession(id))?.checkedAt, check?.checkedAt);
    assert.equal(await core.getCachedSession(fleet.signedOut[0]!), null);
  });
});

describe('checks of a few panels: sign-outs, cancels, the cache and what is written where', () => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });
  const start = async (signedIn: number, options?: Parameters<typeof startFleet>[1]) => (fleet = await startFleet(signedIn, options));

  test('a 401 during a pass signs that panel out, for good (also after a restart); the others are fine', async () => {
    const { core, ids, serverOf, restart } = await start(4);
    await core.updateSettings({ checkConcurrency: 2 });
    await core.checkPanels();
    const rejected = ids[1]!;
    serverOf(rejected).expireAllTokens();
    const results = await core.checkPanels();
    assert.deepEqual(
      results.map((result) => [result.panelId, outcomeOf(result)]),
      ids.map((id) => [id, id === rejected ? 'UNAUTHORIZED' : 'ok']),
    );

    const check = async (running: Core, what: string) => {
      const panels = await running.listPanels();
      for (const id of ids) {
        const panel = listed(panels, id);
        assert.equal(panel.signedIn, id !== rejected, `panel ${id} ${what}`);
        if (id === rejected) {
          assert.equal(panel.signedOutReason?.code, 'UNAUTHORIZED', what);
          assert.equal(panel.tokenStorage, null, what);
          assert.equal(panel.sessionExpiresAt, null, `a signed-out panel shows a session end ${what}`);
        }
      }
    };
    await check(core, 'in this run');
    assert.equal(await core.getCachedSession(rejected), null, 'the session of a rejected sign-in is still cached');
    assert.notEqual(await core.getCachedSession(ids[0]!), null);
    // Not flushed: the sign-out is written before the pass answers, unlike the check history.
    await check(restart(), 'after a restart');
  });

  test('a log in in flight when a check gets a 401 for the old token is kept (the 401 ends the old sign-in, not the new one)', async () => {
    const { core, ids, serverOf } = await start(1);
    const [id] = ids as [string];
    const panel = serverOf(id);
    panel.expireAllTokens();
    panel.setFault('login', { kind: 'latency', ms: 200 });
    const loggingIn = core.logIn(id, credentials).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: String(error) }),
    );
    // The first log in was the fleet's; the second is held by the panel.
    await until(
      () => panel.requests.filter((request) => request.path === '/api/login').length === 2,
      'the second log in never reached the panel',
    );
    const [check] = await core.checkPanels([id]);
    assert.equal(check && outcomeOf(check), 'UNAUTHORIZED');
    const logIn = await loggingIn;
    assert.ok(logIn.ok, `the operator's log in, accepted by the panel, was dropped: ${logIn.ok ? '' : logIn.error}`);
    assert.equal(listed(await core.listPanels(), id).signedIn, true);
  });

  test('getCachedSession: null before a read, the read after it, null once the sign-in ends (log out, new log in, 401)', async () => {
    const { core, ids, serverOf } = await start(1);
    const [id] = ids as [string];
    assert.equal(await core.getCachedSession(id), null);
    const read = await core.getSession(id);
    assert.deepEqual(await core.getCachedSession(id), read);

    await core.logOut(id);
    assert.equal(await core.getCachedSession(id), null, 'cached after log out');
    await core.logIn(id, credentials);
    assert.equal(await core.getCachedSession(id), null, "the old sign-in's session shown for the new one");

    const [check] = await core.checkPanels([id]);
    assert.equal((await core.getCachedSession(id))?.checkedAt, check?.checkedAt);
    serverOf(id).expireAllTokens();
    const [rejected] = await core.checkPanels([id]);
    assert.equal(rejected && outcomeOf(rejected), 'UNAUTHORIZED');
    assert.equal(await core.getCachedSession(id), null, 'cached after a 401');
  });

  test("sessionExpiresAt comes from the session's expiresAt after a read, and is cleared by a log out", async () => {
    const { core, ids } = await start(1);
    const [id] = ids as [string];
    assert.equal(listed(await core.listPanels(), id).sessionExpiresAt, null, 'a session end before any read');
    const [check] = await core.checkPanels([id]);
    assert.equal(check && outcomeOf(check), 'ok');
    const read = await core.getCachedSession(id);
    assert.ok(read);
    assert.equal(listed(await core.listPanels(), id).sessionExpiresAt, expiresAtOf(read));
    const out = await core.logOut(id);
    assert.equal(out.sessionExpiresAt, null);
    assert.equal(listed(await core.listPanels(), id).sessionExpiresAt, null);
    await core.logIn(id, credentials);
    assert.equal(listed(await core.listPanels(), id).sessionExpiresAt, null, 'the old session end came back with a new log in');
  });

  test("sessionExpiresAt comes from the token's JWT exp when the session has no end of its own", async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const jwt = () => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'usr_1001', exp, nonce: randomUUID() })}.c2lnbmF0dXJl`;
    };
    const { core, ids, serverOf } = await start(1, { server: { issueToken: jwt } });
    const [id] = ids as [string];
    serverOf(id).setSessionBody({ user: { id: 'usr_1001', email: DEMO_USER.email } });
    await core.checkPanels([id]);
    assert.equal(listed(await core.listPanels(), id).sessionExpiresAt, new Date(exp * 1000).toISOString());
  });

  test('cancelChecks mid-pass: reads in flight are aborted (the servers see the connection closed), the rest answer CANCELLED without a request, no lastCheck changes; a new pass works', async () => {
    const { core, ids, server, readsOf, resetCounts, setLatency } = await start(12);
    await core.updateSettings({ checkConcurrency: 4 });
    await core.checkPanels();
    const before = await core.listPanels();
    assert.ok(before.every((panel) => panel.lastCheck?.ok === true));

    // The servers hold each read until its client hangs up.
    setLatency(60_000);
    resetCounts();
    const passIds = ids.slice(0, 8);
    const pass = core.checkPanels(passIds);
    await until(() => server.arrived === 4, 'four reads never reached the servers');
    await core.cancelChecks();
    const results = await pass;
    assert.deepEqual(
      results.map((result) => result.panelId),
      passIds,
    );
    assert.deepEqual(
      results.map(outcomeOf),
      passIds.map(() => 'CANCELLED'),
    );
    await until(() => server.hungUp === 4, `the servers saw ${server.hungUp} of the 4 cancelled reads closed`);
    assert.equal(server.arrived, 4, 'panels that had not started were sent a request after the cancel');
    for (const id of passIds.slice(4)) assert.equal(readsOf(id), 0);
    assert.deepEqual(await core.listPanels(), before, 'a cancelled read changed a panel');

    setLatency(0);
    resetCounts();
    const again = await settles(core.checkPanels(), 'the pass after the cancelled one');
    assert.deepEqual(
      again.map(outcomeOf),
      ids.map(() => 'ok'),
    );
    for (const id of ids) assert.equal(readsOf(id), 1);
    const after = byId(await core.listPanels());
    for (const result of again) assert.deepEqual(after.get(result.panelId)?.lastCheck, { at: result.checkedAt, ok: true });
  });

  test('cancelChecks also aborts a getSession in flight, and records nothing for it', async () => {
    const { core, ids, server, setLatency } = await start(1);
    const [id] = ids as [string];
    setLatency(60_000);
    const reading = core.getSession(id).then(
      () => 'ok',
      (error: { code?: string }) => error.code,
    );
    await until(() => server.arrived === 1, 'the read never reached the server');
    await core.cancelChecks();
    assert.equal(await reading, 'CANCELLED');
    await until(() => server.hungUp === 1, 'the server never saw the read closed');
    assert.equal(listed(await core.listPanels(), id).lastCheck, null);
    assert.equal(await core.getCachedSession(id), null);
  });

  test("cancelSessionRead aborts that panel's getSession only: a pass under way and another panel's read go on", async () => {
    const { core, ids, server, setLatency } = await start(3);
    const [shown, other, checked] = ids as [string, string, string];
    setLatency(300);
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
    const pass = core.checkPanels([checked]);
    const reading = outcome(core.getSession(shown));
    const otherReading = outcome(core.getSession(other));
    await until(() => server.arrived === 3, 'the reads never reached the servers');
    await core.cancelSessionRead(shown);
    assert.equal(await reading, 'CANCELLED');
    assert.equal(await otherReading, 'ok');
    assert.deepEqual((await pass).map(outcomeOf), ['ok']);
    const panels = await core.listPanels();
    assert.equal(listed(panels, shown).lastCheck, null, 'the cancelled read was recorded');
    assert.equal(listed(panels, checked).lastCheck?.ok, true);
  });

  test('a cancelled read whose sign-in was renewed meanwhile leaves no fetch unhandled and records nothing', async () => {
    const { core, ids, client } = await start(1);
    const [id] = ids as [string];
    client.closeGate();
    const pass = core.checkPanels([id]);
    await until(() => client.inFlight === 1, 'the read never started');
    // The log out stops the held read at once (its token must not reach the panel afterwards): the
    // check says the sign-in ended; the new sign-in and the cancel after it find nothing to stop.
    await core.logOut(id);
    await core.logIn(id, credentials);
    await core.cancelChecks();
    const [result] = await pass;
    assert.equal(result && outcomeOf(result), 'NOT_SIGNED_IN');
    client.openGate();
    await until(() => client.inFlight === 0, 'the held reads never ended');
    assert.deepEqual(
      client.ignored(),
      [],
      'the service called fetch and never looked at the outcome: with a real fetch its rejection is unhandled, which under Node ends the process',
    );
    const panel = listed(await core.listPanels(), id);
    assert.equal(panel.lastCheck, null, 'the cancelled read was recorded');
    assert.equal(panel.signedIn, true);
  });

  // "Check all" right after "Cancel": the cancelled pass is still winding down (its aborted reads
  // settle a few microtasks later) when the new call arrives.
  test('a pass asked right after cancelChecks reads the panels again: none of its answers is CANCELLED', async () => {
    const { core, ids, server, readsOf, resetCounts, setLatency } = await start(6);
    await core.updateSettings({ checkConcurrency: 2 });
    setLatency(60_000);
    const cancelled = core.checkPanels(ids);
    await until(() => server.arrived === 2, 'two reads never reached the servers');
    setLatency(0);
    await core.cancelChecks();
    resetCounts();
    const again = await settles(core.checkPanels(ids), 'the pass asked after the cancel');
    await cancelled;
    assert.deepEqual(
      again.map((result) => [result.panelId, outcomeOf(result)]),
      ids.map((id) => [id, 'ok']),
      'a pass asked after the cancel was answered by the cancelled pass',
    );
    for (const id of ids) assert.equal(readsOf(id), 1, `panel ${id} was not read by the new pass`);
  });

  test('a pass asked right after cancelChecks for panels the cancelled pass did not have resolves', async () => {
    const { core, ids, server, setLatency } = await start(6);
    await core.updateSettings({ checkConcurrency: 2 });
    setLatency(60_000);
    const cancelled = core.checkPanels(ids.slice(0, 3));
    await until(() => server.arrived === 2, 'two reads never reached the servers');
    setLatency(0);
    await core.cancelChecks();
    const others = await settles(core.checkPanels(ids.slice(3)), 'a check of other panels asked right after cancelChecks');
    await cancelled;
    assert.deepEqual(others.map(outcomeOf), ['ok', 'ok', 'ok']);
  });

  test('a pass leaves panels.json byte for byte as it was; checks.json holds the results after flush(), and a new run shows them', async () => {
    const { core, ids, dir, restart } = await start(3);
    const panelsFile = join(dir, 'panels.json');
    const panelsBefore = await readFile(panelsFile);
    const results = await core.checkPanels();
    assert.deepEqual(results.map(outcomeOf), ['ok', 'ok', 'ok']);
    assert.ok((await readFile(panelsFile)).equals(panelsBefore), 'a check pass rewrote panels.json');

    await core.flush();
    const history = JSON.parse(await readFile(join(dir, 'checks.json'), 'utf8')) as {
      version: number;
      panels: Record<string, { lastCheck: unknown; sessionExpiresAt: unknown }>;
    };
    const panels = byId(await core.listPanels());
    assert.equal(history.version, 1);
    for (const result of results) {
      assert.deepEqual(history.panels[result.panelId]?.lastCheck, { at: result.checkedAt, ok: true });
      assert.equal(history.panels[result.panelId]?.sessionExpiresAt, panels.get(result.panelId)?.sessionExpiresAt);
    }
    assert.ok((await readFile(panelsFile)).equals(panelsBefore), 'flushing the check history rewrote panels.json');

    const again = byId(await restart().listPanels());
    for (const id of ids) {
      assert.deepEqual(again.get(id)?.lastCheck, panels.get(id)?.lastCheck, 'the check history was not there after a restart');
      assert.equal(again.get(id)?.sessionExpiresAt, panels.get(id)?.sessionExpiresAt);
      assert.equal(again.get(id)?.signedIn, true);
    }
  });

  test('panel edits, log ins and log outs are written before they answer: a new run sees them without a flush', async () => {
    const { core, ids, restart } = await start(2, { signedOut: 1 });
    const [renamed, loggedOut, loggedIn] = ids as [string, string, string];
    await core.updatePanel(renamed, { name: 'Edited before the crash' });
    await core.logOut(loggedOut);
    await core.logIn(loggedIn, credentials);
    const panels = byId(await restart().listPanels());
    assert.equal(panels.get(renamed)?.name, 'Edited before the crash');
    assert.equal(panels.get(loggedOut)?.signedIn, false);
    assert.equal(panels.get(loggedIn)?.signedIn, true);
  });

  test('add, log in, edit, log out emit panelsChanged with the panel whole; removePanel emits panelsRemoved', async () => {
    const { core, events, servers } = await start(0);
    const extra = await startReferencePanel();
    servers.push(extra);
    const flushed = async () => {
      await core.flush();
      const sent = [...events];
      events.length = 0;
      return sent;
    };
    const lastOf = async (id: string) => {
      const sent = lastChanged(await flushed()).get(id);
      assert.ok(sent, 'no panelsChanged for the change');
      assert.deepEqual(sent, listed(await core.listPanels(), id), 'the event does not carry the panel as listPanels gives it');
      return sent;
    };
    await flushed();
    const { id } = await core.addPanel({ address: extra.url, name: 'Events' });
    assert.equal((await lastOf(id)).name, 'Events');
    assert.equal((await core.logIn(id, credentials)).signedIn, true);
    assert.equal((await lastOf(id)).signedIn, true);
    await core.updatePanel(id, { name: 'Renamed' });
    assert.equal((await lastOf(id)).name, 'Renamed');
    await core.logOut(id);
    assert.equal((await lastOf(id)).signedIn, false);
    await core.removePanel(id);
    const sent = await flushed();
    assert.deepEqual(
      sent.filter((event) => event.type === 'panelsRemoved'),
      [{ type: 'panelsRemoved', panelIds: [id] }],
    );
    assert.ok(!lastChanged(sent).has(id), 'a removed panel was sent as changed');
  });
});

// ---------------------------------------------------------------------------------------------
// Races, explored by fast-check's scheduler against the real core and real reference panels.

/** A broken rule; its message carries what the run did. */
class Violation extends Error {
  override readonly name = 'Violation';
}

type Op =
  | { kind: 'check'; panels: number[] | null }
  | { kind: 'cancel' }
  | { kind: 'logOut'; panel: number }
  | { kind: 'remove'; panel: number }
  | { kind: 'logIn'; panel: number }
  /** To a panel of its own that no other panel or move uses: every move is a real change of address. */
  | { kind: 'readdress'; panel: number }
  /** Every server revokes every token issued so far: reads with them get a 401. */
  | { kind: 'expire' };

const RACE_PANELS = 3;
const MAX_OPS = 8;
/** In a check's list, the index that stands for an id no panel has. */
const UNKNOWN = RACE_PANELS;
const RACE_RUNS = 300;

const panelIndex = fc.integer({ min: 0, max: RACE_PANELS - 1 });
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .option(fc.uniqueArray(fc.integer({ min: 0, max: UNKNOWN }), { minLength: 1, maxLength: RACE_PANELS + 1 }), { nil: null })
      .map((panels): Op => ({ kind: 'check', panels })),
  },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'cancel' }) },
  { weight: 2, arbitrary: panelIndex.map((panel): Op => ({ kind: 'logOut', panel })) },
  { weight: 1, arbitrary: panelIndex.map((panel): Op => ({ kind: 'remove', panel })) },
  { weight: 2, arbitrary: panelIndex.map((panel): Op => ({ kind: 'logIn', panel })) },
  { weight: 1, arbitrary: panelIndex.map((panel): Op => ({ kind: 'readdress', panel })) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'expire' }) },
);

/** An op, started by the scheduler or right after the step before it answers. */
interface Step {
  op: Op;
  afterPrevious: boolean;
}

const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  op: opArbitrary,
  afterPrevious: fc.integer({ min: 0, max: 2 }).map((roll) => roll === 0),
});

// biome-ignore lint/suspicious/noConfusingVoidType: what the core's methods resolve to, Promise<void> among them
type CallResult = PanelCheck[] | Panel | void;

interface Call {
  op: Op;
  label: string;
  /** Order in which the calls were made; the core runs their bodies in this order too. */
  seq: number;
  outcome?: { ok: true; value: CallResult } | { ok: false; code: string };
}

interface RaceStats {
  runs: number;
  releases: number;
  reads: number;
  cancelled: number;
  unauthorized: number;
}

/** Outcomes a check never writes to the history: no answer from the panel came with them. */
const NEVER_RECORDED: ReadonlySet<string> = new Set(['CANCELLED', 'NOT_SIGNED_IN', 'NOT_FOUND']);
const CHECK_OUTCOMES: ReadonlySet<string> = new Set(['ok', 'CANCELLED', 'NOT_SIGNED_IN', 'NOT_FOUND', 'UNAUTHORIZED']);

/** One interleaving: a core on a fresh folder, its panels signed in, then the ops, released by the scheduler. */
class RaceRun {
  readonly #s: fc.Scheduler;
  readonly #servers: readonly ReferencePanel[];
  readonly #stats: RaceStats;
  readonly #concurrency: number;
  readonly #encryption = testEncryption();
  readonly #unknownId = randomUUID();
  /** Real requests under way (never rejecting), which the scheduler will be handed when they end, and saves under way. */
  readonly #real = new Set<Promise<void>>();
  readonly calls: Call[] = [];
  readonly #made: FetchMade[] = [];
  readonly #cores: Core[] = [];
  #dir = '';
  #core: Core | null = null;
  #ids: string[] = [];
  #scheduling = false;
  #seq = 0;
  #inFlight = 0;
  #peak = 0;
  #tick = 0;
  readonly #base = Date.now();

  constructor(s: fc.Scheduler, servers: readonly ReferencePanel[], concurrency: number, stats: RaceStats) {
    this.#s = s;
    this.#servers = servers;
    this.#concurrency = concurrency;
    this.#stats = stats;
  }

  get core(): Core {
    assert.ok(this.#core, 'the run was not set up');
    return this.#core;
  }

  /** Each panel on its own server, signed in; requests go straight out until the ops start. */
  async setUp(): Promise<void> {
    this.#dir = await mkdtemp(join(SCRATCH, 'paneldeck-race-'));
    for (const server of this.#servers) server.requests.length = 0;
    this.#core = this.#create(this.#fetch);
    for (let index = 0; index < RACE_PANELS; index++) {
      const { id } = await this.core.addPanel({ address: this.#servers[index]!.url });
      await this.core.logIn(id, credentials);
      this.#ids.push(id);
    }
    await this.core.updateSettings({ checkConcurrency: this.#concurrency });
    this.#scheduling = true;
  }

  async cleanup(): Promise<void> {
    // A pending history write would create the folder again after it is deleted.
    await Promise.all(this.#cores.map((core) => core.flush()));
    await rm(this.#dir, { recursive: true, force: true });
  }

  // Every instant is a different millisecond, so a recorded check names the read it came from.
  #create(fetchImpl: FetchLike): Core {
    const core = createCore({
      dataDir: this.#dir,
      encryption: this.#encryption,
      fetch: fetchImpl,
      openStore: this.#openStore,
      activity: { files: this.#activityFiles },
      timeoutMs: 10_000,
      now: () => new Date(this.#base + this.#tick++),
    });
    this.#cores.push(core);
    return core;
  }

  /** Real work under way (a save, a file operation) until it ends, like a request on the wire. */
  readonly #track = <T>(work: Promise<T>): Promise<T> => {
    const ended = work.then(
      () => undefined,
      () => undefined,
    );
    this.#real.add(ended);
    void ended.then(() => this.#real.delete(ended));
    return work;
  };

  /** The activity log's file operations (a log out at the panel is recorded before it is sent), each tracked. */
  readonly #activityFiles: StoreFiles = {
    open: async (path, flags, mode) => {
      const file = await this.#track(diskFiles.open(path, flags, mode));
      return {
        write: (bytes, position) => this.#track(file.write(bytes, position)),
        datasync: () => this.#track(file.datasync()),
        sync: () => this.#track(file.sync()),
        truncate: (length) => this.#track(file.truncate(length)),
        close: () => this.#track(file.close()),
      };
    },
    rename: (from, to) => this.#track(diskFiles.rename(from, to)),
    remove: (path) => this.#track(diskFiles.remove(path)),
    makeFolder: (path, mode) => this.#track(diskFiles.makeFolder(path, mode)),
  };

  /** The core's own files; a save is real work under way, like a request on the wire, until it is on disk. */
  readonly #openStore: OpenStore = (name, options) => {
    const store = openJsonFiles(this.#dir)(name, options);
    return {
      ...store,
      save: (change, whole) => this.#track(store.save(change, whole)),
      compact: (whole) => this.#track(store.compact(whole)),
    };
  };

  /**
   * Each request waits for the scheduler to let it leave, is then sent for real and read whole,
   * and its answer is handed back when the scheduler says. Counts the session reads under way:
   * from leaving to their answer, or to their abort (the core stops waiting for them then).
   */
  readonly #fetch: FetchLike = (url, init) => {
    if (!this.#scheduling) return fetch(url, init);
    const made: FetchMade = {
      promise: WatchedPromise.watch(this.#send(url, init)),
      what: `${init.method ?? 'GET'} ${new URL(url).pathname}`,
      abortedAtCall: init.signal?.aborted === true,
    };
    this.#made.push(made);
    return made.promise;
  };

  async #send(url: string, init: RequestInit): Promise<Response> {
    const { port, pathname } = new URL(url);
    const server = this.#servers.findIndex((candidate) => candidate.port === Number(port));
    const read = pathname === SESSION_PATH;
    const what = `${read ? 'read' : 'log in'} at server ${server}`;
    await this.#s.schedule(Promise.resolve(), `send ${what}`);
    const signal = init.signal ?? null;
    let counted = false;
    const leave = () => {
      if (counted) this.#inFlight--;
      counted = false;
    };
    if (read && !signal?.aborted) {
      counted = true;
      this.#stats.reads++;
      this.#inFlight++;
      this.#peak = Math.max(this.#peak, this.#inFlight);
      signal?.addEventListener('abort', leave, { once: true });
    }
    const answer = (async () => {
      const response = await fetch(url, init);
      const body = await response.arrayBuffer();
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    })();
    const ended = answer.then(
      () => undefined,
      () => undefined,
    );
    this.#real.add(ended);
    void ended.then(() => this.#real.delete(ended));
    try {
      return await this.#s.schedule(answer, `answer ${what}`);
    } finally {
      leave();
      signal?.removeEventListener('abort', leave);
    }
  }

  /**
   * Starts the steps: each when the scheduler says, or, marked `afterPrevious`, right after the
   * step before it answers, as one handler of the window would (`await cancelChecks();
   * checkPanels()`), with no turn of the scheduler in between. `target` is the server of a move.
   */
  startAll(steps: readonly Step[]): Promise<void>[] {
    let moves = 0;
    let chain: Promise<void> | null = null;
    const chains: Promise<void>[] = [];
    for (const [index, { op, afterPrevious }] of steps.entries()) {
      const target = op.kind === 'readdress' ? RACE_PANELS + moves++ : -1;
      const label: string = `#${index} ${afterPrevious && chain ? 'then ' : ''}${describeOp(op)}`;
      if (afterPrevious && chain) {
        chain = chain.then(() => this.#call(op, label, target));
        chains[chains.length - 1] = chain;
      } else {
        chain = this.#s.schedule(Promise.resolve(), `call ${label}`).then(() => this.#call(op, label, target));
        chains.push(chain);
      }
    }
    return chains;
  }

  async #call(op: Op, label: string, target: number): Promise<void> {
    const call: Call = { op, label, seq: this.#seq++ };
    this.calls.push(call);
    try {
      call.outcome = { ok: true, value: await this.#invoke(op, target) };
    } catch (error) {
      call.outcome = {
        ok: false,
        code: error instanceof Error && 'code' in error ? String(error.code) : `not a PanelError: ${String(error)}`,
      };
    }
  }

  #invoke(op: Op, target: number): Promise<CallResult> {
    const id = (panel: number) => (panel === UNKNOWN ? this.#unknownId : this.#ids[panel]!);
    switch (op.kind) {
      case 'check':
        return this.core.checkPanels(op.panels?.map(id));
      case 'cancel':
        return this.core.cancelChecks();
      case 'logOut':
        return this.core.logOut(id(op.panel));
      case 'remove':
        return this.core.removePanel(id(op.panel));
      case 'logIn':
        return this.core.logIn(id(op.panel), credentials);
      case 'readdress':
        return this.core.updatePanel(id(op.panel), { address: this.#servers[target]!.url });
      case 'expire':
        for (const server of this.#servers) server.expireAllTokens();
        return Promise.resolve();
    }
  }

  /**
   * Releases scheduled tasks one at a time until `finished`. Real requests on the wire and writes
   * to the disk are let finish before each release (their answers are then held by the scheduler), so the tasks to
   * choose from never depend on how fast the machine is, and a shrunk case replays the same. With
   * nothing scheduled, nothing on the wire or the disk and `finished` still false, no event can ever come:
   * the calls under way hang, deterministically.
   */
  async drive(finished: () => boolean): Promise<void> {
    for (;;) {
      // Lets what the last release started run to its next await.
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (finished()) return;
      if (this.#real.size > 0) {
        await Promise.all(this.#real);
      } else if (this.#s.count() > 0) {
        await this.#s.waitNext(1);
        this.#stats.releases++;
      } else {
        const pending = this.calls.filter((call) => call.outcome === undefined).map((call) => call.label);
        throw new Violation(
          `these calls never resolve (nothing is scheduled, on the wire or on the disk): ${pending.join(', ') || 'calls never made'}\n${this.describe()}`,
        );
      }
    }
  }

  get idle(): boolean {
    return this.#s.count() === 0 && this.#real.size === 0;
  }

  describe(): string {
    const lines = [...this.calls]
      .sort((a, b) => a.seq - b.seq)
      .map(
        (call) =>
          `  ${call.label} -> ${call.outcome === undefined ? 'pending' : call.outcome.ok ? summarise(call.outcome.value) : call.outcome.code}`,
      );
    return `concurrency ${this.#concurrency}, calls in the order made:\n${lines.join('\n')}`;
  }

  /** The rules every interleaving must keep. */
  async verify(callCount: number): Promise<void> {
    const fail = (message: string): never => {
      throw new Violation(`${message}\n${this.describe()}`);
    };
    if (this.calls.length !== callCount) fail(`${callCount - this.calls.length} calls were never made`);
    const successes = (kind: Op['kind'], panel: number) =>
      this.calls.filter((call) => call.op.kind === kind && 'panel' in call.op && call.op.panel === panel && call.outcome?.ok === true);
    const okReads = new Map<string, Set<string>>();

    for (const call of this.calls) {
      const { outcome, op } = call;
      if (outcome === undefined) return fail(`${call.label} never settled`);
      if (op.kind !== 'check') continue;
      if (!outcome.ok) return fail(`${call.label} rejected with ${outcome.code}: a check answers per panel`);
      const results = outcome.value;
      if (!Array.isArray(results)) return fail(`${call.label} did not answer with a list`);
      const ids = results.map((result) => result.panelId);
      if (op.panels !== null) {
        const asked = op.panels.map((panel) => (panel === UNKNOWN ? this.#unknownId : this.#ids[panel]!));
        if (JSON.stringify(ids) !== JSON.stringify(asked))
          fail(`${call.label} answered for ${ids.length} panels, not one result per id asked`);
      } else if (new Set(ids).size !== ids.length || ids.some((id) => !this.#ids.includes(id))) {
        fail(`${call.label} answered for panels twice or for panels that do not exist`);
      }
      for (const result of results) {
        const code = outcomeOf(result);
        if (!CHECK_OUTCOMES.has(code)) fail(`${call.label}: unexpected outcome ${code} for ${result.panelId}`);
        // Cancelled before its turn, an unknown id is CANCELLED like any other.
        if (result.panelId === this.#unknownId && code !== 'NOT_FOUND' && code !== 'CANCELLED')
          fail(`${call.label}: the unknown id answered ${code}`);
        if (code === 'CANCELLED') {
          this.#stats.cancelled++;
          // Only a cancel made after this call may cancel it: one made before is over when it starts.
          if (!this.calls.some((other) => other.op.kind === 'cancel' && other.seq > call.seq)) {
            fail(`${call.label} got CANCELLED for ${result.panelId} though no cancel came after it`);
          }
        }
        if (code === 'UNAUTHORIZED') this.#stats.unauthorized++;
        if (result.ok) {
          const set = okReads.get(result.panelId) ?? new Set();
          set.add(result.checkedAt);
          okReads.set(result.panelId, set);
        }
      }
    }

    const ignored = describeIgnored(this.#made);
    if (ignored.length > 0)
      fail(`the core started fetches and never looked at their outcome (an unhandled rejection when they fail): ${ignored.join('; ')}`);
    if (this.#peak > this.#concurrency)
      fail(`${this.#peak} session reads were under way at once, with checkConcurrency ${this.#concurrency}`);
    for (const [index, server] of this.#servers.entries()) {
      const issued = new Set(server.issuedTokens());
      for (const request of server.requests) {
        if (request.path !== SESSION_PATH) continue;
        const token = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
        if (token === undefined || !issued.has(token))
          fail(`server ${index} was sent a token it did not issue (another address's sign-in)`);
      }
    }

    const panels = byId(await this.core.listPanels());
    const expires = this.calls.filter((call) => call.op.kind === 'expire').map((call) => call.seq);
    for (const [index, id] of this.#ids.entries()) {
      const removed = successes('remove', index).length > 0;
      const panel = panels.get(id);
      if (removed) {
        if (panel) fail(`panel ${index} is listed after its removal answered`);
        continue;
      }
      if (!panel) return fail(`panel ${index} is gone though nobody removed it`);

      const check = panel.lastCheck;
      if (check && !check.ok && NEVER_RECORDED.has(check.error.code)) fail(`panel ${index} recorded a ${check.error.code} check`);
      if (check?.ok && !okReads.get(id)?.has(check.at))
        fail(`panel ${index} recorded a successful read at ${check.at} that no check answered (a cancelled or dropped read)`);

      // The set-up's log in counts as one made at -1, before every call.
      const ends = this.calls.filter((call) => (call.op.kind === 'logOut' || call.op.kind === 'readdress') && call.op.panel === index);
      const lastEnd = Math.max(-1, ...ends.filter((call) => call.outcome?.ok === true).map((call) => call.seq));
      const logInCalls = this.calls.filter((call) => call.op.kind === 'logIn' && call.op.panel === index);
      const tries = logInCalls.filter((call) => call.seq > lastEnd);
      const signedInBy = [...(lastEnd === -1 ? [-1] : []), ...tries.filter((call) => call.outcome?.ok === true).map((call) => call.seq)];
      if (panel.signedIn && signedInBy.length === 0)
        fail(`panel ${index} is signed in after its log out or new address, without a log in since`);
      if (signedInBy.length > 0) {
        const lastLogIn = Math.max(...signedInBy);
        // Identical log ins join the first one under way, whose token may predate a revocation.
        const firstTry = lastLogIn === -1 ? -1 : Math.min(...tries.filter((call) => call.seq <= lastLogIn).map((call) => call.seq));
        // A log in that answered, after the last sign-out, with no revocation since it was asked for: still signed in.
        if (!expires.some((seq) => seq > firstTry) && !panel.signedIn) {
          fail(
            `panel ${index} is signed out though a log in answered after its last log out and nothing revoked the token since (${panel.signedOutReason?.code ?? 'no reason'})`,
          );
        }
      }
      for (const call of logInCalls) {
        if (call.outcome?.ok !== false) continue;
        if (call.outcome.code !== 'NOT_SIGNED_IN' && call.outcome.code !== 'NOT_FOUND')
          fail(`${call.label} failed with ${call.outcome.code}`);
        // Only the operator drops a log in under way: a log out or a new address asked for after it.
        if (call.outcome.code === 'NOT_SIGNED_IN' && !ends.some((end) => end.seq > call.seq)) {
          fail(`${call.label} was dropped (NOT_SIGNED_IN) though no log out or new address was asked for after it`);
        }
      }
      const cached = await this.core.getCachedSession(id);
      if (!panel.signedIn && cached !== null) fail(`panel ${index} is signed out but getCachedSession still gives a session`);
      if (!panel.signedIn && panel.sessionExpiresAt !== null) fail(`panel ${index} is signed out but shows a session end`);
      if (cached !== null && !okReads.get(id)?.has(cached.checkedAt))
        fail(`panel ${index}'s cached session is from a read that no check answered`);
    }

    // What was answered is what a new run finds, once the check history is flushed.
    await this.core.flush();
    const again = byId(await this.#create((url, init) => fetch(url, init)).listPanels());
    if (JSON.stringify([...again.keys()].sort()) !== JSON.stringify([...panels.keys()].sort())) fail('a new run lists other panels');
    for (const [id, panel] of panels) {
      const reopened = again.get(id);
      if (reopened?.signedIn !== panel.signedIn)
        fail(`panel ${this.#ids.indexOf(id)} is ${panel.signedIn ? 'signed in' : 'signed out'} but a new run finds it otherwise`);
      if (JSON.stringify(reopened?.lastCheck) !== JSON.stringify(panel.lastCheck))
        fail(`panel ${this.#ids.indexOf(id)}'s last check is not what a new run finds after flush()`);
    }
  }
}

function describeOp(op: Op): string {
  switch (op.kind) {
    case 'check':
      return op.panels === null
        ? 'checkPanels()'
        : `checkPanels([${op.panels.map((panel) => (panel === UNKNOWN ? 'unknown' : `p${panel}`)).join(', ')}])`;
    case 'cancel':
      return 'cancelChecks()';
    case 'expire':
      return 'servers revoke all tokens';
    case 'readdress':
      return `updatePanel(p${op.panel}, new address)`;
    default:
      return `${op.kind}(p${op.panel})`;
  }
}

function summarise(value: CallResult): string {
  if (Array.isArray(value)) return `[${value.map(outcomeOf).join(', ')}]`;
  if (value === undefined) return 'done';
  return `signedIn ${value.signedIn}`;
}

describe('checks racing cancels, log outs, removals, log ins and new addresses (fast-check scheduler, real HTTP)', () => {
  let servers: ReferencePanel[] = [];
  before(async () => {
    // The panels' own servers, then one per possible move, so that no two moves share an address.
    servers = await Promise.all(Array.from({ length: RACE_PANELS + MAX_OPS }, () => startReferencePanel()));
  });
  after(() => Promise.all(servers.map((server) => server.close())));

  test(`${RACE_RUNS} interleavings: no sign-in survives its end, nothing cancelled is recorded, every call answers per id, the bound holds`, async () => {
    const stats: RaceStats = { runs: 0, releases: 0, reads: 0, cancelled: 0, unauthorized: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: RACE_PANELS }),
        fc.array(stepArbitrary, { minLength: 1, maxLength: MAX_OPS }),
        async (s, concurrency, steps) => {
          stats.runs++;
          const run = new RaceRun(s, servers, concurrency, stats);
          try {
            await run.setUp();
            let settled = false;
            void Promise.all(run.startAll(steps)).then(() => (settled = true));
            await run.drive(() => settled);
            // Answers of aborted reads and the like, still held: let them go before looking.
            await run.drive(() => run.idle);
            await run.verify(steps.length);
          } finally {
            await run.cleanup();
          }
        },
      ),
      { numRuns: RACE_RUNS },
    );
    console.log(
      `fleet races: ${stats.runs} interleavings (shrinking included), ${stats.releases} scheduler releases, ${stats.reads} session reads sent, ` +
        `${stats.cancelled} CANCELLED answers, ${stats.unauthorized} UNAUTHORIZED answers`,
    );
  });
});
