import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const reader = join(import.meta.dirname, '..', '..', '..', 'support', 'read-import-file.ts');
const folder = mkdtempSync(join(tmpdir(), 'paneldeck-import-file-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Reads `path` in a child process that is killed after 20 s: a blocking open fails the test instead of hanging it. */
function readInChild(path: string): { ok: boolean; code?: string; message?: string; length?: number } {
  const child = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', reader, path], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(child.signal, null, `the read did not end within 20 s (killed by ${child.signal})`);
  return JSON.parse(child.stdout);
}

test('a regular file is read whole', () => {
  const path = join(folder, 'panels.txt');
  writeFileSync(path, 'https://panel.example\n');
  assert.deepEqual(readInChild(path), { ok: true, name: 'panels.txt', length: 22 });
});

test('a named pipe is refused before it is opened, so no writer is waited for', {
  skip: process.platform === 'win32' && 'no mkfifo',
}, () => {
  const path = join(folder, 'pipe.csv');
  execFileSync('mkfifo', [path]);
  const outcome = readInChild(path);
  assert.equal(outcome.ok, false);
  assert.equal(outcome.code, 'INVALID_INPUT');
  assert.match(outcome.message!, /^pipe\.csv is not a file\./);
});

test('a missing file says so with the system code', () => {
  const outcome = readInChild(join(folder, 'gone.json'));
  assert.equal(outcome.code, 'INVALID_INPUT');
  assert.match(outcome.message!, /gone\.json could not be opened \(ENOENT\)/);
});
