import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PanelError } from '../../../shared/errors.ts';

/** One JSON document on disk, written whole and atomically. */
export interface DocumentStore {
  readonly path: string;
  /** The stored document (`{}` when there is none yet). Throws a `SyntaxError` when it is not JSON. */
  read(): unknown;
  write(document: Record<string, unknown>): void;
}

/** Opens the document `<name>.json` in the data folder; `secret` says it holds secrets (tokens). */
export type OpenStore = (name: string, options: { secret: boolean }) => DocumentStore;

/** Owner only, for every document: even the panel list names accounts and the check history. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

export function openJsonFiles(dataDir: string): OpenStore {
  return (name) => jsonFileStore(join(dataDir, `${name}.json`), { mode: PRIVATE_FILE_MODE });
}

/**
 * A document in one file. Every write goes to a new temporary file that is flushed to disk and
 * then renamed over the old one, so a crash or a kill at any moment leaves either the old
 * document or the new one, never half of one. (Not conf, which writes in place, unsafely, when
 * the `SNAP` variable is set, as it is for apps started from a snap's terminal.)
 */
export function jsonFileStore(path: string, { mode }: { mode: number }): DocumentStore {
  let opened = false;
  return {
    path,
    read() {
      if (!opened) {
        removeStaleTempFiles(path);
        // Files and a folder an older version left readable by others are closed at the first read.
        restrictMode(dirname(path), PRIVATE_FOLDER_MODE);
        restrictMode(path, mode);
      }
      opened = true;
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENOENT') return {};
        throw error;
      }
      return JSON.parse(text);
    },
    write(document) {
      writeAtomically(path, `${JSON.stringify(document, null, '\t')}\n`, mode);
    },
  };
}

function writeAtomically(path: string, text: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const temp = `${path}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const file = openSync(temp, 'wx', mode);
    try {
      writeFileSync(file, text);
      fsyncSync(file);
    } finally {
      closeSync(file);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

const TEMP_MARK = '.tmp-';

/** Best effort: on Windows modes mean little, and a file that is gone needs none. */
function restrictMode(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    // Nothing to restrict, or not ours to change: reading goes on.
  }
}

/** Makes the rename itself durable. Windows cannot open a folder for this, and does not need to. */
function syncFolder(folder: string): void {
  try {
    const handle = openSync(folder, 'r');
    try {
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
  } catch {
    // Best effort: the data is already on disk under its final name.
  }
}

/** Temporary files left by a write that was killed half-way; they were never the document. */
function removeStaleTempFiles(path: string): void {
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

export type DocumentRead = { ok: true; document: unknown } | { ok: false; movedTo: string };

/**
 * Reads a document; one that is not JSON is renamed to `<name>.corrupt-<timestamp>.json` so that
 * nothing is lost and the app can start without it.
 */
export function readOrMoveAside(store: DocumentStore, now: Date): DocumentRead {
  try {
    return { ok: true, document: store.read() };
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'SyntaxError') {
      throw storageError(`read ${store.path}`, error);
    }
    return { ok: false, movedTo: moveAside(store.path, now) };
  }
}

/** A store whose file does not exist yet reads as `{}`. */
export function isEmptyDocument(document: unknown): boolean {
  return typeof document === 'object' && document !== null && Object.keys(document).length === 0;
}

export function moveAside(path: string, now: Date): string {
  const target = freePath(asidePath(path, now));
  try {
    renameSync(path, target);
  } catch (error) {
    throw storageError(`move the damaged file ${path} aside`, error);
  }
  restrictMode(target, PRIVATE_FILE_MODE);
  return target;
}

/** Keeps a copy of a file that was read only in part, before anything overwrites it. */
export function copyAside(path: string, now: Date): string {
  return keepBackup(path, 'corrupt', now, 'the damaged file');
}

/** Copies `<name>.json` to `<name>.<label>-<timestamp>.json`, never over an existing file. */
export function keepBackup(path: string, label: string, now: Date, what = 'the file'): string {
  const target = freePath(asidePath(path, now, label));
  try {
    copyFileSync(path, target, constants.COPYFILE_EXCL);
  } catch (error) {
    throw storageError(`keep a copy of ${what} ${path}`, error);
  }
  // A copy takes the mode of the file it copies, which an older version may have left 0644.
  restrictMode(target, PRIVATE_FILE_MODE);
  return target;
}

/** `path`, or `path` with `-2`, `-3`... before `.json` when taken: an earlier copy is never overwritten. */
function freePath(path: string): string {
  let candidate = path;
  for (let n = 2; existsSync(candidate); n++) candidate = path.replace(/\.json$/, `-${n}.json`);
  return candidate;
}

function asidePath(path: string, now: Date, label = 'corrupt'): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `${path.replace(/\.json$/, '')}.${label}-${stamp}.json`;
}

export function storageError(action: string, error: unknown): PanelError {
  return new PanelError(
    'STORAGE',
    `Paneldeck could not ${action} (${storageReason(error)}). Check free disk space and the folder's permissions, then try again.`,
    { cause: error },
  );
}

/** Why a file operation failed, in a few words; a `STORAGE` error is read through to its cause. */
export function storageReason(error: unknown): string {
  if (error instanceof PanelError && error.code === 'STORAGE') return storageReason(error.cause);
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC'
    ? 'the disk is full'
    : code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'EROFS'
        ? 'the disk is read-only'
        : typeof code === 'string'
          ? code
          : error instanceof Error
            ? error.message
            : 'unknown error';
}
