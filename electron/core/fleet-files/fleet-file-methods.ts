import type { CoreMethods } from '../context/core-context.ts';
import type { FleetFiles } from './fleet-files.ts';

/** The fleet files as the contract has them: main's dialogs choose every path, the window never names one. */
export function fleetFileMethods(
  files: FleetFiles,
  choose: { chooseFleetFile?: () => Promise<string | null>; chooseNewFleetFile?: () => Promise<string | null> },
): CoreMethods<
  | 'listFleetFiles'
  | 'openFleetFile'
  | 'createFleetFile'
  | 'shareInFleetFile'
  | 'closeFleetFile'
  | 'resolveFleetConflict'
  | 'trustFleetFilePin'
> {
  return {
    async listFleetFiles() {
      await files.start();
      return files.list();
    },
    async openFleetFile() {
      const path = (await choose.chooseFleetFile?.()) ?? null;
      return path === null ? null : files.open(path);
    },
    async createFleetFile(panelIds) {
      const path = (await choose.chooseNewFleetFile?.()) ?? null;
      return path === null ? null : files.create(path, panelIds);
    },
    shareInFleetFile(panelIds, fileId) {
      return files.share(panelIds, fileId);
    },
    closeFleetFile(fileId) {
      return files.close(fileId);
    },
    resolveFleetConflict(fileId, choice) {
      return files.resolve(fileId, choice);
    },
    trustFleetFilePin(fileId, address) {
      return files.trustPin(fileId, address);
    },
  };
}
