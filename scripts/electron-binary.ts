import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The electron package of this project: node_modules/electron beside package.json. */
export const projectElectronPackage = join(import.meta.dirname, '..', 'node_modules', 'electron');

const defaultPlatformPath: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'electron',
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

/** Why no binary was found: none was downloaded, path.txt names one that is gone, or the override folder holds none. */
export type MissingElectron = { missing: string; reason: 'not-downloaded' | 'gone' | 'override' | 'platform' };

/**
 * Where the Electron binary is, found without running the electron package's code (which would
 * start a download where there is none): `ELECTRON_OVERRIDE_DIST_PATH`, or the file that
 * `node_modules/electron/path.txt` names under `dist/`.
 */
export function findElectronBinary(
  electronPackage = projectElectronPackage,
  override = process.env.ELECTRON_OVERRIDE_DIST_PATH,
): { path: string } | MissingElectron {
  const platformPath = defaultPlatformPath[process.platform];
  if (override) {
    if (!platformPath) return { missing: `no known Electron executable name on ${process.platform}`, reason: 'platform' };
    const path = join(override, platformPath);
    return existsSync(path) ? { path } : { missing: `ELECTRON_OVERRIDE_DIST_PATH is set but ${path} does not exist`, reason: 'override' };
  }
  const pathFile = join(electronPackage, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      missing:
        'the Electron binary was never downloaded (node_modules/electron/path.txt is missing; electron fetches it from GitHub on first run, which this machine cannot reach)',
      reason: 'not-downloaded',
    };
  }
  const path = join(electronPackage, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(path) ? { path } : { missing: `node_modules/electron/path.txt names ${path}, which does not exist`, reason: 'gone' };
}
