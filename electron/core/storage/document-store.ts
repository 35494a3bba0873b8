import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isRecord } from '../common/guards.ts';
import { changeLine, fileHash, headerLine, readJournal, replay, type DocumentChange, type JournalLine } from './journal.ts';
import { documentText } from './json-text.ts';
import { copyAside, PRIVATE_FILE_MODE, restrictMode } from './store-problems.ts';
import {
  appendDurably,
  diskFiles,
  PRIVATE_FOLDER_MODE,
  syncFolder,
  TEMP_MARK,
  writeAtomically,
  type StoreFile,
  type StoreFiles,
} from './store-files.ts';
import { WriteQueue } from './write-queue.ts';

export type { DocumentChange };
export { PRIVATE_FILE_MODE };
export { storageError, storageReason } from './store-problems.ts';

/** One JSON document on disk. Read once, synchronously, at start; saved asynchronously, durably. */
export interface DocumentStore {
  readonly path: string;
  /** The stored document (`{}` when there is none yet), its journal replayed. Throws a `SyntaxError` when it is not JSON. */
  read(): unknown;
  /**
   * Saves the document `whole()` gives, which is the one saved before with `change` applied: the
   * change goes to the journal when the document is large, else the document is written whole.
   * `change` null writes it whole: when there is no such change, or when the file on disk is not
   * what this version would have written (an older format, damage read past). Resolves once on
   * disk (fsync'd); rejects with the file system's error, the store then as it was before.
   */
  save(change: DocumentChange | null, whole: () => Record<string, unknown>): Promise<void>;
  /** Writes the document whole if the journal holds changes: at quit, so that the file alone is complete. */
  compact(whole: () => Record<string, unknown>): Promise<void>;
  /** Where `read` kept a copy of a journal damaged in its middle (the changes after the damage are lost), or null. */
  damagedJournal(): string | null;
}

/** Opens the document `<name>.json` in the data folder; `secret` says it holds secrets (tokens). */
export type OpenStore = (name: string, options: { secret: boolean }) => DocumentStore;

/**
 * When changes go to a journal rather than the document being written whole: from `fromBytes` of
 * document on (below it a whole write costs about as little), until the journal reaches
 * `journalShare` times the document's size, when the next save writes the document whole again
 * (compaction). A save so costs the size of its change, plus now and then the document's size
 * spread over as many changes: with the share at 1, at most twice the bytes of the changes.
 */
export interface JournalPolicy {
  fromBytes: number;
  journalShare: number;
}

/** About 600 panels: a whole write of less takes a few milliseconds, and any reader sees one plain file. */
export const DATA_JOURNAL: JournalPolicy = { fromBytes: 256 * 1024, journalShare: 1 };

export interface StoreOptions {
  mode: number;
  /** Null (the default): always written whole, for small documents. */
  journal?: JournalPolicy | null;
  files?: StoreFiles;
}

export function openJsonFiles(dataDir: string, options: Omit<StoreOptions, 'mode'> = {}): OpenStore {
  const journal = options.journal === undefined ? DATA_JOURNAL : options.journal;
  return (name) => jsonFileStore(join(dataDir, `${name}.json`), { mode: PRIVATE_FILE_MODE, journal, files: options.files });
}

/** `panels.json` -> `panels.journal`. */
export function journalPathOf(path: string): string {
  return `${path.replace(/\.json$/, '')}.journal`;
}

interface OpenJournal {
  /** Opened at the first append of this run. */
  handle: StoreFile | null;
  /** Bytes of good lines: where the next one goes. */
  bytes: number;
  /** Bytes on disk, more than `bytes` when a cut line is to be cut off before the next append. */
  bytesOnDisk: number;
  changes: number;
}

/**
 * A document in `path`, written whole through a temporary file renamed over it (see
 * `writeAtomically`; not conf, which writes in place, unsafely, when the `SNAP` variable is set),
 * and with a `journal` policy, its changes appended to a journal between whole writes.
 */
export function jsonFileStore(path: string, options: StoreOptions): DocumentStore {
  const { mode } = options;
  const files = options.files ?? diskFiles;
  const policy = options.journal ?? null;
  const journalPath = journalPathOf(path);
  const queue = new WriteQueue();
  let opened = false;
  /** The document file as this run last read or wrote it; a null hash when there is none a journal could follow. */
  let document: { hash: string | null; bytes: number } = { hash: null, bytes: 0 };
  let journal: OpenJournal | null = null;
  /** Whether a journal file may be on disk (read at start, or begun since): a whole write removes it. */
  let journalOnDisk = false;
  /** A failed append that could not be undone: the next save writes the document whole, which makes the journal stale. */
  let journalBroken = false;
  let damagedCopy: string | null = null;

  function readDocument(): unknown {
    if (!opened) {
      for (const file of [path, journalPath]) removeStaleTempFiles(file);
      // Files and a folder an older version left readable by others are closed at the first read.
      restrictMode(dirname(path), PRIVATE_FOLDER_MODE);
      for (const file of [path, journalPath]) restrictMode(file, mode);
    }
    opened = true;
    document = { hash: null, bytes: 0 };
    journal = null;
    journalOnDisk = false;
    damagedCopy = null;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return {};
      throw error;
    }
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    document = { hash: fileHash(bytes), bytes: bytes.length };
    return policy && isRecord(parsed) ? withJournal(parsed, document.hash!) : parsed;
  }

  function withJournal(parsed: Record<string, unknown>, hash: string): Record<string, unknown> {
    let bytes: Buffer;
    try {
      bytes = readFileSync(journalPath);
    } catch {
      return parsed;
    }
    journalOnDisk = true;
    const read = readJournal(bytes, hash);
    if (read === null) {
      // Follows an older write of the document, whose changes that write already holds.
      rmSync(journalPath, { force: true });
      journalOnDisk = false;
      return parsed;
    }
    if (read.damaged) damagedCopy = copyAside(journalPath, new Date());
    journal = { handle: null, bytes: read.goodBytes, bytesOnDisk: bytes.length, changes: read.changes.length };
    return replay(parsed, read.changes);
  }

  async function append(line: JournalLine): Promise<void> {
    const open = journal ?? (await startJournal());
    if (!open.handle) {
      try {
        open.handle = await files.open(journalPath, 'r+');
        if (open.bytesOnDisk > open.bytes) await open.handle.truncate(open.bytes);
      } catch (error) {
        // The journal read at start cannot be added to (removed by hand, say): the next save writes all of it.
        await open.handle?.close().catch(() => undefined);
        open.handle = null;
        journalBroken = true;
        throw error;
      }
    }
    // An import's line is megabytes, written in batches: a kill between two is a cut line.
    await appendDurably(open.handle, open.bytes, line.pieces, () => (journalBroken = true));
    open.bytes += line.bytes;
    open.bytesOnDisk = open.bytes;
    open.changes++;
  }

  /** A new journal following the document as written: its header on disk before any change. */
  async function startJournal(): Promise<OpenJournal> {
    const handle = await files.open(journalPath, 'w', mode);
    journalOnDisk = true;
    try {
      const header = Buffer.from(headerLine(document.hash!));
      await handle.write(header, 0);
      await handle.datasync();
      await syncFolder(files, dirname(journalPath));
      journal = { handle, bytes: header.length, bytesOnDisk: header.length, changes: 0 };
      return journal;
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async function writeWhole(whole: Record<string, unknown>): Promise<void> {
    document = await writeAtomically(files, path, await documentText(whole), mode);
    journalBroken = false;
    const stale = journal;
    journal = null;
    if (!journalOnDisk) return;
    // The journal no longer follows the document (its hash changed): removed now, or ignored at the next start.
    await stale?.handle?.close().catch(() => undefined);
    await files.remove(journalPath).then(
      () => (journalOnDisk = false),
      () => undefined,
    );
  }

  function journalRoom(): number {
    if (!policy || document.hash === null || document.bytes < policy.fromBytes || journalBroken) return 0;
    return Math.max(document.bytes, policy.fromBytes) * policy.journalShare - (journal?.bytes ?? 0);
  }

  return {
    path,
    read: readDocument,
    save: (change, whole) =>
      queue.run(async () => {
        if (change && journalRoom() > 0) {
          const line = await changeLine(change, journalRoom());
          // Past the room left, the document is written whole instead: the journal starts again.
          if (line !== null && line.bytes <= journalRoom()) return append(line);
        }
        await writeWhole(whole());
      }),
    compact: (whole) =>
      queue.run(async () => {
        if ((journal && journal.changes > 0) || journalBroken) await writeWhole(whole());
      }),
    damagedJournal: () => damagedCopy,
  };
}

/** Temporary files left by a write that was killed half-way; they were never the document. */
export function removeStaleTempFiles(path: string): void {
  const prefix = `${basename(path)}${TEMP_MARK}`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix)) rmSync(join(dirname(path), name), { force: true });
  }
}
