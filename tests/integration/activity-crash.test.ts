import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createCore } from '../../electron/core/index.ts';
import { UNKNOWN_OUTCOME } from '../../electron/core/storage/activity-log.ts';
import { tempDir, testEncryption } from '../support/helpers.ts';

const WRITER = fileURLToPath(new URL('../support/crash/activity-writer.ts', import.meta.url));

/** Runs activity-writer.ts, kills it with SIGKILL once its last begin is on disk, and returns the ids it printed. */
async function killBetweenBeginAndFinish(dataDir: string, count: number): Promise<{ begun: string[]; finished: string[] }> {
  const { NODE_TEST_CONTEXT: _runner, ...env } = process.env;
  const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', WRITER, dataDir, String(count)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<string | number | null>((resolve) => child.once('close', (code, signal) => resolve(signal ?? code)));
  await new Promise<void>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.split('\n').filter((line) => line.startsWith('begun ')).length > count) resolve();
    });
    void exited.then(() => resolve());
  });
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL', `the writer ended on its own:\n${errors}`);
  const lines = output.split('\n');
  const ids = (word: string) => lines.filter((line) => line.startsWith(`${word} `)).map((line) => line.slice(word.length + 1));
  return { begun: ids('begun'), finished: ids('finished') };
}

describe('a kill with SIGKILL between a write’s begin and its finish', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir('paneldeck-activity-crash-');
  });
  after(() => dir?.cleanup());

  test('a fresh start lists the entry with its outcome unknown, and every finished one as it was', async () => {
    for (let round = 0; round < 3; round++) {
      const { begun, finished } = await killBetweenBeginAndFinish(dir.path, round * 2);
      const inFlight = begun.at(-1)!;
      assert.deepEqual(finished, begun.slice(0, -1));

      const core = createCore({ dataDir: dir.path, encryption: testEncryption() });
      assert.deepEqual((await core.getAppStatus()).startupProblems, [], 'a kill is no damage');
      const { entries } = await core.listActivity();
      const [newest] = entries;
      assert.equal(newest?.id, inFlight);
      assert.equal(newest?.outcome, 'unknown');
      assert.equal(newest?.message, UNKNOWN_OUTCOME.message);
      for (const id of finished) assert.equal(entries.find((entry) => entry.id === id)?.outcome, 'ok');
      // Every entry of the earlier rounds is still there; the one in flight of each reads unknown.
      assert.equal(entries.filter((entry) => entry.outcome === 'unknown').length, round + 1);
      assert.equal(entries.length, (round + 1) * 1 + [0, 2, 4].slice(0, round + 1).reduce((sum, n) => sum + n, 0));
      assert.ok(!readFileSync(join(dir.path, 'activity.jsonl'), 'utf8').includes('"pending"'), 'the start wrote unknown to the file');
    }
  });
});
