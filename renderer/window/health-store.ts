import type { PanelServices } from '../../shared/fleet-services.ts';
import type { PanelHealth } from '../../shared/fleet-state.ts';

/**
 * What main last read of each panel, keyed by panel id: the whole at start (`load`), then main's
 * batches (`apply`). Read it with `useSyncExternalStore(store.subscribe, store.getSnapshot)`: the
 * snapshot is a new map per change, and each panel's value is kept as main sent it (immutable), so
 * what is worked out per panel can be kept by its identity.
 */
export class PanelReadStore<T extends { panelId: string; readAt: string }> {
  #byId: ReadonlyMap<string, T> = new Map();
  readonly #listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): ReadonlyMap<string, T> => this.#byId;

  /** The whole (read once at start): what events brought meanwhile is newer and kept. */
  load(all: readonly T[]): void {
    const next = new Map(all.map((read) => [read.panelId, read]));
    for (const [id, read] of this.#byId) if (!next.has(id) || next.get(id)!.readAt < read.readAt) next.set(id, read);
    this.#publish(next);
  }

  /** These panels were read anew (each replaces what was known of it); those `gone` are no longer read (removed, signed out). */
  apply(changed: readonly T[], gone: readonly string[] = []): void {
    if (changed.length === 0 && !gone.some((id) => this.#byId.has(id))) return;
    const next = new Map(this.#byId);
    for (const read of changed) next.set(read.panelId, read);
    for (const id of gone) next.delete(id);
    this.#publish(next);
  }

  #publish(next: ReadonlyMap<string, T>): void {
    this.#byId = next;
    for (const listener of [...this.#listeners]) listener();
  }
}

/** Each panel's state as the last check read it (services, load, version): `getFleetState`, then `fleetStateChanged`. */
export class HealthStore extends PanelReadStore<PanelHealth> {}

/** Each signed-in panel's services as main last read them: `getFleetServices`, then `fleetServicesChanged`. */
export class FleetServicesStore extends PanelReadStore<PanelServices> {}
