import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';

/**
 * The hosted-CI workflow cannot run here (no GitHub runner): what can be checked is checked.
 * Its syntax against the workflow schema (@action-validator/core), and the rules the project
 * keeps: actions pinned by commit SHA, read-only permissions, the three systems, the real app.
 */

const path = join(import.meta.dirname, '..', '..', '.github', 'workflows', 'ci.yml');
const text = readFileSync(path, 'utf8');

test('ci.yml is a valid workflow; the same check refuses a broken one', () => {
  assert.deepEqual(validateWorkflow(text).errors, []);
  assert.notDeepEqual(validateWorkflow(text.replace('runs-on:', 'runs-onn:')).errors, [], 'a misspelt key is found');
  assert.notDeepEqual(validateWorkflow('on: push\njobs: 3\n').errors, [], 'jobs of the wrong type are found');
});

test('every action is pinned by a full commit SHA, with its tag beside it', () => {
  const uses = [...text.matchAll(/uses:\s*(\S+)(.*)/g)];
  assert.ok(uses.length >= 3);
  for (const [, action, rest] of uses) {
    assert.match(action!, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/, `${action} is pinned by SHA`);
    assert.match(rest!, /# v\d+\.\d+\.\d+/, `${action} names its tag`);
  }
});

test('least privilege, the three systems, and the steps the issue asks for', () => {
  assert.match(text, /^permissions:\n {2}contents: read\n/m, 'read-only token for the whole workflow');
  assert.doesNotMatch(text, /write-all|: write\b/, 'no write permission anywhere');
  assert.match(text, /os: \[ubuntu-[\d.]+, macos-[\d.]+, windows-[\d.]+\]/);
  assert.match(text, /node-version-file: \.nvmrc/);
  for (const step of [
    'npm ci',
    'node node_modules/electron/install.js',
    'npm test',
    'npm run dist',
    'scripts/check-packaged-app.ts',
    'xvfb',
  ]) {
    assert.ok(text.includes(step), `runs ${step}`);
  }
  assert.match(text, /persist-credentials: false/);
});
