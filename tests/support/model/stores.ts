import { openJsonFiles, type OpenStore } from '../../../electron/core/storage/document-store.ts';

/**
 * The app's JSON files in `dir`, as one run of the app opens them: `beforeWrite` may throw to
 * make a write fail (a full disk), and `retire()` stands for the app having quit. Some writes
 * come from timers (the check history is written coalesced), so a core the test has left
 * behind would otherwise write into the folder of a later run, or recreate a deleted folder.
 */
export function appStores(
  dir: string,
  beforeWrite: (name: string, path: string) => void = () => undefined,
): { openStore: OpenStore; retire(): void } {
  const files = openJsonFiles(dir);
  let retired = false;
  const openStore: OpenStore = (name, options) => {
    const store = files(name, options);
    return {
      ...store,
      save: async (change, whole) => {
        // The process is gone: nothing it had pending reaches the disk.
        if (retired) return;
        beforeWrite(name, store.path);
        await store.save(change, whole);
      },
      compact: async (whole) => {
        if (!retired) await store.compact(whole);
      },
    };
  };
  return {
    openStore,
    retire: () => {
      retired = true;
    },
  };
}

export function diskFullError(path: string): Error {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' });
}
