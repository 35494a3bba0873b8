import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The file operations the stores make while the app runs, all asynchronous: main's event loop
 * never waits on the disk. Injected so that tests can make any one of them fail, or write half of
 * what it was given first, as a full or failing disk does.
 */
export interface StoreFiles {
  open(path: string, flags: 'wx' | 'w' | 'r+' | 'r', mode?: number): Promise<StoreFile>;
  rename(from: string, to: string): Promise<void>;
  /** Removes the file; one that is not there is no error. */
  remove(path: string): Promise<void>;
  makeFolder(path: string, mode: number): Promise<void>;
}

export interface StoreFile {
  /** Writes all of `bytes` at `position`. */
  write(bytes: Uint8Array, position: number): Promise<void>;
  /** Flushes the file's data and size to the disk (fdatasync). */
  datasync(): Promise<void>;
  /** Flushes the file whole, its metadata too (fsync). */
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export const diskFiles: StoreFiles = {
  async open(path, flags, mode) {
    const handle = await open(path, flags, mode);
    return {
      async write(bytes, position) {
        for (let done = 0; done < bytes.length; ) {
          const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
          if (bytesWritten === 0) throw Object.assign(new Error(`EIO: nothing written to ${path}`), { code: 'EIO' });
          done += bytesWritten;
        }
      },
      datasync: () => handle.datasync(),
      sync: () => handle.sync(),
      truncate: (length) => handle.truncate(length),
      close: () => handle.close(),
    };
  },
  rename: (from, to) => rename(from, to),
  remove: (path) => rm(path, { force: true }),
  makeFolder: async (path, mode) => {
    await mkdir(path, { recursive: true, mode });
  },
};

export const PRIVATE_FOLDER_MODE = 0o700;
/** Temporary files of a write are `<file>.tmp-<pid>-<8 hex>`. */
export const TEMP_MARK = '.tmp-';
/** Text is turned into bytes and written this much at a time: each write is a turn of the event loop. */
const WRITE_BATCH_CHARS = 256 * 1024;

/**
 * Writes `pieces` as the file at `path`: to a new temporary file that is flushed to disk and then
 * renamed over the old one, so a crash or a kill at any moment leaves either the old file or the
 * new one, never half of one. Returns the SHA-256 and size of what was written.
 */
export async function writeAtomically(
  files: StoreFiles,
  path: string,
  pieces: readonly string[],
  mode: number,
): Promise<{ hash: string; bytes: number }> {
  const temp = `${path}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    const file = await openMakingFolder(files, temp, mode);
    try {
      for (const batch of batches(pieces)) {
        const buffer = Buffer.from(batch);
        hash.update(buffer);
        await file.write(buffer, bytes);
        bytes += buffer.length;
      }
      await file.sync();
    } finally {
      await file.close();
    }
    await files.rename(temp, path);
  } catch (error) {
    await files.remove(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(files, dirname(path));
  return { hash: hash.digest('hex'), bytes };
}

/**
 * Appends `pieces` to `file` at byte `at` and flushes them (fdatasync), a few hundred kilobytes
 * per write; resolves with the bytes written once they are on disk. On a failure whatever part
 * reached the file is taken back, so the next append goes where this one began; when even that
 * fails, `onCutLine` is told (the file may end in a cut line) before the error is thrown.
 */
export async function appendDurably(file: StoreFile, at: number, pieces: readonly string[], onCutLine: () => void): Promise<number> {
  let written = 0;
  try {
    for (const batch of batches(pieces)) {
      const bytes = Buffer.from(batch);
      await file.write(bytes, at + written);
      written += bytes.length;
    }
    await file.datasync();
    return written;
  } catch (error) {
    try {
      await file.truncate(at);
      await file.datasync();
    } catch {
      onCutLine();
    }
    throw error;
  }
}

/** A new file; its folder is made first when there is none (the first write, or a folder removed since): one call less the other times. */
async function openMakingFolder(files: StoreFiles, path: string, mode: number): Promise<StoreFile> {
  try {
    return await files.open(path, 'wx', mode);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    await files.makeFolder(dirname(path), PRIVATE_FOLDER_MODE);
    return files.open(path, 'wx', mode);
  }
}

/** The pieces joined into strings of about WRITE_BATCH_CHARS. */
export function* batches(pieces: readonly string[]): Generator<string> {
  let batch: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    batch.push(piece);
    length += piece.length;
    if (length >= WRITE_BATCH_CHARS) {
      yield batch.join('');
      batch = [];
      length = 0;
    }
  }
  if (length > 0) yield batch.join('');
}

/** Makes a rename or a new file's name durable. Windows cannot open a folder for this, and does not need to. */
export async function syncFolder(files: StoreFiles, folder: string): Promise<void> {
  try {
    const handle = await files.open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: the data is already on disk under its final name.
  }
}
