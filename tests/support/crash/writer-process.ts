import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WRITER = fileURLToPath(new URL('./registry-writer.ts', import.meta.url));

/** registry-writer.ts running in a child process, with what it printed so far. */
export interface WriterProcess {
  /** Resolves once the writer printed `ready` (its service is open), or it ended. */
  started: Promise<void>;
  /** Resolves once the writer printed its `count`th `try` line (a change it is starting), or it ended. */
  startedChange(count: number): Promise<void>;
  /** Kills it with SIGKILL and returns the lines it printed whole: a last line without its newline was cut by the kill. */
  kill(): Promise<string[]>;
}

/** Starts registry-writer.ts with `args` (after its data folder) and `env` added to this process's environment. */
export function startWriter(dataDir: string, args: readonly string[], env: Record<string, string> = {}): WriterProcess {
  // The writer is not a test: without this variable it would not try to talk to the test runner.
  const { NODE_TEST_CONTEXT: _runner, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', WRITER, dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, ...env },
  });
  // 'close' comes after the child exited and its output was read to the end.
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('close', (code, signal) => resolve(signal ?? code)));
  let output = '';
  let errors = '';
  let tries = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const ready = new Promise<void>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.startsWith('ready')) resolve();
      // Counted over the whole output, since a line can arrive cut over two chunks.
      tries = output.split('\n').filter((line) => line.startsWith('try ')).length;
      for (const wait of waiting.filter((entry) => entry.count <= tries)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    });
  });
  const ended = exited.then(() => undefined);
  return {
    started: Promise.race([ready, ended]),
    startedChange: (count) => Promise.race([new Promise<void>((resolve) => waiting.push({ count, resolve })), ended]),
    async kill() {
      child.kill('SIGKILL');
      const ended = await exited;
      assert.equal(ended, 'SIGKILL', `the writer ended on its own (${String(ended)}) before it was killed:\n${errors}`);
      return output.split('\n').slice(0, -1);
    },
  };
}
