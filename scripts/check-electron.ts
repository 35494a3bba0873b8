import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findElectronBinary } from './electron-binary.ts';

/**
 * Runs before `npm start` and `npm run dev` build anything: Electron's program must be on disk.
 * The electron package downloads it on first run; where that cannot happen it ends in its own
 * stack trace. Here the download is tried the same way (electron's install.js, which honours
 * ELECTRON_MIRROR), and when it fails the operator reads one sentence: what happened, what to do.
 */
const electronPackage = join(process.cwd(), 'node_modules', 'electron');
const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
const version = electronVersion();
const remedies = `set ELECTRON_MIRROR to a mirror of Electron's downloads that you can reach, or set ELECTRON_OVERRIDE_DIST_PATH to a folder holding ${version}`;

let found = findElectronBinary(electronPackage, override);
if ('missing' in found && !override && existsSync(join(electronPackage, 'install.js'))) {
  console.log(`Electron's program is not installed yet: downloading ${version} once…`);
  const install = spawnSync(process.execPath, [join(electronPackage, 'install.js')], {
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  found = findElectronBinary(electronPackage, override);
  if ('missing' in found) {
    fail(
      `Electron's program is not installed and could not be downloaded (${downloadProblem(`${install.stderr ?? ''}\n${install.stdout ?? ''}`, install.error)}): run npm start again with internet access (Electron downloads its program once), or ${remedies}.`,
    );
  }
}
if ('missing' in found) {
  if (found.reason === 'override') {
    fail(
      `ELECTRON_OVERRIDE_DIST_PATH names ${override}, which holds no Electron program (${found.missing}): point it at the folder of an unpacked ${version}, or unset it to let Electron download its own.`,
    );
  }
  fail(`${found.missing}: run npm install again with internet access, or ${remedies}.`);
}

function fail(sentence: string): never {
  console.error(`Paneldeck cannot start: ${sentence}`);
  process.exit(1);
}

/** The installed electron package's version, as the download would fetch it. */
function electronVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(join(electronPackage, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? `Electron ${version}` : 'Electron';
  } catch {
    return 'Electron';
  }
}

/** Where electron's install.js downloads from: ELECTRON_MIRROR when set, else GitHub. */
function downloadHost(): string {
  try {
    return process.env.ELECTRON_MIRROR ? new URL(process.env.ELECTRON_MIRROR).host : 'github.com';
  } catch {
    return process.env.ELECTRON_MIRROR ?? 'github.com';
  }
}

/** Why the download failed, in words: a host that could not be reached, or the first line the download printed. */
function downloadProblem(output: string, error: Error | undefined): string {
  if (error) return (error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? 'it took more than 10 minutes' : error.message;
  const host = /\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET)\s+(\S+?)(?::\d+)?(?:\s|$)/.exec(output);
  if (host) return `${host[1]} could not be reached`;
  const first = output
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  return `the download from ${downloadHost()} failed${first ? `: ${first.slice(0, 160)}` : ''}`;
}
