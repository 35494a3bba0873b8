/**
 * What the fleet benches share: time limits, the event-loop stall probe, counting what the
 * service writes and sends, workers that answer by id, and temporary folders.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { openJsonFiles, type OpenStore, type Core } from '../electron/core/index.ts';
import { journalPathOf } from '../electron/core/storage/document-store.ts';
import { ms } from './figures.ts';

export const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : '-');
export const kib = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(0)} KiB` : '-');

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Settles with `work`, or rejects after `limitMs`: a hung pass must not hang the bench. */
export async function withLimit<T>(work: Promise<T>, limitMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${limitMs / 1000} s`)), limitMs);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The longest gap between ticks of a 1 ms timer: how long main's event loop could not run
 * anything else (an IPC call from the window, say). Includes the timer's own ~1 ms.
 */
export function stallProbe(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

/** Bytes, writes and time per document, counted as the store writes them. */
export class WriteCounter {
  readonly byName = new Map<string, { bytes: number; writes: number }>();
  /** The longest single write (serialise, write, fsync, rename): it holds main's event loop that long. */
  longestMs = 0;

  add(name: string, bytes: number, elapsedMs: number): void {
    const entry = this.byName.get(name) ?? { bytes: 0, writes: 0 };
    entry.bytes += bytes;
    entry.writes++;
    this.byName.set(name, entry);
    this.longestMs = Math.max(this.longestMs, elapsedMs);
  }

  get bytes(): number {
    return [...this.byName.values()].reduce((sum, entry) => sum + entry.bytes, 0);
  }

  get writes(): number {
    return [...this.byName.values()].reduce((sum, entry) => sum + entry.writes, 0);
  }

  reset(): void {
    this.byName.clear();
    this.longestMs = 0;
  }

  describe(): string {
    if (this.byName.size === 0) return 'nothing';
    const files = [...this.byName].map(([name, { bytes, writes }]) => `${name}.json ${writes}x ${kib(bytes)}`).join(', ');
    return `${files} (longest write ${ms(this.longestMs)})`;
  }
}

/**
 * The core's own JSON files (as openJsonFiles makes them), counting each save by what it left
 * on disk: the file's size when it was written whole (a new file, renamed over the old one), or
 * what its journal grew by. A stat after the save costs microseconds, where measuring the text
 * would mean serialising every document a second time inside the figures.
 */
export function countingStore(dir: string, counter: WriteCounter): OpenStore {
  const files = openJsonFiles(dir);
  return (name, options) => {
    const store = files(name, options);
    const journal = journalPathOf(store.path);
    const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false });
    return {
      ...store,
      async save(change, whole) {
        const [fileBefore, journalBefore] = [sizeOf(store.path), sizeOf(journal)];
        const started = performance.now();
        await store.save(change, whole);
        const elapsed = performance.now() - started;
        const [fileAfter, journalAfter] = [sizeOf(store.path), sizeOf(journal)];
        const rewritten = fileAfter !== undefined && fileAfter.ino !== fileBefore?.ino;
        const appended = Math.max(
          0,
          (journalAfter?.size ?? 0) - (journalAfter?.ino === journalBefore?.ino ? (journalBefore?.size ?? 0) : 0),
        );
        counter.add(name, (rewritten ? fileAfter.size : 0) + appended, elapsed);
      },
    };
  };
}

/**
 * What the app does with each event: Electron's webContents.send serialises it with V8's
 * serializer on main, so the events a pass sends cost main that much here too.
 */
export function eventSink(): { emit(event: unknown): void; events: number } {
  const sink = {
    events: 0,
    emit(event: unknown) {
      sink.events++;
      serialize(event);
    },
  };
  return sink;
}

/**
 * After the servers close their idle connections, main learns of each close only when its event
 * loop reads the socket: a request sent at once could go down a connection already closed.
 */
export async function letClosesArrive(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/** A worker that answers each message with one reply carrying the same `id`. */
export function asking<Request extends { id: number }, Reply extends { id: number }>(worker: Worker) {
  const replies = new Map<number, (reply: Reply) => void>();
  worker.on('message', (reply: Reply) => {
    replies.get(reply.id)?.(reply);
    replies.delete(reply.id);
  });
  let next = 1;
  return {
    started: new Promise<Reply>((resolve, reject) => {
      replies.set(0, resolve);
      worker.once('error', reject);
    }),
    ask(request: Omit<Request, 'id'>): Promise<Reply> {
      const id = next++;
      return new Promise<Reply>((resolve) => {
        replies.set(id, resolve);
        worker.postMessage({ ...request, id });
      });
    },
  };
}

/** `count` runs of `one`, in turn, a dot on stderr after each: what each run measured. */
export async function takeRuns<T>(count: number, one: (run: number) => Promise<T>): Promise<T[]> {
  const runs: T[] = [];
  for (let run = 0; run < count; run++) {
    runs.push(await one(run));
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  return runs;
}

export async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'paneldeck-fleet-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes what the core holds back (check history, events), where the core can. */
export async function flush(core: Core): Promise<void> {
  // Code before the fleet work wrote everything at once and had no flush.
  if (typeof core.flush === 'function') await core.flush();
}

/**
 * Takes the figures named on the command line (all when none is), each on its own: one that fails
 * says why and the others are still taken. The load average is printed before and after, since the
 * machine may be shared.
 */
export async function takeFigures(title: string, figures: readonly (readonly [string, () => Promise<void>])[]): Promise<void> {
  console.log(`${title} Node ${process.version}; load average ${(loadavg()[0] ?? NaN).toFixed(2)} at start.`);
  const only = process.argv.slice(2);
  for (const [name, figure] of figures) {
    if (only.length > 0 && !only.includes(name)) continue;
    try {
      await figure();
    } catch (error) {
      console.log(`Figure ${name} could not be taken: ${describeError(error)}`);
    }
  }
  console.log(
    `\nLoad average ${(loadavg()[0] ?? NaN).toFixed(2)} at the end (2 cores: above ~1.5 the figures are shared with other work).`,
  );
}
