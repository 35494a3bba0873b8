/** A pass's result as kept, with when its pass started (epoch ms). */
export interface Kept<T> {
  at: number;
  value: T;
}

export interface KeptPassOptions<T> {
  /** How long a pass's result stands before the next `get` reads again by itself. */
  keptMs: number;
  now(): Date;
  /** One pass over the fleet, given the last result kept (null: none); never rejects in normal use. */
  read(previous: T | null): Promise<T>;
  /** Where results are kept across runs (on disk): read at the first `get`, written after each pass (a failure to write does not fail the pass). */
  store?: KeptStore<T>;
}

export interface KeptStore<T> {
  /** The result kept by an earlier run; null: none. */
  load(): Promise<Kept<T> | null>;
  save(kept: Kept<T>): Promise<void>;
}

/**
 * A fleet-wide read that is costly (a request to every panel, a handshake with every website):
 * kept for `keptMs` and read again only after it, or when the operator asks (`refresh`); one pass
 * at a time, a second caller meanwhile waiting for the same one. Used by the Certificates and
 * Backups views.
 */
export class KeptPass<T> {
  readonly #options: KeptPassOptions<T>;
  #kept: Kept<T> | null | undefined;
  #pass: Promise<T> | null = null;

  constructor(options: KeptPassOptions<T>) {
    this.#options = options;
  }

  async get(refresh = false): Promise<T> {
    const { keptMs, now, read, store } = this.#options;
    if (this.#kept === undefined) {
      const loaded = (await store?.load().catch(() => null)) ?? null;
      // Another caller may have loaded or read meanwhile.
      if (this.#kept === undefined) this.#kept = loaded;
    }
    const kept = this.#kept;
    if (kept && now().getTime() - kept.at < keptMs && !refresh && !this.#pass) return kept.value;
    if (!this.#pass) {
      const at = now().getTime();
      const pass = read(kept?.value ?? null).then(async (value) => {
        this.#kept = { at, value };
        await store?.save(this.#kept).catch(() => undefined);
        return value;
      });
      this.#pass = pass;
      void pass.finally(() => (this.#pass = null)).catch(() => undefined);
    }
    return this.#pass;
  }
}
