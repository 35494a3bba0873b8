/** What every pass's work answers per panel: at least which panel it is about. */
export interface PanelAnswer {
  panelId: string;
}

export interface BoundedPassOptions<Result extends PanelAnswer> {
  /** Read at every start of a request, so a changed setting applies to the pass under way. */
  concurrency(): number;
  /**
   * Does one panel's work; resolves with its outcome, never rejects. `signal` is aborted on
   * cancel: work that must finish once started (a log in) leaves it unread.
   */
  checkOne(panelId: string, signal: AbortSignal): Promise<Result>;
  /** The answer of a panel whose work had not started when the pass was cancelled. */
  cancelled(panelId: string, at: Date): Result;
  onProgress?(done: number, total: number): void;
  now(): Date;
}

interface Waiter<Result> {
  ids: readonly string[];
  /** Its own answers: a panel asked for again later in the pass is read again for the later call only. */
  results: Map<string, Result>;
  resolve(checks: Result[]): void;
}

interface Pass<Result> {
  /** Every id of the pass in the order it came; `next` is the first not started yet. */
  order: string[];
  next: number;
  ids: Set<string>;
  /** Panels read (or answered) so far in this pass: `done` of the progress. */
  done: number;
  settled: Set<string>;
  waitersById: Map<string, Waiter<Result>[]>;
  running: number;
  controller: AbortController;
  lastProgressAt: number;
  ended: boolean;
}

const PROGRESS_EVERY_MS = 100;

/**
 * Works through many panels with a bounded number of requests in flight (checks, log ins). One
 * pass at a time: a call while a pass runs joins it (its panels are added to the pass, and it
 * resolves when they are done), so a background pass and "Check all" never double the load on a
 * panel. `cancel` aborts the signal of the work in flight and answers the rest with `cancelled`
 * without a request: from its return on, no work starts in that pass.
 */
export class BoundedPass<Result extends PanelAnswer> {
  readonly #options: BoundedPassOptions<Result>;
  #pass: Pass<Result> | null = null;

  constructor(options: BoundedPassOptions<Result>) {
    this.#options = options;
  }

  check(ids: readonly string[]): Promise<Result[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return Promise.resolve([]);
    const pass = this.#pass ?? this.#startPass();
    const promise = new Promise<Result[]>((resolve) => {
      const waiter: Waiter<Result> = { ids: unique, results: new Map(), resolve };
      for (const id of unique) {
        const waiters = pass.waitersById.get(id);
        if (waiters) waiters.push(waiter);
        else pass.waitersById.set(id, [waiter]);
        if (!pass.ids.has(id)) {
          pass.ids.add(id);
          pass.order.push(id);
        } else if (pass.settled.delete(id)) {
          // Read already in this pass, and asked for again (its session may have ended since, as
          // an expiry recheck says): read again rather than answer with what may be stale.
          pass.order.push(id);
        }
      }
    });
    this.#report(pass, true);
    this.#fill(pass);
    return promise;
  }

  cancel(): void {
    const pass = this.#pass;
    if (!pass) return;
    pass.controller.abort();
    const at = this.#options.now();
    // Not started yet: answered without a request. Those in flight answer through their abort.
    for (; pass.next < pass.order.length; pass.next++) this.#settle(pass, this.#options.cancelled(pass.order[pass.next]!, at));
    // A check asked for from now on starts a pass of its own, not one whose reads are being aborted.
    this.#pass = null;
    this.#endIfIdle(pass);
  }

  #startPass(): Pass<Result> {
    const pass: Pass<Result> = {
      order: [],
      next: 0,
      ids: new Set(),
      done: 0,
      settled: new Set(),
      waitersById: new Map(),
      running: 0,
      controller: new AbortController(),
      lastProgressAt: 0,
      ended: false,
    };
    this.#pass = pass;
    return pass;
  }

  #fill(pass: Pass<Result>): void {
    const limit = Math.max(1, Math.floor(this.#options.concurrency()));
    while (pass.running < limit && pass.next < pass.order.length && !pass.controller.signal.aborted) {
      const panelId = pass.order[pass.next++]!;
      pass.running++;
      void this.#options.checkOne(panelId, pass.controller.signal).then((check) => {
        pass.running--;
        this.#settle(pass, check);
        this.#fill(pass);
        this.#endIfIdle(pass);
      });
    }
  }

  #settle(pass: Pass<Result>, check: Result): void {
    pass.done++;
    pass.settled.add(check.panelId);
    for (const waiter of pass.waitersById.get(check.panelId) ?? []) {
      waiter.results.set(check.panelId, check);
      if (waiter.results.size === waiter.ids.length) waiter.resolve(waiter.ids.map((id) => waiter.results.get(id)!));
    }
    pass.waitersById.delete(check.panelId);
    this.#report(pass, false);
  }

  #endIfIdle(pass: Pass<Result>): void {
    if (pass.running > 0 || pass.next < pass.order.length || pass.ended) return;
    pass.ended = true;
    if (this.#pass === pass) this.#pass = null;
    this.#report(pass, true);
  }

  /** At most every 100 ms, and always at the start and the end: a pass of thousands sends a few dozen. */
  #report(pass: Pass<Result>, always: boolean): void {
    const now = Date.now();
    const done = pass.done;
    const total = pass.order.length;
    if (!always && done < total && now - pass.lastProgressAt < PROGRESS_EVERY_MS) return;
    pass.lastProgressAt = now;
    try {
      this.#options.onProgress?.(done, total);
    } catch {
      // A listener that throws must not stall the pass: the panels after it still get read.
    }
  }
}
