import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

/**
 * `npm start` on a machine where Electron's binary is missing and cannot be downloaded: the check
 * that runs before the build says so in one sentence and what to do, instead of Electron's stack
 * trace. Run as a child process in a fake project whose node_modules/electron is laid out by hand.
 */

const root = join(import.meta.dirname, '..', '..');
const script = join(root, 'scripts', 'check-electron.ts');
const made: string[] = [];
after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** The executable's name inside Electron's dist folder on this platform, as the electron package writes it to path.txt. */
const executable =
  process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';

/** A project folder with node_modules/electron; `install` is its install.js (what `npx install-electron` runs). */
async function fakeProject({ installed, install }: { installed: boolean; install: string }): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), 'paneldeck-electron-check-'));
  made.push(project);
  const electron = join(project, 'node_modules', 'electron');
  await mkdir(join(electron, 'dist', 'Electron.app', 'Contents', 'MacOS'), { recursive: true });
  await writeFile(join(electron, 'install.js'), install);
  if (installed) {
    await writeFile(join(electron, 'path.txt'), executable);
    await writeFile(join(electron, 'dist', executable), '');
  }
  return project;
}

/** What electron's install.js prints where github.com cannot be reached. */
const OFFLINE_INSTALL = `console.error('RequestError: getaddrinfo ENOTFOUND github.com\\n    at ClientRequest.<anonymous> (/x/got/index.js:1:1)'); process.exit(1);`;

function check(project: string, env: Record<string, string> = {}) {
  const { ELECTRON_OVERRIDE_DIST_PATH: _override, ...inherited } = process.env;
  const run = spawnSync(process.execPath, ['--experimental-strip-types', script], {
    cwd: project,
    env: { ...inherited, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('no binary and no download: one sentence that says what happened and what to do, and a non-zero exit', async () => {
  const project = await fakeProject({ installed: false, install: OFFLINE_INSTALL });
  const { status, stderr } = check(project);
  assert.notEqual(status, 0);
  const message = stderr.trim();
  assert.doesNotMatch(message, /\n\s+at |RequestError|install-electron --no/, 'no stack trace, no advice from Electron');
  assert.equal(message.split('\n').length, 1, `one line, not: ${message}`);
  assert.match(message, /^Paneldeck cannot start: Electron's program is not installed and could not be downloaded/);
  for (const remedy of [/internet access/, /ELECTRON_MIRROR/, /ELECTRON_OVERRIDE_DIST_PATH/]) assert.match(message, remedy);
  assert.match(message, /github\.com could not be reached/, 'the reason, in words');
});

test('the binary named by path.txt is there: the check passes quietly and downloads nothing', async () => {
  const project = await fakeProject({ installed: true, install: `require('node:fs').writeFileSync('ran', ''); process.exit(1);` });
  const { status, stdout, stderr } = check(project);
  assert.equal(status, 0, stderr);
  assert.equal(stdout + stderr, '');
});

test('missing binary on a machine with internet: the check downloads it (as electron would) and passes', async () => {
  const install = `const fs = require('node:fs'); const path = require('node:path');
fs.mkdirSync(path.join(__dirname, 'dist', ${JSON.stringify(executable)}, '..'), { recursive: true });
fs.writeFileSync(path.join(__dirname, 'dist', ${JSON.stringify(executable)}), '');
fs.writeFileSync(path.join(__dirname, 'path.txt'), ${JSON.stringify(executable)});`;
  const project = await fakeProject({ installed: false, install });
  const { status, stderr } = check(project);
  assert.equal(status, 0, stderr);
});

test('ELECTRON_OVERRIDE_DIST_PATH: a folder with the binary passes; one without says which folder, without a download', async () => {
  const project = await fakeProject({ installed: false, install: OFFLINE_INSTALL });
  const dist = join(project, 'own-electron');
  await mkdir(join(dist, 'Electron.app', 'Contents', 'MacOS'), { recursive: true });
  assert.equal(check(project, { ELECTRON_OVERRIDE_DIST_PATH: dist }).status, 1);
  const refused = check(project, { ELECTRON_OVERRIDE_DIST_PATH: dist }).stderr.trim();
  assert.equal(refused.split('\n').length, 1);
  assert.match(
    refused,
    new RegExp(`ELECTRON_OVERRIDE_DIST_PATH names ${dist.replaceAll(/[\\.]/g, '\\$&')}, which holds no Electron program`),
  );
  assert.doesNotMatch(refused, /github/);
  await writeFile(join(dist, executable), '');
  assert.equal(check(project, { ELECTRON_OVERRIDE_DIST_PATH: dist }).status, 0);
});

test('npm start and npm run dev check for Electron before anything is built', async () => {
  const { scripts } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const check = 'node --experimental-strip-types scripts/check-electron.ts && ';
  assert.ok(scripts.start?.startsWith(check), scripts.start);
  assert.ok(scripts.dev?.startsWith(check), scripts.dev);
});
