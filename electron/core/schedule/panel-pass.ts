import { WorkPool } from './work-pool.ts';

/** What every pass's work answers per panel: at least which panel it is about. */
export interface PanelAnswer {
  panelId: string;
}

export interface PanelPassOptions<Result extends PanelAnswer> {
  /** Read at every start of a request, so a changed setting applies to the pass under way. */
  concurrency(): number;
  /**
   * Does one panel's work; resolves with its outcome, never rejects. `signal` is aborted on
   * cancel: work that must finish once started (a log in) leaves it unread.
   */
  runOne(panelId: string, signal: AbortSignal): Promise<Result>;
  /** The answer of a panel whose work had not started when the pass was cancelled. */
  cancelled(panelId: string, at: Date): Result;
  onProgress?(done: number, total: number): void;
  now(): Date;
}

interface Waiter<Result> {
  ids: readonly string[];
  /** Its own answers: a panel asked for again later in the pass is read again for the later call only. */
  results: Map<string, Result>;
  resolve(answers: Result[]): void;
}

interface Pass<Result> {
  pool: WorkPool<string, undefined, Result>;
  /** Every panel of the pass. */
  ids: Set<string>;
  /** Pieces of work asked for in this pass (a panel read again counts again): `total` of the progress. */
  total: number;
  /** Pieces answered so far: `done` of the progress. */
  done: number;
  settled: Set<string>;
  waitersById: Map<string, Waiter<Result>[]>;
  /** When the pass was cancelled: the time the panels not started answer with. */
  cancelledAt: Date | null;
  lastProgressAt: number;
  ended: boolean;
}

const PROGRESS_EVERY_MS = 100;

/**
 * One piece of work per panel (a session check, a log in, a console call) over many panels, in one
 * pass at a time on the work pool: a call while a pass runs joins it (its panels are added to the
 * pass, and it resolves when they are done), so a background pass and "Check all" never double the
 * load on a panel. `cancel` aborts the signal of the work in flight and answers the rest with
 * `cancelled` without a request: from its return on, no work starts in that pass.
 */
export class PanelPass<Result extends PanelAnswer> {
  readonly #options: PanelPassOptions<Result>;
  #pass: Pass<Result> | null = null;

  constructor(options: PanelPassOptions<Result>) {
    this.#options = options;
  }

  /** The work of each of `ids` (each once), in their order, joining the pass under way. */
  run(ids: readonly string[]): Promise<Result[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return Promise.resolve([]);
    const pass = this.#pass ?? this.#startPass();
    const queued: string[] = [];
    const promise = new Promise<Result[]>((resolve) => {
      const waiter: Waiter<Result> = { ids: unique, results: new Map(), resolve };
      for (const id of unique) {
        const waiters = pass.waitersById.get(id);
        if (waiters) waiters.push(waiter);
        else pass.waitersById.set(id, [waiter]);
        if (!pass.ids.has(id)) {
          pass.ids.add(id);
          queued.push(id);
        } else if (pass.settled.delete(id)) {
          // Read already in this pass, and asked for again (its session may have ended since, as
          // an expiry recheck says): read again rather than answer with what may be stale.
          queued.push(id);
        }
      }
    });
    pass.total += queued.length;
    this.#report(pass, true);
    // Answered through `#settle` as each ends; the pool's own list of results is not needed.
    void pass.pool.run(queued);
    return promise;
  }

  cancel(): void {
    const pass = this.#pass;
    if (!pass) return;
    pass.cancelledAt = this.#options.now();
    // Not started yet: answered without a request. Those in flight answer through their abort.
    pass.pool.cancel();
    // Work asked for from now on starts a pass of its own, not one whose work is being aborted.
    if (this.#pass === pass) this.#pass = null;
  }

  #startPass(): Pass<Result> {
    const pass: Pass<Result> = {
      pool: new WorkPool<string, undefined, Result>({
        limit: () => this.#options.concurrency(),
        runOne: async (panelId, _prepared, signal) => this.#settle(pass, await this.#options.runOne(panelId, signal)),
        cancelled: (panelId) => this.#settle(pass, this.#options.cancelled(panelId, pass.cancelledAt ?? this.#options.now())),
      }),
      ids: new Set(),
      total: 0,
      done: 0,
      settled: new Set(),
      waitersById: new Map(),
      cancelledAt: null,
      lastProgressAt: 0,
      ended: false,
    };
    this.#pass = pass;
    return pass;
  }

  /** One panel's answer to its waiters, as soon as it comes (before the pool starts the next); the pass ends with its last. */
  #settle(pass: Pass<Result>, answer: Result): Result {
    pass.done++;
    pass.settled.add(answer.panelId);
    for (const waiter of pass.waitersById.get(answer.panelId) ?? []) {
      waiter.results.set(answer.panelId, answer);
      if (waiter.results.size === waiter.ids.length) waiter.resolve(waiter.ids.map((id) => waiter.results.get(id)!));
    }
    pass.waitersById.delete(answer.panelId);
    this.#report(pass, false);
    if (pass.done === pass.total && !pass.ended) {
      pass.ended = true;
      if (this.#pass === pass) this.#pass = null;
      this.#report(pass, true);
    }
    return answer;
  }

  /** At most every 100 ms, and always at the start and the end: a pass of thousands sends a few dozen. */
  #report(pass: Pass<Result>, always: boolean): void {
    const now = Date.now();
    const { done, total } = pass;
    if (!always && done < total && now - pass.lastProgressAt < PROGRESS_EVERY_MS) return;
    pass.lastProgressAt = now;
    try {
      this.#options.onProgress?.(done, total);
    } catch {
      // A listener that throws must not stall the pass: the panels after it still get read.
    }
  }
}
