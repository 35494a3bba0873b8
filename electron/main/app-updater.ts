import type { Log } from '../core/index.ts';
import type { Updater } from './update-checks.ts';

/**
 * electron-updater's `autoUpdater` as an `Updater`: GitHub releases, as electron-builder.yml's
 * `publish` wrote them into the packaged app's app-update.yml. Imported on demand, so a
 * development run (which `UpdateChecks` never lets check) does not even load it.
 */
export async function loadAppUpdater(log: Log): Promise<Updater> {
  // CommonJS whose `autoUpdater` is a getter, which Node's ESM loader cannot list as a named export.
  const { default: electronUpdater } = await import('electron-updater');
  const { autoUpdater } = electronUpdater;
  // UpdateChecks starts the download once a check found a version, so it knows when one is under way.
  autoUpdater.autoDownload = false;
  // A downloaded update the operator did not restart for installs when they quit.
  autoUpdater.autoInstallOnAppQuit = true;
  // Its own lines (checking, found 1.2.3, not available, why a download failed) into the app's log.
  autoUpdater.logger = {
    info: (message?: unknown) => log.info('update.updater', { message: String(message) }),
    warn: (message?: unknown) => log.warn('update.updater', { message: String(message) }),
    error: (message?: unknown) => log.warn('update.updater', { message: String(message) }),
  };
  return {
    check: async () => void (await autoUpdater.checkForUpdates()),
    download: async () => void (await autoUpdater.downloadUpdate()),
    // Silent, then started again: the operator asked for a restart, not for the installer's pages
    // (Windows; macOS ignores both flags).
    quitAndInstall: () => autoUpdater.quitAndInstall(true, true),
    listen: ({ available, downloaded, error }) => {
      autoUpdater.on('update-available', (info) => available(info.version));
      autoUpdater.on('update-downloaded', (event) => downloaded(event.version));
      autoUpdater.on('error', (failure) => error(failure));
    },
  };
}
