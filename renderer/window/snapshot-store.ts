/**
 * A small store of one immutable snapshot, read with `useSyncExternalStore(store.subscribe,
 * store.getSnapshot)`: each change makes a new snapshot and tells the listeners, and a change that
 * changes nothing (every field the same) makes none, so nothing renders again for it.
 */
export class SnapshotStore<T extends object> {
  #snapshot: T;
  readonly #listeners = new Set<() => void>();

  constructor(initial: T) {
    this.#snapshot = initial;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): T => this.#snapshot;

  protected update(change: Partial<T>): void {
    const current = this.#snapshot;
    if ((Object.keys(change) as (keyof T)[]).every((key) => Object.is(change[key], current[key]))) return;
    this.#snapshot = { ...current, ...change };
    for (const listener of [...this.#listeners]) listener();
  }
}
