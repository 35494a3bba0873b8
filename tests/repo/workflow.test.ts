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

/**
 * The first major of each action whose action.yml declares `runs.using: node24` (hosted runners
 * dropped Node 20 in September 2026), from the release notes: checkout v5.0.0 and setup-node
 * v5.0.0 moved to node24; upload-artifact v5.0.0 only "supports" Node 24 and still ran on node20,
 * v6.0.0 moved. An action missing here is refused until its first node24 major is looked up.
 */
const FIRST_NODE24_MAJOR: Readonly<Record<string, number>> = {
  'actions/checkout': 5,
  'actions/setup-node': 5,
  'actions/upload-artifact': 6,
};

/** Commits whose tag is known, so that a pin cannot name a newer tag than its commit is. */
const KNOWN_COMMITS: Readonly<Record<string, string>> = {
  '11bd71901bbe5b1630ceea73d27597364c9af683': 'actions/checkout v4.2.2',
  '39370e3970a6d050c480ffad4ff0ed4d3fdee5af': 'actions/setup-node v4.1.0',
  '65c4c4a1ddee5b72f698fdd19549f0f0fb45cf08': 'actions/upload-artifact v4.6.0',
  '3d3c42e5aac5ba805825da76410c181273ba90b1': 'actions/checkout v7.0.1',
  '820762786026740c76f36085b0efc47a31fe5020': 'actions/setup-node v7.0.0',
  bbbca2ddaa5d8feaa63e36b76fdaad77386f024f: 'actions/upload-artifact v7.0.0',
};

interface Pin {
  action: string;
  sha: string;
  tag: string;
}

function pinsIn(workflow: string): Pin[] {
  return [...workflow.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)@([0-9a-f]{40})\s*#\s*(v[\d.]+)/g)].map(([, action, sha, tag]) => ({
    action: action!,
    sha: sha!,
    tag: tag!,
  }));
}

/** Why a pin would run on Node 20 (or cannot be judged), or null when it runs on Node 24. */
function node20Refusal({ action, sha, tag }: Pin): string | null {
  const known = KNOWN_COMMITS[sha];
  if (known && known !== `${action} ${tag}`) return `${action}@${sha} is ${known}, not ${tag}`;
  const first = FIRST_NODE24_MAJOR[action];
  if (first === undefined) return `${action} is not in FIRST_NODE24_MAJOR: look up its first node24 major`;
  const major = Number(/^v(\d+)/.exec(tag)?.[1]);
  return major >= first ? null : `${action} ${tag} runs on node20; v${first} is its first node24 major`;
}

test('every action is pinned at a major that runs on Node 24', () => {
  const pins = pinsIn(text);
  assert.equal(pins.length, [...text.matchAll(/uses:/g)].length, 'every uses: line is read');
  assert.deepEqual(pins.map(node20Refusal).filter(Boolean), []);
});

test('the Node 24 check refuses the old node20 pins, a tag its commit is not, and an unknown action', () => {
  const old = [
    'uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2',
    'uses: actions/setup-node@39370e3970a6d050c480ffad4ff0ed4d3fdee5af # v4.1.0',
    'uses: actions/upload-artifact@65c4c4a1ddee5b72f698fdd19549f0f0fb45cf08 # v4.6.0',
  ];
  assert.deepEqual(pinsIn(old.join('\n')).map(node20Refusal), [
    'actions/checkout v4.2.2 runs on node20; v5 is its first node24 major',
    'actions/setup-node v4.1.0 runs on node20; v5 is its first node24 major',
    'actions/upload-artifact v4.6.0 runs on node20; v6 is its first node24 major',
  ]);
  const refusalOf = (line: string) => pinsIn(line).map(node20Refusal)[0];
  assert.match(refusalOf(`uses: actions/upload-artifact@${'a'.repeat(40)} # v5.0.0`) ?? '', /v5\.0\.0 runs on node20/);
  assert.match(
    refusalOf('uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v7.0.1') ?? '',
    /is actions\/checkout v4\.2\.2, not v7\.0\.1/,
  );
  assert.match(refusalOf(`uses: actions/cache@${'b'.repeat(40)} # v5.0.0`) ?? '', /not in FIRST_NODE24_MAJOR/);
  assert.equal(refusalOf(`uses: actions/upload-artifact@${'c'.repeat(40)} # v6.0.0`), null);
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
