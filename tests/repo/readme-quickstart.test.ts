import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { DEMO_USER } from '../support/reference-panel/server.ts';

const root = join(import.meta.dirname, '..', '..');

test('the README quickstart runs as written and does what it says', async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const code = /<!-- quickstart -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(code, 'README.md has a ```ts block after <!-- quickstart -->');
  // In the project folder, as the README says, so its relative imports resolve.
  const script = join(root, `.quickstart-test-${process.pid}.ts`);
  writeFileSync(script, code);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--experimental-strip-types', script], { cwd: root, timeout: 30_000 });
    const session = JSON.parse(/^session: (.*)$/m.exec(stdout)?.[1] ?? 'null');
    assert.equal(session?.user?.email, DEMO_USER.email);
    assert.match(stdout, /^signed in after log out: false$/m);
  } finally {
    rmSync(script, { force: true });
  }
});
