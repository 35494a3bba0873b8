import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scheduler } from 'fast-check';
import { createCore, type FetchLike, type Core } from '../../../electron/core/index.ts';
import { createNodeFetch } from '../../../electron/core/net/node-fetch.ts';
import { diskFiles, type StoreFiles } from '../../../electron/core/storage/store-files.ts';
import { PanelError, errorCodes, type ErrorCode } from '../../../shared/contract/errors.ts';
import type { Panel } from '../../../shared/types.ts';
import type { RecordedRequest } from '../reference-panel/server.ts';
import { Keyrings, scheduledEncryption, type Backend } from './keyring.ts';
import { appStores, diskFullError } from './stores.ts';
import type { Stats } from './stats.ts';
import { TokenBook } from './token-book.ts';
import { refreshIssued, type Server, type World } from './world.ts';

/** One sequence's system under test: a real core on a fresh folder, with the shared panels. */

export type DocumentName = 'panels' | 'tokens' | 'settings';
export interface DiskFault {
  /** Which document's write fails; `any` is whichever is written first. */
  target: DocumentName | 'any';
  /** Writes of that document let through before the one that fails. */
  skip: number;
}

/** `certificate`: the fingerprint of the certificate a CERTIFICATE_UNTRUSTED or CERTIFICATE_CHANGED refused. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string; certificate: string | null };

/** A broken rule; its message carries the trace of the sequence so far. */
export class Violation extends Error {
  override readonly name = 'Violation';
}

/** What a server received in a step: `from` is the index of the first in `panel.requests`; `fresh` the tokens it issued meanwhile. */
export interface NewRequests {
  server: Server;
  requests: RecordedRequest[];
  from: number;
  fresh: string[];
}

export interface StoredEntry {
  backend: string;
  ciphertext: string;
}

/** Where the data folders go: tmpfs when there is one, so that the many fsyncs cost nothing. */
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

export class Run {
  readonly world: World;
  /** The scheduler of the step under way: each step has its own, so that it keeps its interleaving when shrinking drops other steps. */
  s: Scheduler;
  readonly stats: Stats;
  readonly keyrings = new Keyrings();
  readonly dir: string;
  backend: Backend;
  core: Core;
  fault: DiskFault | null = null;
  faultsFired = 0;
  /** What happened so far, printed with a violation. */
  readonly trace: string[] = [];
  /** Labels of the scheduler's tasks in the order it released them, since `released.length = 0`. */
  readonly released: string[] = [];
  /** Tokens the servers issued during this run, and passwords typed that are nobody's. */
  readonly runTokens: string[] = [];
  readonly wrongPasswords: string[] = [];
  /** Which panel each token of this run was issued to, and the tokens the core must never send again. */
  readonly tokens = new TokenBook();
  /** Stands for the current run of the app quitting: its stores write nothing more. */
  #retire: () => void = () => undefined;
  readonly #requestMarks: number[];
  readonly #freeMarks: number[];
  #steps = 0;

  constructor(world: World, s: Scheduler, backend: Backend, stats: Stats) {
    this.world = world;
    this.s = s;
    this.stats = stats;
    this.backend = backend;
    this.dir = mkdtempSync(join(SCRATCH, 'paneldeck-model-'));
    // The panels are shared across runs: what they saw before this run is not this run's.
    for (const server of world.servers) {
      server.panel.requests.length = 0;
      refreshIssued(server);
    }
    for (const free of world.freePorts) free.received.length = 0;
    this.#requestMarks = world.servers.map(() => 0);
    this.#freeMarks = world.freePorts.map(() => 0);
    this.core = this.#create();
  }

  /** Lets the core finish opening under the scheduler it started with, before a step brings its own. */
  async opened(): Promise<void> {
    await this.wait(this.core.listPanels());
  }

  cleanup(): void {
    this.#retire();
    rmSync(this.dir, { recursive: true, force: true });
  }

  #create(): Core {
    const encryption = scheduledEncryption(this.keyrings.encryption(this.backend), (promise, label) => this.hold(promise, label));
    const stores = appStores(this.dir, (name, path) => this.#beforeWrite(name, path));
    this.#retire = stores.retire;
    // A new run of the app has connection pools of its own.
    const nodeFetch = createNodeFetch();
    return createCore({
      dataDir: this.dir,
      encryption,
      fetch: (url, init, tls) => this.#fetch(nodeFetch, url, init, tls),
      openStore: stores.openStore,
      activity: { files: this.#activityFiles },
      timeoutMs: 10_000,
    });
  }

  /**
   * The activity log's file operations, each held by the scheduler like a request: a log out at a
   * panel waits for its entry to be written before it is sent, and a step is over only once that
   * request went out.
   */
  readonly #activityFiles: StoreFiles = {
    open: async (path, flags, mode) => {
      const file = await this.hold(diskFiles.open(path, flags, mode), 'open activity.jsonl');
      return {
        write: (bytes, position) => this.hold(file.write(bytes, position), 'write activity.jsonl'),
        datasync: () => this.hold(file.datasync(), 'flush activity.jsonl'),
        sync: () => this.hold(file.sync(), 'flush activity.jsonl'),
        truncate: (length) => this.hold(file.truncate(length), 'truncate activity.jsonl'),
        close: () => this.hold(file.close(), 'close activity.jsonl'),
      };
    },
    rename: (from, to) => this.hold(diskFiles.rename(from, to), 'rename activity.jsonl'),
    remove: (path) => this.hold(diskFiles.remove(path), 'remove an activity file'),
    makeFolder: (path, mode) => this.hold(diskFiles.makeFolder(path, mode), 'make the data folder'),
  };

  /** Holds `promise` in the scheduler; `label` names it in the trace of a violation. */
  hold<T>(promise: Promise<T>, label: string): Promise<T> {
    this.stats.tasks++;
    // The scheduler only looks at the promise when it releases it; until then a rejection
    // (a failed decrypt, a refused connection) must not count as unhandled.
    promise.catch(() => undefined);
    return this.s.schedule(promise, label, undefined, async (release) => {
      this.released.push(label);
      await release();
    });
  }

  /**
   * The core's own fetch (https judged by the panel's pin or the system), with its answer read
   * whole and then held by the scheduler: a log in or a session read comes back at a moment the
   * scheduler picks among the other awaits.
   */
  #fetch(nodeFetch: FetchLike, ...[url, init, tls]: Parameters<FetchLike>): Promise<Response> {
    const work = (async () => {
      const response = await nodeFetch(url, init, tls);
      const body = await response.arrayBuffer();
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    })();
    const { port, pathname } = new URL(url);
    return this.hold(work, `answer ${init.method} :${port}${pathname}`);
  }

  /** Makes the next write (of the document the fault names) fail once with ENOSPC. */
  #beforeWrite(name: string, path: string): void {
    const fault = this.fault;
    if (!fault || (fault.target !== 'any' && fault.target !== name)) return;
    if (fault.skip > 0) {
      fault.skip--;
      return;
    }
    this.fault = null;
    this.faultsFired++;
    this.stats.faultsFired++;
    this.released.push(`ENOSPC on ${name}.json`);
    throw diskFullError(path);
  }

  /** Runs `promise` to its end, releasing the scheduler's tasks one at a time meanwhile. */
  async wait<T>(promise: Promise<T>): Promise<T> {
    const value = await this.s.waitFor(promise);
    // Whatever the calls left behind (a dropped save, a log in another call was waiting for).
    await this.s.waitIdle();
    return value;
  }

  /** Starts `call` when the scheduler says, so concurrent calls begin in any order. */
  start<T>(label: string, call: () => Promise<T>): Promise<Outcome<T>> {
    this.stats.calls++;
    return this.hold(Promise.resolve(), `start ${label}`)
      .then(call)
      .then(
        (value): Outcome<T> => ({ ok: true, value }),
        (error: unknown): Outcome<T> => {
          if (!(error instanceof PanelError) || !(errorCodes as readonly string[]).includes(error.code)) {
            throw new Violation(`${label} rejected with something that is not a PanelError: ${String(error)}`);
          }
          if (error.code === 'INTERNAL') throw new Violation(`${label} rejected with INTERNAL: ${error.message}`);
          return { ok: false, code: error.code, message: error.message, certificate: error.certificate?.sha256 ?? null };
        },
      );
  }

  /**
   * The app quits (writing what it had pending, as at quit) and starts again on the same folder:
   * the settings persist; the backend may change; a disk fault still armed stays so.
   */
  async restart(backend: Backend, resetKeyring: boolean): Promise<void> {
    // A start that failed has nothing to write (its calls all fail). `?.`: older cores, which
    // the test can be pointed at to replay a counterexample, have no flush.
    await this.wait(this.core.flush?.() ?? Promise.resolve()).catch(() => undefined);
    this.#retire();
    this.backend = backend;
    if (resetKeyring) this.keyrings.reset(backend);
    this.core = this.#create();
    this.stats.restarts++;
  }

  /**
   * What a start of the app now, with the same keyring, would show: the folder's files copied
   * and opened by a second core that the scheduler does not drive. The run's core is untouched.
   */
  async shadowRestart(): Promise<Panel[]> {
    const scratch = mkdtempSync(join(SCRATCH, 'paneldeck-shadow-'));
    try {
      for (const name of readdirSync(this.dir)) {
        if (name.endsWith('.json')) copyFileSync(join(this.dir, name), join(scratch, name));
      }
      const stores = appStores(scratch);
      try {
        const shadow = createCore({
          dataDir: scratch,
          encryption: this.keyrings.encryption(this.backend),
          openStore: stores.openStore,
        });
        this.stats.shadowRestarts++;
        return await shadow.listPanels();
      } finally {
        stores.retire();
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  /** tokens.json's entries by panel id. */
  storedTokens(): Map<string, StoredEntry> {
    let text: string;
    try {
      text = readFileSync(join(this.dir, 'tokens.json'), 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return new Map();
      throw error;
    }
    const document = JSON.parse(text) as { tokens?: Record<string, StoredEntry> };
    return new Map(Object.entries(document.tokens ?? {}));
  }

  /** Every file under the data folder, as text. */
  files(): { name: string; content: string }[] {
    return readdirSync(this.dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => ({ name: entry.name, content: readFileSync(join(entry.parentPath, entry.name), 'latin1') }));
  }

  /** The requests each server received since the last call; new tokens are read in. */
  newRequests(): NewRequests[] {
    return this.world.servers.map((server) => {
      const from = this.#requestMarks[server.index]!;
      const requests = server.panel.requests.slice(from);
      this.#requestMarks[server.index] = server.panel.requests.length;
      const fresh = requests.some((request) => request.path === '/api/login') ? refreshIssued(server) : [];
      this.runTokens.push(...fresh);
      return { server, requests, from, fresh };
    });
  }

  /** What `newRequests` would return, without taking it. */
  peekRequests(): NewRequests[] {
    return this.world.servers.map((server) => {
      const from = this.#requestMarks[server.index]!;
      return { server, requests: server.panel.requests.slice(from), from, fresh: [] };
    });
  }

  /** How many requests each server and each free port has received: marks for `NewRequests.from`. */
  requestCounts(): { servers: number[]; free: number[] } {
    return {
      servers: this.world.servers.map((server) => server.panel.requests.length),
      free: this.world.freePorts.map((free) => free.received.length),
    };
  }

  /** What reached each address with no panel since the last call. */
  newFreePortRequests(): { index: number; requests: string[]; from: number }[] {
    return this.world.freePorts.map((free, index) => {
      const from = this.#freeMarks[index]!;
      const requests = free.received.slice(from);
      this.#freeMarks[index] = free.received.length;
      return { index, requests, from };
    });
  }

  wrongPassword(): string {
    const password = `Wrong-password-${this.wrongPasswords.length + 1}-${this.dir.slice(-6)}`;
    this.wrongPasswords.push(password);
    return password;
  }

  /** How many steps the trace has numbered. */
  get steps(): number {
    return this.#steps;
  }

  /** Adds a numbered step to the trace. */
  note(text: string): void {
    this.trace.push(`${++this.#steps}. ${text}`);
  }

  fail(message: string): never {
    throw new Violation(`${message}\n\nSequence so far:\n${this.trace.join('\n')}`);
  }
}
