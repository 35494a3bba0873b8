import { diskFiles, type StoreFile, type StoreFiles } from '../../../electron/core/storage/store-files.ts';

/** One file operation the stores make, as `FaultyFiles` sees it. */
export interface FileOperation {
  kind: 'open' | 'write' | 'datasync' | 'sync' | 'truncate' | 'close' | 'rename' | 'remove' | 'makeFolder';
  path: string;
}

/** What to do to an operation: let it be, fail it, or (a write) write the first `bytes` and then fail, as a disk that fills up half-way does. */
export type Fault = { fail: false } | { fail: true; code?: string; partialBytes?: number };

/**
 * The real file operations, each first shown to `decide`, which may make it fail as a full or
 * broken disk does. Counts what it saw, so that a test can say "fail the nth write".
 */
export class FaultyFiles implements StoreFiles {
  readonly seen: FileOperation[] = [];
  decide: (operation: FileOperation, index: number) => Fault = () => ({ fail: false });
  /** When set, no operation reaches the disk and every one fails: a process that is gone. */
  frozen = false;

  #check(operation: FileOperation): Fault {
    if (this.frozen) return { fail: true, code: 'EIO' };
    this.seen.push(operation);
    return this.decide(operation, this.seen.length - 1);
  }

  async open(path: string, flags: 'wx' | 'w' | 'r+' | 'r', mode?: number): Promise<StoreFile> {
    throwIf(this.#check({ kind: 'open', path }), path);
    const file = await diskFiles.open(path, flags, mode);
    const guard = (kind: FileOperation['kind']) => this.#check({ kind, path });
    return {
      write: async (bytes, position) => {
        const fault = guard('write');
        if (fault.fail && fault.partialBytes !== undefined) await file.write(bytes.subarray(0, fault.partialBytes), position);
        throwIf(fault, path);
        await file.write(bytes, position);
      },
      datasync: async () => {
        throwIf(guard('datasync'), path);
        await file.datasync();
      },
      sync: async () => {
        throwIf(guard('sync'), path);
        await file.sync();
      },
      truncate: async (length) => {
        throwIf(guard('truncate'), path);
        await file.truncate(length);
      },
      close: async () => {
        // A close that fails still closes: the descriptor is gone either way.
        await file.close();
        throwIf(guard('close'), path);
      },
    };
  }

  async rename(from: string, to: string): Promise<void> {
    throwIf(this.#check({ kind: 'rename', path: to }), to);
    await diskFiles.rename(from, to);
  }

  async remove(path: string): Promise<void> {
    throwIf(this.#check({ kind: 'remove', path }), path);
    await diskFiles.remove(path);
  }

  async makeFolder(path: string, mode: number): Promise<void> {
    throwIf(this.#check({ kind: 'makeFolder', path }), path);
    await diskFiles.makeFolder(path, mode);
  }
}

function throwIf(fault: Fault, path: string): void {
  if (!fault.fail) return;
  const code = fault.code ?? 'ENOSPC';
  throw Object.assign(new Error(`${code}: injected failure, ${path}`), { code });
}
