import { useSyncExternalStore } from 'react';

/**
 * How often the window's one clock ticks. Durations are said in whole minutes rounded down
 * (shared/durations.ts): ten seconds keeps every count at most that late, for a render per tick.
 */
export const CLOCK_TICK_MS = 10_000;
/** A catch-up closer than this to the last reading changes nothing: ten thousand panels changing is one render, not ten thousand. */
const CATCH_UP_MS = 1_000;

/**
 * The window's one clock for every countdown and "ago" text ("expires in 9 min", "Session ends
 * in 9 min", "checked 3 min ago"): one reading of the time shared by all of them, so two texts
 * on one screen never disagree. It ticks only while something shows a relative time, and catches
 * up at once when what it measures arrives (`catchUp`), so a check that just ended is "just now".
 */
export class WindowClock {
  #now = Date.now();
  #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setInterval> | null = null;

  readonly now = (): number => this.#now;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    if (this.#timer === null) {
      this.#read();
      this.#timer = setInterval(() => this.#read(), CLOCK_TICK_MS);
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0 && this.#timer !== null) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    };
  };

  /** News arrived (a check, a session read): read the time again unless it was read a moment ago. */
  readonly catchUp = (): void => {
    if (Date.now() - this.#now >= CATCH_UP_MS) this.#read();
  };

  #read(): void {
    const now = Date.now();
    if (now === this.#now) return;
    this.#now = now;
    for (const listener of this.#listeners) listener();
  }
}

/** The window's clock as a component reads it: renders again at each tick. */
export function useClock(clock: WindowClock): number {
  return useSyncExternalStore(clock.subscribe, clock.now);
}
