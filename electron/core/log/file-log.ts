import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatEntry, type Log, type LogFields, type LogLevel } from './log.ts';

export interface FileLogOptions {
  dir: string;
  /** Default `paneldeck.log`; rotated files are `paneldeck.1.log`, `paneldeck.2.log`... */
  fileName?: string;
  /** A write that would take the current file past this size rotates it first. Default 1 MiB. */
  maxBytes?: number;
  /** The current file and the rotated ones together. Default 3. */
  maxFiles?: number;
  now?: () => Date;
}

/** A log written to files: `flush()` resolves once every line given so far is written (at quit). */
export interface FileLog extends Log {
  flush(): Promise<void>;
}

/** Lines waiting for the disk, at most: a log faster than its disk drops lines (and says so) rather than memory. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

/**
 * A log of JSON lines in `dir`, rotated by size: `paneldeck.log` -> `paneldeck.1.log` ->
 * `paneldeck.2.log`, the oldest dropped. Every field is redacted (see `redactValue`) when the
 * entry is made; the line is then queued and appended asynchronously, so logging never holds up
 * main. A failure to write (disk full, folder gone) is swallowed; the next lines try again.
 */
export function createFileLog(options: FileLogOptions): FileLog {
  const fileName = options.fileName ?? 'paneldeck.log';
  const maxBytes = Math.max(1, options.maxBytes ?? 1024 * 1024);
  const maxFiles = Math.max(1, Math.floor(options.maxFiles ?? 3));
  const now = options.now ?? (() => new Date());
  const dot = fileName.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
  const pathOf = (index: number) => join(options.dir, index === 0 ? fileName : `${stem}.${index}${extension}`);
  /** The current file's size as this log last knew it; unknown after a failure. */
  let size: number | null = null;
  const queued: { line: string; bytes: number }[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  /** The writer while it runs: it writes everything queued, lines queued meanwhile included. */
  let writing: Promise<void> | null = null;

  const rotate = async () => {
    await rm(pathOf(maxFiles - 1), { force: true });
    for (let index = maxFiles - 2; index >= 0; index--) {
      try {
        await rename(pathOf(index), pathOf(index + 1));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    size = 0;
  };

  /** Appends the queued lines that fit in the current file (rotating it first when the next one does not); returns how many. */
  const appendSome = async (): Promise<number> => {
    if (size === null) {
      await mkdir(options.dir, { recursive: true, mode: 0o700 });
      size = await stat(pathOf(0)).then(
        (stats) => stats.size,
        () => 0,
      );
    }
    let count = 0;
    let bytes = 0;
    while (count < queued.length && !(size + bytes > 0 && size + bytes + queued[count]!.bytes > maxBytes)) bytes += queued[count++]!.bytes;
    if (count === 0) {
      await rotate();
      return 0;
    }
    // Mode 0600: the log names panels and the operator's activity, even with secrets redacted.
    await appendFile(
      pathOf(0),
      queued
        .slice(0, count)
        .map((entry) => entry.line)
        .join(''),
      { mode: 0o600 },
    );
    size += bytes;
    return count;
  };

  const writeQueued = async () => {
    while (queued.length > 0) {
      if (dropped > 0) {
        enqueue(formatEntry(now(), 'warn', 'log.lines-dropped', { count: dropped, reason: 'the disk was slower than the log' }), true);
        dropped = 0;
      }
      let written: number;
      try {
        written = await appendSome();
      } catch {
        // The folder may have gone, or the size we knew is stale: look again once, then give up on these lines.
        size = null;
        written = await appendSome().catch(() => {
          size = null;
          return queued.length;
        });
      }
      for (const entry of queued.splice(0, written)) queuedBytes -= entry.bytes;
    }
  };

  function enqueue(line: string, first = false): void {
    const entry = { line, bytes: Buffer.byteLength(line) };
    if (first) queued.unshift(entry);
    else queued.push(entry);
    queuedBytes += entry.bytes;
  }

  const write = (level: LogLevel) => (event: string, fields?: LogFields) => {
    try {
      const time = now();
      let line = formatEntry(time, level, event, fields);
      if (Buffer.byteLength(line) > maxBytes) line = formatEntry(time, level, event, { dropped: 'entry larger than the log file limit' });
      if (queuedBytes + Buffer.byteLength(line) > MAX_QUEUED_BYTES) dropped++;
      else {
        enqueue(line);
        writing ??= writeQueued().finally(() => {
          writing = null;
        });
      }
    } catch {
      // A throwing clock or a hostile value: this entry is lost, the log goes on.
    }
  };

  return {
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    flush: async () => {
      while (writing) await writing;
    },
  };
}
