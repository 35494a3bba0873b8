import { openJsonFiles, type OpenStore } from '../../../electron/core/index.ts';

/**
 * The data folder's stores, counting each durable write by store name: each `save` of a store is
 * one fsync'd journal line or file (document-store.ts). For the tests and benches that count how
 * many writes a piece of work costs (a fleet's log ins, a pass of checks).
 */
export function countedStores(dir: string, saves: Map<string, number>): OpenStore {
  const open = openJsonFiles(dir);
  return (name, options) => {
    const store = open(name, options);
    return {
      ...store,
      save: (change, whole) => {
        saves.set(name, (saves.get(name) ?? 0) + 1);
        return store.save(change, whole);
      },
    };
  };
}
