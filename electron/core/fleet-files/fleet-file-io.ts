import { open as openFile, readFile, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PanelError } from '../../../shared/contract/errors.ts';

/** A fleet file on disk: its text, what changes when it is written, and the lock writers take. */

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 3_000;

export async function readText(path: string): Promise<string> {
  return readFile(path, 'utf8');
}

/** What changes when a file is written: its size, time and inode. */
export async function signature(path: string): Promise<string | null> {
  try {
    const { size, mtimeMs, ino } = await stat(path);
    return `${size} ${mtimeMs} ${ino}`;
  } catch {
    return null;
  }
}

/**
 * Runs `work` holding `<file>.lock` (made exclusively): two Paneldecks on one machine (or on a
 * synced folder) write back one at a time. A lock older than 10 s is a crashed writer's and taken.
 */
export async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await openFile(lock, 'wx');
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > LOCK_STALE_MS) await rm(lock, { force: true });
      else if (Date.now() > until)
        throw new PanelError('STORAGE', `${basename(path)} is being written by another Paneldeck: try again in a moment.`);
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
