import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getCurrentFuseWire, FuseState, FuseV1Options } from '@electron/fuses';
import { PACKAGED_FUSES } from './after-pack.ts';

/**
 * Run by hosted CI after `npm run dist` (`node --experimental-strip-types scripts/check-packaged-app.ts
 * release`): the app electron-builder left unpacked in the release folder must carry the fuses
 * after-pack.ts set, and must refuse to run as Node when ELECTRON_RUN_AS_NODE is set. Exits 1
 * with what is wrong. It needs a packaged app, so it cannot run where Electron cannot be had.
 */

/** The unpacked app electron-builder writes beside the installers: `linux-unpacked/`, `win-unpacked/`, `mac*`/. */
export function unpackedApps(releaseDir: string, platform: NodeJS.Platform = process.platform): { fuses: string; executable: string }[] {
  const folders = existsSync(releaseDir) ? readdirSync(releaseDir) : [];
  if (platform === 'darwin') {
    return folders
      .filter((name) => /^mac(-.*)?$/.test(name))
      .map((name) => ({
        fuses: join(releaseDir, name, 'Paneldeck.app'),
        executable: join(releaseDir, name, 'Paneldeck.app', 'Contents', 'MacOS', 'Paneldeck'),
      }));
  }
  const [folder, executable] = platform === 'win32' ? ['win-unpacked', 'Paneldeck.exe'] : ['linux-unpacked', 'paneldeck'];
  return folders.includes(folder)
    ? [{ fuses: join(releaseDir, folder, executable), executable: join(releaseDir, folder, executable) }]
    : [];
}

/** Each fuse of the wire that is not as PACKAGED_FUSES decides. */
export async function fuseProblems(binary: string): Promise<string[]> {
  const wire = await getCurrentFuseWire(binary);
  const problems: string[] = [];
  for (const fuse of Object.values(FuseV1Options)) {
    if (typeof fuse !== 'number') continue;
    const wanted = PACKAGED_FUSES[fuse] ? FuseState.ENABLE : FuseState.DISABLE;
    if (wire[fuse] !== wanted)
      problems.push(
        `${FuseV1Options[fuse]} is ${wire[fuse] === FuseState.ENABLE ? 'on' : 'off'}, should be ${wanted === FuseState.ENABLE ? 'on' : 'off'}`,
      );
  }
  return problems;
}

const MARK = 'PANELDECK_RAN_AS_NODE';

/**
 * Starts the app with ELECTRON_RUN_AS_NODE=1 and a script to evaluate: a refused fuse starts the
 * app instead (or fails without a display), and the script's mark never shows. Stopped after
 * `waitMs` either way.
 */
export function runsAsNode(executable: string, waitMs = 10_000): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(executable, ['-e', `process.stdout.write('${MARK}')`], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill(), waitMs);
    child.on('error', () => undefined);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(output.includes(MARK));
    });
  });
}

async function main(releaseDir: string): Promise<number> {
  const apps = unpackedApps(releaseDir);
  if (apps.length === 0) {
    console.error(`No unpacked app in ${releaseDir}: run npm run dist first.`);
    return 1;
  }
  let failed = false;
  for (const app of apps) {
    const problems = await fuseProblems(app.fuses);
    for (const problem of problems) console.error(`${app.fuses}: ${problem}`);
    if (await runsAsNode(app.executable)) {
      console.error(`${app.executable} ran a script as Node with ELECTRON_RUN_AS_NODE=1`);
      failed = true;
    }
    failed ||= problems.length > 0;
    if (!failed) console.log(`${app.executable}: fuses as decided; ELECTRON_RUN_AS_NODE refused`);
  }
  return failed ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main(process.argv[2] ?? 'release');
