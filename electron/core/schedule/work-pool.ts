export interface WorkPoolOptions<Item, Prepared, Result> {
  /**
   * Most pieces of work in flight over the pool. A function is read at every start, so that a
   * changed setting (checks at once) applies to the pass under way.
   */
  limit: number | (() => number);
  /** Most pieces of work in flight for one key (one panel), its preparation included. Default: no bound of its own. */
  perKey?: number;
  /** Default: every item a key of its own. */
  keyOf?(item: Item): string;
  /**
   * Done once per key, before any of its items starts, in one of its slots (a panel's service list
   * read once per run); its items get what it resolved with. Never rejects. Without it, items get
   * `undefined` (`Prepared` is then `undefined`).
   */
  prepare?(key: string): Promise<Prepared>;
  /**
   * One item's work; never rejects. `signal` is aborted on cancel: work that must finish once
   * started (a log in, a write) leaves it unread.
   */
  runOne(item: Item, prepared: Prepared, signal: AbortSignal): Promise<Result>;
  /** The answer of an item not started when the pool was cancelled. */
  cancelled(item: Item): Result;
}

interface Entry<Item, Result> {
  item: Item;
  settle(result: Result): void;
}

/** The items of one key, in the order asked, and how far they went. */
interface KeyGroup<Item, Prepared, Result> {
  key: string;
  entries: Entry<Item, Result>[];
  next: number;
  running: number;
  preparing: boolean;
  prepared: { value: Prepared } | null;
  /** In `waiting`: it had items not started when it was last passed. */
  listed: boolean;
}

/**
 * The one scheduler of work over many panels (checks, log ins, console runs, actions across
 * panels): items grouped by key with at most `limit` in flight over the pool and `perKey` per key,
 * so that a slow key holds back no other key's items; each key is prepared once, in a slot, before
 * its first item. Items join the pool while it runs (`run` may be called again) and start in the
 * order they came, key by key. `cancel` aborts the signal of the work in flight and starts nothing
 * more: the items not started answer `cancelled` at once, and so does every item given after. One
 * pass per instance.
 */
export class WorkPool<Item, Prepared = undefined, Result = unknown> {
  readonly #options: WorkPoolOptions<Item, Prepared, Result>;
  readonly #controller = new AbortController();
  readonly #groups = new Map<string, KeyGroup<Item, Prepared, Result>>();
  /** The keys with items not started yet, in the order of their first item; exhausted ones drop out as they are passed. */
  readonly #waiting: KeyGroup<Item, Prepared, Result>[] = [];
  #running = 0;

  constructor(options: WorkPoolOptions<Item, Prepared, Result>) {
    this.#options = options;
  }

  /** The items' results, in their order, once each has one; the items join whatever the pool is doing. */
  run(items: readonly Item[]): Promise<Result[]> {
    if (items.length === 0) {
      // Still a moment to read the limit again: a raised one starts more of what waits.
      this.#fill();
      return Promise.resolve([]);
    }
    return new Promise<Result[]>((resolve) => {
      const results: Result[] = new Array(items.length);
      let left = items.length;
      for (const [index, item] of items.entries()) {
        this.#add(item, (result) => {
          results[index] = result;
          if (--left === 0) resolve(results);
        });
      }
      this.#fill();
    });
  }

  /** Starts nothing more and aborts the work in flight; the items not started answer `cancelled` now. */
  cancel(): void {
    if (this.#controller.signal.aborted) return;
    this.#controller.abort();
    for (const group of this.#waiting) {
      group.listed = false;
      for (; group.next < group.entries.length; group.next++) {
        const { item, settle } = group.entries[group.next]!;
        settle(this.#options.cancelled(item));
      }
    }
    this.#waiting.length = 0;
  }

  #add(item: Item, settle: (result: Result) => void): void {
    if (this.#controller.signal.aborted) return settle(this.#options.cancelled(item));
    const { keyOf, prepare } = this.#options;
    const key = keyOf?.(item);
    // An item of no key is a group of its own, kept nowhere but in `waiting`: a pool fed for hours keeps none of them.
    let group = key === undefined ? undefined : this.#groups.get(key);
    if (!group) {
      const prepared = prepare ? null : { value: undefined as Prepared };
      group = { key: key ?? '', entries: [], next: 0, running: 0, preparing: false, prepared, listed: false };
      if (key !== undefined) this.#groups.set(key, group);
    }
    group.entries.push({ item, settle });
    if (!group.listed) {
      group.listed = true;
      this.#waiting.push(group);
    }
  }

  #fill(): void {
    const { limit, prepare, runOne } = this.#options;
    const signal = this.#controller.signal;
    if (signal.aborted) return;
    const most = Math.max(1, Math.floor(typeof limit === 'function' ? limit() : limit));
    const perKey = Math.max(1, Math.floor(this.#options.perKey ?? Infinity));
    let at = 0;
    while (this.#running < most && at < this.#waiting.length) {
      const group = this.#waiting[at]!;
      if (group.next >= group.entries.length) {
        group.listed = false;
        // The first is the one passed most often (every key of its own): shifting it is cheap.
        if (at === 0) this.#waiting.shift();
        else this.#waiting.splice(at, 1);
        continue;
      }
      if (group.running >= perKey || group.preparing) {
        at++;
        continue;
      }
      group.running++;
      this.#running++;
      if (group.prepared === null) {
        group.preparing = true;
        void prepare!(group.key).then((value) => {
          group.preparing = false;
          group.prepared = { value };
          this.#ended(group);
        });
        at++;
        continue;
      }
      const { item, settle } = group.entries[group.next++]!;
      void runOne(item, group.prepared!.value, signal).then((result) => {
        settle(result);
        this.#ended(group);
      });
    }
  }

  #ended(group: KeyGroup<Item, Prepared, Result>): void {
    group.running--;
    this.#running--;
    this.#fill();
  }
}
