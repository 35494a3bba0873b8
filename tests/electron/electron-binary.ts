import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const electronPackage = join(import.meta.dirname, '..', '..', 'node_modules', 'electron');

/** The executable inside an Electron dist folder, per platform (as the electron package lays it out). */
function executableIn(distDir: string, platformPath: string): string {
  return join(distDir, platformPath);
}

const defaultPlatformPath: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'electron',
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

/**
 * Where the Electron binary is, found without running the electron package's code (which would
 * start a download where there is none): `ELECTRON_OVERRIDE_DIST_PATH`, or the file that
 * `node_modules/electron/path.txt` names under `dist/`.
 */
export function findElectronBinary(): { path: string } | { missing: string } {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const platformPath = defaultPlatformPath[process.platform];
  if (override) {
    if (!platformPath) return { missing: `no known Electron executable name on ${process.platform}` };
    const path = executableIn(override, platformPath);
    return existsSync(path) ? { path } : { missing: `ELECTRON_OVERRIDE_DIST_PATH is set but ${path} does not exist` };
  }
  const pathFile = join(electronPackage, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      missing:
        'the Electron binary was never downloaded (node_modules/electron/path.txt is missing; electron fetches it from GitHub on first run, which this machine cannot reach)',
    };
  }
  const path = executableIn(join(electronPackage, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(path) ? { path } : { missing: `node_modules/electron/path.txt names ${path}, which does not exist` };
}
