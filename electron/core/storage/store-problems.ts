import { chmodSync, constants, copyFileSync, existsSync, renameSync } from 'node:fs';
import { PanelError } from '../../../shared/contract/errors.ts';

/** Owner only, for every document: even the panel list names accounts and the check history. */
export const PRIVATE_FILE_MODE = 0o600;

/** Best effort: on Windows modes mean little, and a file that is gone needs none. */
export function restrictMode(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    // Nothing to restrict, or not ours to change: reading goes on.
  }
}

export type DocumentRead = { ok: true; document: unknown } | { ok: false; movedTo: string };

/** What is read of a document store here (a `DocumentStore`): its path and its document. */
export interface ReadableDocument {
  readonly path: string;
  read(): unknown;
}

/**
 * Reads a document; one that is not JSON is renamed to `<name>.corrupt-<timestamp>.json` so that
 * nothing is lost and the app can start without it.
 */
export function readOrMoveAside(store: ReadableDocument, now: Date): DocumentRead {
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

/** The extension kept on copies: `.json`, or `.jsonl` for the activity log. */
const EXTENSION = /\.jsonl?$/;

/** `path`, or `path` with `-2`, `-3`... before `.json` when taken: an earlier copy is never overwritten. */
function freePath(path: string): string {
  let candidate = path;
  for (let n = 2; existsSync(candidate); n++) candidate = path.replace(EXTENSION, (extension) => `-${n}${extension}`);
  return candidate;
}

function asidePath(path: string, now: Date, label = 'corrupt'): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const extension = EXTENSION.exec(path)?.[0] ?? '.json';
  return `${path.replace(EXTENSION, '')}.${label}-${stamp}${extension}`;
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
