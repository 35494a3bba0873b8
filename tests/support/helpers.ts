import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach } from 'node:test';
import { PanelError, type ErrorCode } from '../../shared/contract/errors.ts';
import { createCore, type Encryption, type Core } from '../../electron/core/index.ts';
import { startReferencePanel, type ReferencePanel, type ReferencePanelOptions } from './reference-panel/server.ts';

/**
 * A real encryption for tests (AES-256-GCM under a key that stands for the OS keyring), with the
 * knobs safeStorage has: availability, the Linux backend name, and a keyring that can change.
 */
export interface TestEncryption extends Encryption {
  available: boolean;
  backendName: string;
  /** Replaces the key, as a reset keyring would: old ciphertexts no longer decrypt. */
  changeKeyring(): void;
  encryptCalls: number;
}

/** `key` (32 bytes) makes two processes share one keyring, as two runs of the app on one machine do. */
export function testEncryption(init: { available?: boolean; backend?: string; key?: Uint8Array } = {}): TestEncryption {
  let key = init.key ? Buffer.from(init.key) : randomBytes(32);
  const encryption: TestEncryption = {
    available: init.available ?? true,
    backendName: init.backend ?? 'gnome_libsecret',
    encryptCalls: 0,
    changeKeyring: () => {
      key = randomBytes(32);
    },
    isAvailable: async () => encryption.available,
    backend: () => encryption.backendName,
    encrypt: async (text) => {
      encryption.encryptCalls++;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt: async (bytes) => {
      const data = Buffer.from(bytes);
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
  return encryption;
}

export async function tempDir(prefix = 'paneldeck-test-'): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true, maxRetries: 5 }) };
}

/** Every file under `dir`, with its contents, for searching for secrets. */
export async function readAllFiles(dir: string): Promise<{ path: string; content: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (path) => ({ path, content: await readFile(path, 'latin1') })));
}

/** Asserts that `promise` rejects with a `PanelError` of `code`, and returns it. */
export async function rejectsWith(promise: Promise<unknown>, code: ErrorCode, messagePattern?: RegExp): Promise<PanelError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PanelError, `expected a PanelError, got ${String(error)}`);
    assert.equal(error.code, code, `expected ${code}, got ${error.code}: ${error.message}`);
    if (messagePattern) assert.match(error.message, messagePattern);
    return error;
  }
  assert.fail(`expected a rejection with ${code}, but it resolved`);
}

/** A core on a fresh temporary folder for the enclosing suite; read it inside tests. */
export function suiteCore(): () => Core {
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  let core: Core | undefined;
  before(async () => {
    dir = await tempDir();
    core = createCore({ dataDir: dir.path, encryption: testEncryption() });
  });
  after(() => dir?.cleanup());
  return () => {
    assert.ok(core, 'suiteCore() is read before its suite started');
    return core;
  };
}

/** A reference panel for a suite: started before it, closed after it, its faults cleared after each test. */
export function suiteReferencePanel(options: ReferencePanelOptions = {}): () => ReferencePanel {
  let panel: ReferencePanel | undefined;
  before(async () => {
    panel = await startReferencePanel(options);
  });
  after(() => panel?.close());
  afterEach(() => {
    panel?.setFault('login', null);
    panel?.setFault('getSession', null);
  });
  return () => {
    assert.ok(panel, 'suiteReferencePanel() is read before its suite started');
    return panel;
  };
}

/**
 * For suites about what is kept on disk: one reference panel for the suite, and for each test a
 * fresh folder and keyring. `start()` opens a core on that folder, as a new run of the app would.
 */
export function restartableServices(): {
  panel(): ReferencePanel;
  dir(): string;
  encryption(): TestEncryption;
  start(): Core;
} {
  let panel: ReferencePanel | undefined;
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  let encryption: TestEncryption | undefined;
  before(async () => {
    panel = await startReferencePanel();
  });
  after(() => panel?.close());
  beforeEach(async () => {
    dir = await tempDir();
    encryption = testEncryption();
  });
  afterEach(() => dir?.cleanup());
  const ready = <T>(value: T | undefined): T => {
    assert.ok(value !== undefined, 'restartableServices() is read outside a test');
    return value;
  };
  return {
    panel: () => ready(panel),
    dir: () => ready(dir).path,
    encryption: () => ready(encryption),
    start: () => createCore({ dataDir: ready(dir).path, encryption: ready(encryption) }),
  };
}

/**
 * Asserts the POSIX permission bits of `path` (0600 files, 0700 folders). Windows has no such
 * bits (Node reports 0666 or 0444): there the check is skipped, and the ACLs are the OS's.
 */
export function assertMode(path: string, mode: number, message?: string): void {
  if (process.platform === 'win32') return;
  assert.equal(statSync(path).mode & 0o777, mode, message);
}

/** The version routes of every generation (`getUpdateStatus`, `update.getStatus`, `update/getStatus`). */
const VERSION_ROUTE = /^\/api\/(getUpdateStatus|trpc\/update\.getStatus|rpc\/update\/getStatus)(\?|$)/;

/**
 * The last request the panel received other than a version read: a session read is followed by
 * the version read after a log in (and hourly), so "the last request" of a test that looks at the
 * session read is this one.
 */
export function lastNonVersionRequest(panel: Pick<ReferencePanel, 'requests'>): ReferencePanel['requests'][number] | undefined {
  return panel.requests.findLast((request) => !isVersionRead(request));
}

/** Whether a request the reference panel received is a version read. */
export function isVersionRead(request: { path: string }): boolean {
  return VERSION_ROUTE.test(request.path);
}

/** The outcome of each line of the activity log in `dataDir`, oldest first (`pending` before each write's own). */
export async function activityLineOutcomes(dataDir: string): Promise<string[]> {
  const file = (await readAllFiles(dataDir)).find((candidate) => candidate.path.endsWith('activity.jsonl'));
  const lines = file?.content.trim().split('\n') ?? [];
  return lines.map((line) => String(JSON.parse(line).outcome));
}

/** Waits until `check()` holds, looking every 10 ms; fails after `ms`. */
export async function waitUntil(check: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms in vain`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Awaits `work`, keeping its answer, or its error's message and stack, in `seen`: to look for secrets in afterwards. */
export async function keeping<T>(seen: unknown[], work: Promise<T>): Promise<T> {
  try {
    const value = await work;
    seen.push(value);
    return value;
  } catch (error) {
    seen.push({ message: (error as Error).message, stack: (error as Error).stack });
    throw error;
  }
}

/** Runs `work` and measures the longest the event loop was held meanwhile (a 5 ms ticker's longest gap), in ms. */
export async function longestHold<T>(work: () => Promise<T>): Promise<{ value: T; heldMs: number }> {
  let last = performance.now();
  let heldMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    heldMs = Math.max(heldMs, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { value, heldMs };
  } finally {
    clearInterval(ticker);
  }
}

/** Paneldeck's own sign-in entries of the activity log, which every test that logs in now has. */
const SIGN_IN_ACTIONS: ReadonlySet<string> = new Set(['logIn', 'logInWithApiToken', 'logOutApiToken']);

/** The activity log's entries that are writes to a panel: what a test of writes compares, the log ins that set it up left out. */
export function writesOnly<T extends { what: { action: string } }>(entries: readonly T[]): T[] {
  return entries.filter((entry) => !SIGN_IN_ACTIONS.has(entry.what.action));
}
