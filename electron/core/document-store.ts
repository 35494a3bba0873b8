import { constants, copyFileSync, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { PanelError } from '../../shared/errors.ts';

/**
 * One JSON document on disk, written whole and atomically, backed by conf (the library
 * electron-store is built on; electron-store itself adds an unchecked IPC listener to main).
 */
export interface DocumentStore {
  readonly path: string;
  /** The stored document (`{}` when there is none yet). Throws a `SyntaxError` when it is not JSON. */
  read(): unknown;
  write(document: Record<string, unknown>): void;
}

/** Opens the document `<name>.json` in the data folder; `secret` documents are readable by the owner only. */
export type OpenStore = (name: string, options: { secret: boolean }) => DocumentStore;

/** The subset of conf's API used here. */
interface ConfLike {
  store: Record<string, unknown>;
}

/**
 * Adapts a conf-like store. It is created on first use, because conf reads the file in its
 * constructor and a damaged file must reach the caller as an error it can recover from.
 */
export function confDocumentStore(path: string, create: () => ConfLike): DocumentStore {
  let conf: ConfLike | undefined;
  const open = () => (conf ??= create());
  return {
    path,
    read: () => open().store,
    write: (document) => {
      open().store = document;
    },
  };
}

export function openConfStore(dataDir: string): OpenStore {
  return (name, { secret }) =>
    confDocumentStore(join(dataDir, `${name}.json`), () =>
      new Conf<Record<string, unknown>>({
        cwd: dataDir,
        configName: name,
        // A damaged file is moved aside by the caller, never silently emptied.
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
        ...(secret ? { configFileMode: 0o600 } : {}),
      }),
    );
}

export type DocumentRead =
  | { ok: true; document: unknown }
  | { ok: false; movedTo: string };

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
  return path.replace(/\.json$/, '') + `.${label}-${stamp}.json`;
}

export function storageError(action: string, error: unknown): PanelError {
  const code = (error as { code?: unknown } | null)?.code;
  const reason =
    code === 'ENOSPC' ? 'the disk is full'
      : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
        : code === 'EROFS' ? 'the disk is read-only'
          : typeof code === 'string' ? code
            : error instanceof Error ? error.message : 'unknown error';
  return new PanelError(
    'STORAGE',
    `Paneldeck could not ${action} (${reason}). Check free disk space and the folder's permissions, then try again.`,
    { cause: error },
  );
}
