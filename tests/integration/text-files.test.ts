import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createCore, type CoreOptions } from '../../electron/core/index.ts';
import { assertMode, rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';

/** saveTextFile and openTextFile: text the window made, to and from files the operator picks in main's dialogs. */

let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

let folders = 0;
function openCore(choices: Pick<CoreOptions, 'chooseExportFile' | 'chooseTextFile'>) {
  folders++;
  return createCore({ dataDir: join(dir.path, `data-${folders}`), encryption: testEncryption(), ...choices });
}

test('saved whole where the operator chose, readable by them only; the dialog offers the name the window gave', async () => {
  const offered: string[] = [];
  const target = join(dir.path, 'out', 'results.csv');
  const app = openCore({
    chooseExportFile: async (name) => {
      offered.push(name);
      return target;
    },
  });
  const text = 'panel,status,value\r\n"Billing, EU",200,2.33.1\r\n';
  assert.deepEqual(await app.saveTextFile({ name: 'paneldeck-results-2026-11-26.csv', text }), {
    path: target,
    bytes: Buffer.byteLength(text),
  });
  assert.deepEqual(offered, ['paneldeck-results-2026-11-26.csv']);
  assert.equal(readFileSync(target, 'utf8'), text);
  assertMode(target, 0o600);
  // No temporary file is left beside it.
  assert.deepEqual(readdirSync(join(dir.path, 'out')), ['results.csv']);
});

test('a cancelled dialog saves and opens nothing', async () => {
  const app = openCore({ chooseExportFile: async () => null, chooseTextFile: async () => null });
  assert.deepEqual(await app.saveTextFile({ name: 'a.json', text: '[]' }), { path: null, bytes: 0 });
  assert.equal(await app.openTextFile('json'), null);
});

test('a name with a folder, a control character or another extension is refused before any dialog', async () => {
  let asked = 0;
  const app = openCore({
    chooseExportFile: async () => {
      asked++;
      return join(dir.path, 'never.csv');
    },
  });
  for (const name of ['../up.csv', 'sub/dir.csv', 'C:\\x.csv', 'bell\u0007.csv', 'run.sh', '.csv', 'x.csv.exe']) {
    await rejectsWith(app.saveTextFile({ name, text: 'x' }), 'INVALID_INPUT');
  }
  await rejectsWith(app.openTextFile('exe' as 'csv'), 'INVALID_INPUT');
  assert.equal(asked, 0);
});

test('opens UTF-8 text the operator chose; binary or UTF-16 is refused saying what to do', async () => {
  const text = join(dir.path, 'requests.json');
  const binary = join(dir.path, 'archive.json');
  const utf16 = join(dir.path, 'wide.json');
  writeFileSync(text, '{"format":"paneldeck-console-requests","requests":[]}');
  writeFileSync(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]));
  writeFileSync(utf16, Buffer.from([0xff, 0xfe, 0x7b, 0]));
  let next = text;
  const kinds: string[] = [];
  const app = openCore({
    chooseTextFile: async (kind) => {
      kinds.push(kind);
      return next;
    },
  });
  assert.deepEqual(await app.openTextFile('json'), { name: 'requests.json', text: readFileSync(text, 'utf8') });
  assert.deepEqual(kinds, ['json']);
  next = binary;
  await rejectsWith(app.openTextFile('json'), 'INVALID_INPUT', /archive\.json is not a text file .*JSON text/);
  next = utf16;
  await rejectsWith(app.openTextFile('json'), 'INVALID_INPUT', /wide\.json is UTF-16 text\. Save it as UTF-8 and open it again\./);
  next = dir.path;
  await rejectsWith(app.openTextFile('csv'), 'INVALID_INPUT', /is not a file\. Paneldeck opens CSV text here\./);
});
