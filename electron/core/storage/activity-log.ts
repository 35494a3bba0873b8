import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { plural } from '../../../shared/counts.ts';
import { ACTIVITY_KEPT, type ActivityEntry, type ActivityWhat, type StartupProblem } from '../../../shared/types.ts';
import { removeStaleTempFiles } from './document-store.ts';
import { activityMessage, entryLine, lineGroup, NOT_SENT_OUTCOME, readActivityLine, UNKNOWN_OUTCOME } from './activity-lines.ts';
import { copyAside, PRIVATE_FILE_MODE, restrictMode } from './store-problems.ts';
import { appendDurably, diskFiles, PRIVATE_FOLDER_MODE, writeAtomically, type StoreFile, type StoreFiles } from './store-files.ts';
import { WriteQueue } from './write-queue.ts';

export { activityMessage, UNKNOWN_OUTCOME } from './activity-lines.ts';

/** What a writer says of a write before it sends it. */
export interface ActivityStart {
  panelId: string;
  panelName: string;
  panelAddress: string;
  /** The account the write goes as (`signInAccount`); absent: not known. */
  account?: string;
  what: ActivityWhat;
}

export type FinishedOutcome = 'ok' | 'failed' | 'unknown' | 'not-sent';

export interface ActivityLogOptions {
  /** Entries kept; past it the oldest are dropped. Default `ACTIVITY_KEPT`. */
  bound?: number;
  files?: StoreFiles;
  now?: () => Date;
}

/**
 * The activity log, `activity.jsonl` in the data folder: one JSON object a line, each line a whole
 * entry, appended and flushed to disk (fdatasync) before `begin` or `finish` resolves. `finish`
 * appends the entry again with its outcome; the later line of an id wins. When the lines on disk
 * reach twice the bound, the file is rewritten (through a temporary file renamed over it) with
 * the newest `bound` entries, one line each: the file stays under about two lines per kept entry.
 *
 * A last line without its newline was cut by a kill or a power cut during its append: its `begin`
 * never resolved, so its request was never sent, and it is dropped. Any other line that is not an
 * entry is damage: skipped, the file copied aside, and said as a start-up problem. An entry still
 * `pending` at start was left by a Paneldeck that stopped before the panel answered: `unknown`.
 */
export class ActivityLog {
  readonly path: string;
  readonly bound: number;
  /** What was wrong with the file at start, if anything. */
  readonly problem: StartupProblem | null;
  readonly #files: StoreFiles;
  readonly #now: () => Date;
  readonly #queue = new WriteQueue();
  /** By id, oldest first (insertion order). */
  readonly #entries = new Map<string, ActivityEntry>();
  #handle: StoreFile | null = null;
  /** Bytes of whole lines on disk: where the next one goes. */
  #bytes = 0;
  #lines = 0;
  /** The file is not what this run would write (cut, damaged, pending entries, past the bound, a failed append): rewritten whole next. */
  #rewrite = false;
  /**
   * Entries kept in memory whose lines wait for the next write, with what each replaced: the
   * writes under way while they came go to disk together, behind one flush (group commit), so
   * that many service actions at once do not wait in line for a flush each.
   */
  #waiting: { entry: ActivityEntry; before: ActivityEntry | undefined; resolve(): void; reject(error: unknown): void }[] = [];

  private constructor(path: string, options: ActivityLogOptions, problem: StartupProblem | null) {
    this.path = path;
    this.bound = options.bound ?? ACTIVITY_KEPT;
    this.#files = options.files ?? diskFiles;
    this.#now = options.now ?? (() => new Date());
    this.problem = problem;
  }

  /** Reads the log at `path` (none yet is an empty log) and, when it is not as this run would write it, rewrites it. */
  static async open(path: string, options: ActivityLogOptions = {}): Promise<ActivityLog> {
    removeStaleTempFiles(path);
    restrictMode(path, PRIVATE_FILE_MODE);
    let bytes: Buffer | null = null;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    }
    const read = bytes ? readLines(bytes) : { entries: [], damaged: 0, cut: false, lines: 0, notSent: new Set<string>() };
    let problem: StartupProblem | null = null;
    if (read.damaged > 0) {
      problem = {
        file: 'activity',
        message: `${plural(read.damaged, 'damaged line')} of the activity log ${read.damaged === 1 ? 'was' : 'were'} skipped; the other entries are kept.`,
        copyPath: copyAside(path, (options.now ?? (() => new Date()))()),
      };
    }
    const log = new ActivityLog(path, options, problem);
    for (const entry of read.entries) {
      if (entry.outcome !== 'pending') log.#keep(entry);
      else log.#keep({ ...entry, ...(read.notSent.has(entry.id) ? NOT_SENT_OUTCOME : UNKNOWN_OUTCOME) });
    }
    log.#lines = read.lines;
    log.#bytes = bytes?.length ?? 0;
    log.#rewrite =
      read.damaged > 0 || read.cut || read.lines > log.#entries.size || read.entries.some((entry) => entry.outcome === 'pending');
    // Best effort now; a failure leaves the rewrite to the first write of this run.
    if (log.#rewrite && bytes) await log.#queue.run(() => log.#writeWhole()).catch(() => undefined);
    return log;
  }

  /** Records a write about to be sent; resolves with its entry once it is on disk. Rejects with the file system's error. */
  begin(start: ActivityStart): Promise<ActivityEntry> {
    const entry: ActivityEntry = {
      id: randomUUID(),
      at: this.#now().toISOString(),
      panelId: start.panelId,
      panelName: start.panelName,
      panelAddress: start.panelAddress,
      account: start.account ?? null,
      what: { ...start.what },
      outcome: 'pending',
      message: null,
      finishedAt: null,
    };
    return this.#record(entry).then(() => entry);
  }

  /**
   * Records the outcome of a write begun with `begin`; `message` is shortened and left out when it
   * holds one of `secrets` or what may be an encoded secret. Null when the entry is no longer kept.
   */
  finish(id: string, outcome: FinishedOutcome, message: string | null, secrets: readonly string[] = []): Promise<ActivityEntry | null> {
    const begun = this.#entries.get(id);
    if (!begun) return Promise.resolve(null);
    const entry: ActivityEntry = { ...begun, outcome, message: activityMessage(message, secrets), finishedAt: this.#now().toISOString() };
    return this.#record(entry).then(() => entry);
  }

  /** The newest `limit` entries, of one panel or all, newest first. */
  list(query: { panelId?: string; limit?: number } = {}): ActivityEntry[] {
    const limit = query.limit ?? this.bound;
    const found: ActivityEntry[] = [];
    const entries = [...this.#entries.values()];
    for (let index = entries.length - 1; index >= 0 && found.length < limit; index--) {
      const entry = entries[index]!;
      if (query.panelId === undefined || entry.panelId === query.panelId) found.push(entry);
    }
    return found;
  }

  /** Closes the file (at quit; tests). Writes queued before it finish first. */
  close(): Promise<void> {
    return this.#queue.run(async () => {
      await this.#handle?.close().catch(() => undefined);
      this.#handle = null;
    });
  }

  #keep(entry: ActivityEntry): void {
    // A finished entry keeps the place and the time of its begin.
    const kept = this.#entries.get(entry.id);
    this.#entries.set(entry.id, kept ? { ...entry, at: kept.at } : entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.bound) break;
      this.#entries.delete(oldest);
    }
  }

  /** Kept in memory at once (a list meanwhile shows it), and on disk before the promise resolves; taken back when the write fails. */
  #record(entry: ActivityEntry): Promise<void> {
    const before = this.#entries.get(entry.id);
    this.#keep(entry);
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ entry, before, resolve, reject });
      // The first to wait queues the write; those that come before it runs join it.
      if (this.#waiting.length === 1) void this.#queue.run(() => this.#writeWaiting());
    });
  }

  async #writeWaiting(): Promise<void> {
    const batch = this.#waiting.splice(0);
    try {
      if (this.#rewrite || this.#lines + batch.length >= 2 * this.bound) await this.#writeWhole();
      else await this.#append(batch.map(({ entry }) => entry));
    } catch (error) {
      for (const { entry, before } of batch.toReversed()) {
        if (before) this.#entries.set(entry.id, before);
        else this.#entries.delete(entry.id);
      }
      for (const { reject } of batch) reject(error);
      return;
    }
    for (const { resolve } of batch) resolve();
  }

  async #append(entries: readonly ActivityEntry[]): Promise<void> {
    if (!this.#handle) {
      this.#handle = await this.#files.open(this.path, this.#bytes === 0 ? 'w' : 'r+', PRIVATE_FILE_MODE).catch(async (error: unknown) => {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
        await this.#files.makeFolder(dirname(this.path), PRIVATE_FOLDER_MODE);
        return this.#files.open(this.path, 'w', PRIVATE_FILE_MODE);
      });
    }
    // Lines that go together carry their group: a crash that tears it leaves fewer on disk, and none of them was sent.
    const group = entries.length > 1 ? `${randomUUID()}/${entries.length}` : undefined;
    const lines = entries.map((entry) => entryLine(entry, group));
    this.#bytes += await appendDurably(this.#handle, this.#bytes, lines, () => (this.#rewrite = true));
    this.#lines += entries.length;
  }

  /** The newest `bound` entries, one line each, through a temporary file renamed over the log. */
  async #writeWhole(): Promise<void> {
    await this.#handle?.close().catch(() => undefined);
    this.#handle = null;
    const pieces = [...this.#entries.values()].map((entry) => entryLine(entry));
    const written = await writeAtomically(this.#files, this.path, pieces, PRIVATE_FILE_MODE);
    this.#bytes = written.bytes;
    this.#lines = pieces.length;
    this.#rewrite = false;
  }
}

interface LinesRead {
  entries: ActivityEntry[];
  /** Lines that are not entries, besides a cut last one. */
  damaged: number;
  /** The file ends in a line without its newline. */
  cut: boolean;
  /** Whole lines read, entries or not. */
  lines: number;
  /** Entries pending in a group a crash tore: never sent. */
  notSent: Set<string>;
}

function readLines(bytes: Buffer): LinesRead {
  const read: LinesRead = { entries: [], damaged: 0, cut: false, lines: 0, notSent: new Set() };
  /** Each group's size, and the ids of the pending entries seen in it. */
  const groups = new Map<string, { count: number; seen: number; pending: string[] }>();
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    if (end < 0) {
      read.cut = true;
      break;
    }
    read.lines++;
    const text = bytes.subarray(start, end).toString('utf8');
    const entry = readActivityLine(text);
    if (entry) read.entries.push(entry);
    else if (end > start) read.damaged++;
    const group = entry ? lineGroup(text) : null;
    if (group && entry) {
      const kept = groups.get(group.id) ?? { count: group.count, seen: 0, pending: [] };
      kept.seen++;
      if (entry.outcome === 'pending') kept.pending.push(entry.id);
      groups.set(group.id, kept);
    }
    start = end + 1;
  }
  // A group with fewer lines on disk than it had was torn by a crash during its append: its begins never resolved.
  for (const group of groups.values()) if (group.seen < group.count) for (const id of group.pending) read.notSent.add(id);
  return read;
}
