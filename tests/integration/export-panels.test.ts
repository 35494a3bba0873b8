import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createCore } from '../../electron/core/index.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportDocument } from '../../shared/transfer.ts';
import { assertMode, rejectsWith, tempDir, testEncryption } from '../support/helpers.ts';
import { DEMO_USER, startReferencePanel, type ReferencePanel } from '../support/reference-panel/server.ts';

/** Export: what the operator typed and chose, to the file they picked; no secret, email or history. */

let panel: ReferencePanel;
let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  panel = await startReferencePanel();
  dir = await tempDir();
});
after(async () => {
  await panel.close();
  await dir.cleanup();
});

let folders = 0;
/** A core on a folder of its own. */
function openCore(choose: (name: string) => Promise<string | null>) {
  folders++;
  return createCore({ dataDir: join(dir.path, `data-${folders}`), encryption: testEncryption(), chooseExportFile: choose });
}

test('every panel, or the ones named, with their settings and labels; never a token, password, email or check', async () => {
  const offered: string[] = [];
  const target = join(dir.path, 'out', 'panels.json');
  const app = openCore(async (name) => {
    offered.push(name);
    return target;
  });
  const signedIn = await app.addPanel({
    address: panel.url,
    name: 'Production',
    group: 'Acme',
    tags: ['eu'],
    colour: 'red',
    favourite: true,
  });
  await app.logIn(signedIn.id, { email: DEMO_USER.email, password: DEMO_USER.password });
  await app.getSession(signedIn.id);
  const other = await app.addPanel({ address: 'staging.example.com' });

  assert.deepEqual(await app.exportPanels(), { path: target, count: 2 });
  assert.match(offered[0] ?? '', /^paneldeck-panels-\d{4}-\d{2}-\d{2}\.json$/);
  const text = readFileSync(target, 'utf8');
  const document = JSON.parse(text) as ExportDocument;
  assert.equal(document.format, EXPORT_FORMAT);
  assert.equal(document.version, EXPORT_VERSION);
  assert.deepEqual(document.panels[0], {
    name: 'Production',
    address: panel.url,
    allowPlainHttp: false,
    group: 'Acme',
    tags: ['eu'],
    colour: 'red',
    favourite: true,
    // The team's rule: a read-only panel stays so wherever it is imported.
    readOnly: false,
    notes: '',
    generation: 'public',
    loginPath: '/login',
    sessionPath: '/getSession',
    tokenField: null,
    // "Keep me signed in" is the operator's choice for the panel, a setting like the others.
    keepSignedIn: true,
    trustedCertificate: null,
  });
  for (const secret of [...panel.issuedTokens(), DEMO_USER.password, DEMO_USER.email])
    assert.ok(!text.includes(secret), 'no secret or email in the file');
  assert.ok(!/lastCheck|checkedAt|expiresAt|token"/i.test(text), 'no check history');
  assertMode(target, 0o600);

  assert.deepEqual(await app.exportPanels([other.id]), { path: target, count: 1 });
  assert.deepEqual(
    (JSON.parse(readFileSync(target, 'utf8')) as ExportDocument).panels.map((exported) => exported.address),
    ['staging.example.com'],
  );
  await app.flush();
});

test('cancelled: nothing written; an unknown panel: NOT_FOUND; a place that cannot be written: STORAGE', async () => {
  const cancelled = openCore(async () => null);
  await cancelled.addPanel({ address: 'one.example.com' });
  assert.deepEqual(await cancelled.exportPanels(), { path: null, count: 1 });
  await rejectsWith(cancelled.exportPanels(['00000000-0000-4000-8000-000000000099']), 'NOT_FOUND');

  mkdirSync(join(dir.path, 'blocked'), { recursive: true });
  writeFileSync(join(dir.path, 'blocked', 'file'), 'a file, not a folder');
  const blocked = openCore(async () => join(dir.path, 'blocked', 'file', 'panels.json'));
  await rejectsWith(blocked.exportPanels(), 'STORAGE', /write the exported panels/);
  await cancelled.flush();
  await blocked.flush();
});
