/**
 * A clock whose time moves only when a test says so. Timers run in order of due time (then of
 * setting), and promise callbacks get to run after each one, as they would between real timers.
 */
export class FakeClock {
  #now: number;
  #nextHandle = 1;
  readonly #timers = new Map<number, { at: number; run: () => void }>();
  /** The most timers ever pending at once. */
  maxPending = 0;

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const handle = this.#nextHandle++;
    this.#timers.set(handle, { at: this.#now + Math.max(0, ms), run });
    this.maxPending = Math.max(this.maxPending, this.#timers.size);
    return handle;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.#timers.delete(handle);
  }

  pendingCount(): number {
    return this.#timers.size;
  }

  /** When the next timer is due, or null if none is pending. */
  nextTimerAt(): number | null {
    let earliest: number | null = null;
    for (const timer of this.#timers.values()) if (earliest === null || timer.at < earliest) earliest = timer.at;
    return earliest;
  }

  async advanceBy(ms: number): Promise<void> {
    await this.advanceTo(this.#now + ms);
  }

  /** Moves time to `target`, running every timer due on the way, each at its own time. */
  async advanceTo(target: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.#earliestDue(target);
      if (!next) break;
      this.#timers.delete(next.handle);
      this.#now = Math.max(this.#now, next.at);
      next.run();
      await settle();
    }
    this.#now = Math.max(this.#now, target);
  }

  #earliestDue(target: number): { handle: number; at: number; run: () => void } | null {
    let found: { handle: number; at: number; run: () => void } | null = null;
    for (const [handle, timer] of this.#timers) {
      // Map order is setting order, so ties go to the timer set first.
      if (timer.at <= target && (!found || timer.at < found.at)) found = { handle, ...timer };
    }
    return found;
  }
}

/** Lets every pending promise callback run (a real macrotask turn flushes the microtask queue). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
