import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { PANEL_STYLES } from '../support/reference-panel/server.ts';

/** `npm run demo-panel`: its help names every style and option; a started panel says what it serves. */

const cli = join(import.meta.dirname, '..', 'support', 'reference-panel', 'cli.ts');

test('--help names a style per generation and every option', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--experimental-strip-types', cli, '--help']);
  for (const style of PANEL_STYLES) assert.match(stdout, new RegExp(`^ +${style} +\\S`, 'm'), style);
  assert.match(stdout, /trpc +Easypanel 2\.30 and before/);
  assert.match(stdout, /rpc +Easypanel 2\.31 and 2\.32/);
  assert.match(stdout, /public +Easypanel 2\.33 and later/);
  for (const option of [
    '--style',
    '--version',
    '--token-ttl',
    '--remember-me-ttl',
    '--api-token',
    '--log-in-limit',
    '--two-factor',
    '--projects',
    '--tls',
    '--port',
  ]) {
    assert.match(stdout, new RegExp(`^  ${option} `, 'm'), option);
  }
});

/** What the started demo panel printed, once it says how to stop it. */
async function untilStarted(child: ChildProcessWithoutNullStreams): Promise<string> {
  let printed = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      printed += chunk;
      if (printed.includes('Press Ctrl+C')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the demo panel ended (${code}): ${printed}`)));
  });
  return printed;
}

test('--style rpc --version --api-token: it prints its address, routes and a token that reads the version', async () => {
  const child = spawn(process.execPath, [
    '--experimental-strip-types',
    cli,
    '--style',
    'rpc',
    '--version',
    '2.31.0',
    '--api-token',
    '--port',
    '0',
  ]);
  try {
    const printed = await untilStarted(child);
    assert.match(printed, /Easypanel 2\.31–2\.32.*reporting version 2\.31\.0/);
    assert.match(printed, /^ {4}POST \/api\/rpc\/update\/getStatus$/m);
    assert.match(printed, /^ {4}POST \/api\/trpc\/auth\.login$/m);
    const url = /add a panel with the address: (\S+)/.exec(printed)?.[1];
    const token = /never expires\): ([0-9a-f]{64})$/m.exec(printed)?.[1];
    assert.ok(url && token, printed);
    const response = await fetch(`${url}/api/rpc/update/getStatus`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"json":null}',
    });
    assert.deepEqual(await response.json(), { json: { version: '2.31.0', available: false } });
  } finally {
    child.kill();
  }
});

test('--style public --projects 5: it prints its projects and services with their state, and the load', async () => {
  const child = spawn(process.execPath, ['--experimental-strip-types', cli, '--style', 'public', '--projects', '5', '--port', '0']);
  try {
    const printed = await untilStarted(child);
    const projects = /Projects and services:\n((?: {4}\S.*\n)+)/.exec(printed)?.[1]?.trimEnd().split('\n') ?? [];
    assert.equal(projects.length, 6, printed);
    assert.match(projects[0] ?? '', /^ {4}shop: web \(app, running, 1\/1\); .*mysql \(mysql, down, 0\/1\)$/);
    assert.match(projects[5] ?? '', /^ {4}server load: CPU [\d.]+ %, memory [\d.]+\/[\d.]+ MB, disk [\d.]+\/[\d.]+ GB, up \d+ d \d+ h$/);
    for (const type of ['app', 'compose', 'postgres', 'mysql', 'mariadb', 'mongo', 'redis', 'box', 'wordpress']) {
      assert.match(printed, new RegExp(`\\(${type}, `), type);
    }
    assert.match(printed, /^ {4}GET +\/api\/listProjectsAndServices$/m);
    assert.match(printed, /^ {4}GET +\/api\/getMetricsSystemStats$/m);
  } finally {
    child.kill();
  }
});

test('wrong options are refused with the usage', async () => {
  for (const args of [
    ['--style', 'graphql'],
    ['--style', 'simple', '--api-token'],
    ['--log-in-limit', '1.5'],
    ['--style', 'simple', '--projects', '2'],
    ['--style', 'rpc', '--projects', '-1'],
  ]) {
    const failed = await promisify(execFile)(process.execPath, ['--experimental-strip-types', cli, ...args]).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    assert.equal(failed?.code, 2, args.join(' '));
    assert.match(String(failed?.stderr), /Usage: npm run demo-panel/);
  }
});
