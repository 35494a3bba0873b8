import type { PanelBridge } from '../../shared/contract/bridge.ts';
import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { ServerStats, ServiceList } from '../../shared/services.ts';
import { failureInfo } from './failure-info.ts';

/**
 * The window's one home for what it read from a panel through main (its services, the server's
 * load), keyed by panel id: a tab shows what was read last at once, and a read runs in the
 * background while it does. Read with `useSyncExternalStore(store.subscribe, () => store.state(id))`;
 * a panel's state object changes only when something in it did.
 */

export interface ReadState<T> {
  /** The last answer; kept while a new read runs and after one fails. */
  value: T | null;
  loading: boolean;
  /** Why the last read failed; null after one that answered. */
  error: ErrorInfo | null;
}

const NOTHING_READ: ReadState<never> = Object.freeze({ value: null, loading: false, error: null });

export class ReadStore<T> {
  readonly #read: (panelId: string) => Promise<T>;
  readonly #states = new Map<string, ReadState<T>>();
  /** Each panel's read in flight: a second ask joins it. Dropped by `forget`, so its answer is not kept. */
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #listeners = new Set<() => void>();

  constructor(read: (panelId: string) => Promise<T>) {
    this.#read = read;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  state(panelId: string): ReadState<T> {
    return this.#states.get(panelId) ?? NOTHING_READ;
  }

  /** Reads the panel again, unless a read of it is under way (then it waits for that one). */
  load(panelId: string): Promise<void> {
    const running = this.#inFlight.get(panelId);
    if (running) return running;
    this.#set(panelId, { ...this.state(panelId), loading: true });
    const reading: Promise<void> = this.#read(panelId).then(
      (value) => this.#settle(panelId, reading, { value, loading: false, error: null }),
      (caught: unknown) => this.#settle(panelId, reading, { ...this.state(panelId), loading: false, error: failureInfo(caught) }),
    );
    this.#inFlight.set(panelId, reading);
    return reading;
  }

  /** Forgets what was read of the panel (its sign-in ended): a new sign-in must never show it. */
  forget(panelId: string): void {
    this.#inFlight.delete(panelId);
    if (this.#states.delete(panelId)) this.#notify();
  }

  /** The panels something was read of. */
  panelIds(): string[] {
    return [...this.#states.keys()];
  }

  #settle(panelId: string, reading: Promise<void>, next: ReadState<T>): void {
    // Forgotten meanwhile (a log out): the answer belongs to a sign-in that ended.
    if (this.#inFlight.get(panelId) !== reading) return;
    this.#inFlight.delete(panelId);
    this.#set(panelId, next);
  }

  #set(panelId: string, next: ReadState<T>): void {
    this.#states.set(panelId, next);
    this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The reads the panel view's tabs show. */
export interface PanelReads {
  services: ReadStore<ServiceList>;
  stats: ReadStore<ServerStats>;
}

export function createPanelReads(api: Pick<PanelBridge, 'listServices' | 'getServerStats'>): PanelReads {
  return {
    services: new ReadStore((panelId) => api.listServices(panelId)),
    stats: new ReadStore((panelId) => api.getServerStats(panelId)),
  };
}

/** Forgets the reads of every panel not signed in now (`signedIn` says, per id). */
export function forgetSignedOut(reads: PanelReads, signedIn: (panelId: string) => boolean): void {
  for (const store of [reads.services, reads.stats] as ReadStore<unknown>[]) {
    for (const panelId of store.panelIds()) if (!signedIn(panelId)) store.forget(panelId);
  }
}
