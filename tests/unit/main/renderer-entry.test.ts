import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { APP_ENTRY_URL, rendererEntry, serveAppRequest } from '../../../electron/main/renderer-entry.ts';
import { APP_ORIGIN } from '../../../electron/main/renderer-files.ts';
import { tempDir } from '../../support/helpers.ts';

test('a packaged or plain run loads the built renderer over app://', () => {
  assert.equal(APP_ENTRY_URL, 'app://paneldeck/index.html');
  assert.deepEqual(rendererEntry({ isPackaged: true, devServerUrl: undefined }), {
    url: APP_ENTRY_URL,
    appOrigins: [APP_ORIGIN],
    warning: null,
  });
  assert.deepEqual(rendererEntry({ isPackaged: false, devServerUrl: '' }), { url: APP_ENTRY_URL, appOrigins: [APP_ORIGIN], warning: null });
});

test('an unpackaged run may load a loopback dev server, whose origin then counts as the app', () => {
  assert.deepEqual(rendererEntry({ isPackaged: false, devServerUrl: 'http://127.0.0.1:5173' }), {
    url: 'http://127.0.0.1:5173/',
    appOrigins: [APP_ORIGIN, 'http://127.0.0.1:5173'],
    warning: null,
  });
  assert.deepEqual(rendererEntry({ isPackaged: false, devServerUrl: 'http://localhost:5173/' }).appOrigins, [
    APP_ORIGIN,
    'http://localhost:5173',
  ]);
});

test('a packaged build never loads a dev server, and only loopback http is accepted', () => {
  const packaged = rendererEntry({ isPackaged: true, devServerUrl: 'http://127.0.0.1:5173' });
  assert.equal(packaged.url, APP_ENTRY_URL);
  assert.deepEqual(packaged.appOrigins, [APP_ORIGIN]);
  assert.match(packaged.warning ?? '', /ignored in a packaged build/);
  for (const devServerUrl of [
    'https://127.0.0.1:5173',
    'http://192.168.1.10:5173',
    'http://evil.example:5173',
    'http://127.0.0.1.evil.example:5173',
    'http://user:pw@127.0.0.1:5173',
    'file:///tmp/index.html',
    'not a url',
  ]) {
    const entry = rendererEntry({ isPackaged: false, devServerUrl });
    assert.equal(entry.url, APP_ENTRY_URL, devServerUrl);
    assert.deepEqual(entry.appOrigins, [APP_ORIGIN], devServerUrl);
    assert.ok(entry.warning, devServerUrl);
  }
});

let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  dir = await tempDir();
  await mkdir(join(dir.path, 'renderer'));
  await writeFile(join(dir.path, 'renderer', 'index.html'), '<!doctype html><title>Paneldeck</title>');
});
after(() => dir.cleanup());

test('the app:// handler serves the renderer for the app host only', async () => {
  const root = join(dir.path, 'renderer');
  const ok = await serveAppRequest(root, new Request('app://paneldeck/index.html'));
  assert.equal(ok.status, 200);
  assert.equal(await ok.text(), '<!doctype html><title>Paneldeck</title>');
  for (const url of ['app://other/index.html', 'app://paneldeck:8080/index.html', 'app://paneldeck.evil/index.html']) {
    const refused = await serveAppRequest(root, new Request(url));
    assert.equal(refused.status, 404, url);
    assert.match(refused.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  }
});
