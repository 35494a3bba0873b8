import type { SchedulerClock, SystemState } from './check-scheduler.ts';

/**
 * The fleet's daily reads in the background (the backups, the certificates): each is a kept pass
 * (`kept-pass.ts`) that reads the fleet only once its day has passed, so asking it every hour reads
 * once a day, and a start within the day reads nothing. Asked one after another, never two at once
 * (each is a pass over every panel), first a while after the start (the first checks of the fleet
 * go first), then hourly; not while the system is offline, nor while background checks are off
 * (interval 0), which turns the background off as a whole.
 */

export interface DailyReadsTiming {
  /** From the start to the first time the reads are asked. */
  firstMs: number;
  /** Between one round of asking and the next. */
  everyMs: number;
}

export const DEFAULT_DAILY_TIMING: Readonly<DailyReadsTiming> = Object.freeze({ firstMs: 3 * 60_000, everyMs: 60 * 60_000 });

export interface DailyReadsOptions {
  clock: SchedulerClock;
  system: Pick<SystemState, 'isOnline'>;
  settings(): { checkIntervalMinutes: number };
  /** Each read, as its view asks it without a refresh: it reads the fleet only when its kept result is a day old. */
  reads: readonly (() => Promise<unknown>)[];
  onError?(error: unknown): void;
  timing?: Partial<DailyReadsTiming>;
}

export class DailyReads {
  readonly #options: DailyReadsOptions;
  readonly #timing: DailyReadsTiming;
  #timer: unknown = null;
  #stopped = false;
  /** The round under way: the next is planned only once it ended. */
  #round: Promise<void> | null = null;

  constructor(options: DailyReadsOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_DAILY_TIMING, ...options.timing };
  }

  start(): void {
    if (this.#stopped || this.#timer !== null || this.#round) return;
    this.#plan(this.#timing.firstMs);
  }

  /** Nothing more is asked; a read under way finishes by itself (its result is kept for the view). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** The round under way, if any: for tests and a quit that waits. */
  whenIdle(): Promise<void> {
    return this.#round ?? Promise.resolve();
  }

  #plan(ms: number): void {
    this.#timer = this.#options.clock.setTimeout(() => {
      this.#timer = null;
      this.#round = this.#ask().finally(() => {
        this.#round = null;
        if (!this.#stopped) this.#plan(this.#timing.everyMs);
      });
    }, ms);
  }

  async #ask(): Promise<void> {
    const { system, settings, reads, onError } = this.#options;
    for (const read of reads) {
      // Looked at before each read: going offline or turning the background off mid-round stops the rest.
      if (this.#stopped || !system.isOnline() || settings().checkIntervalMinutes === 0) return;
      try {
        await read();
      } catch (error) {
        try {
          onError?.(error);
        } catch {
          // An error sink that fails is no reason to stop the reads.
        }
      }
    }
  }
}
