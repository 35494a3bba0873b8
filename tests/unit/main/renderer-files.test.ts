import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CONTENT_SECURITY_POLICY, fileFor, serveRendererFile } from '../../../electron/main/renderer-files.ts';
import { tempDir } from '../../support/helpers.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let root: string;
before(async () => {
  dir = await tempDir();
  root = join(dir.path, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir.path, 'secret.txt'), 'outside the renderer');
  await writeFile(join(root, 'notes.md'), 'unknown type');
});
after(() => dir.cleanup());

const get = (path: string, method = 'GET') => serveRendererFile(root, new Request(`app://paneldeck${path}`, { method }));

test('serves the app\u2019s files with their type and the CSP on every answer', async () => {
  const index = await get('/');
  assert.equal(index.status, 200);
  assert.equal(index.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(index.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
  assert.equal(await index.text(), '<!doctype html><title>x</title>');
  const script = await get('/assets/app.js');
  assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(script.headers.get('x-content-type-options'), 'nosniff');
  const missing = await get('/assets/none.js');
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
});

test('never serves a file outside the renderer folder, or of an unknown type', async () => {
  for (const path of [
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/notes.md',
    '/%00index.html',
    '/%E0%A4%A',
  ]) {
    assert.equal((await get(path)).status, 404, path);
  }
  assert.equal(fileFor(root, '/../secret.txt'), null);
  assert.equal(fileFor(root, '/'), join(root, 'index.html'));
});

test('answers only GET and HEAD', async () => {
  assert.equal((await get('/index.html', 'POST')).status, 405);
  const head = await get('/index.html', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
});

test('the CSP allows no inline script, no eval and no network', () => {
  const directives = new Map(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  assert.deepEqual(directives.get('script-src'), ["'self'"]);
  assert.deepEqual(directives.get('connect-src'), ["'none'"]);
  assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval|\*|https?:/);
});
