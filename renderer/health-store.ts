import type { PanelHealth } from '../shared/fleet-state.ts';

/**
 * Each panel's state as the last check read it (services, load, version), fed by `getFleetState`
 * at start and main's batched `fleetStateChanged`. Read it with
 * `useSyncExternalStore(store.subscribe, store.getSnapshot)`: the snapshot is a new map per change.
 */
export class HealthStore {
  #byId: ReadonlyMap<string, PanelHealth> = new Map();
  readonly #listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): ReadonlyMap<string, PanelHealth> => this.#byId;

  /** The whole state (`getFleetState`): what events brought meanwhile is newer and kept. */
  load(all: readonly PanelHealth[]): void {
    const next = new Map(all.map((health) => [health.panelId, health]));
    for (const [id, health] of this.#byId) if (!next.has(id) || next.get(id)!.readAt < health.readAt) next.set(id, health);
    this.#publish(next);
  }

  /** A check read these panels' state (`fleetStateChanged`): each replaces what was known of it. */
  apply(changed: readonly PanelHealth[]): void {
    if (changed.length === 0) return;
    const next = new Map(this.#byId);
    for (const health of changed) next.set(health.panelId, health);
    this.#publish(next);
  }

  #publish(next: ReadonlyMap<string, PanelHealth>): void {
    this.#byId = next;
    for (const listener of [...this.#listeners]) listener();
  }
}
