export interface KeyedPassOptions<Item, Prepared, Result> {
  /** Most pieces of work in flight over the whole pass. */
  limit: number;
  /** Most pieces of work in flight for one key (one panel), its preparation included. */
  perKey: number;
  keyOf(item: Item): string;
  /**
   * Done once per key, before any of its items starts, in one of its slots (a panel's service list
   * read once per run); its items get what it resolved with. Never rejects.
   */
  prepare(key: string): Promise<Prepared>;
  /** One item's work; never rejects. */
  runOne(item: Item, prepared: Prepared): Promise<Result>;
  /** The answer of an item not started when the pass was cancelled. */
  cancelled(item: Item): Result;
}

/** The items of one key, in the order asked, and how far they went. */
interface KeyGroup<Prepared> {
  key: string;
  indexes: number[];
  next: number;
  running: number;
  preparing: boolean;
  prepared: { value: Prepared } | null;
}

/**
 * Works through items grouped by key (service actions grouped by panel) with at most `limit` in
 * flight over the pass and `perKey` per key, so that a slow key holds back no other key's items;
 * each key is prepared once, in a slot, before its first item. `cancel` starts nothing more: the
 * items not started answer `cancelled` at once, those in flight finish. Results come in the order
 * of the items. One pass per instance.
 */
export class KeyedPass<Item, Prepared, Result> {
  readonly #options: KeyedPassOptions<Item, Prepared, Result>;
  #cancelled = false;
  #settleUnstarted: (() => void) | null = null;

  constructor(options: KeyedPassOptions<Item, Prepared, Result>) {
    this.#options = options;
  }

  run(items: readonly Item[]): Promise<Result[]> {
    const { keyOf, prepare, runOne, cancelled } = this.#options;
    const limit = Math.max(1, Math.floor(this.#options.limit));
    const perKey = Math.max(1, Math.floor(this.#options.perKey));
    const results: Result[] = new Array(items.length);
    const byKey = new Map<string, KeyGroup<Prepared>>();
    // The keys with items not started yet, in the order of their first item; exhausted ones drop out as they are passed.
    const waiting: KeyGroup<Prepared>[] = [];
    for (const [index, item] of items.entries()) {
      const key = keyOf(item);
      let group = byKey.get(key);
      if (!group) {
        group = { key, indexes: [], next: 0, running: 0, preparing: false, prepared: null };
        byKey.set(key, group);
        waiting.push(group);
      }
      group.indexes.push(index);
    }
    let running = 0;
    let settled = 0;
    return new Promise<Result[]>((resolve) => {
      if (items.length === 0) return resolve(results);
      const settle = (index: number, result: Result) => {
        results[index] = result;
        if (++settled === items.length) resolve(results);
      };
      const ended = (group: KeyGroup<Prepared>) => {
        group.running--;
        running--;
        fill();
      };
      const fill = (): void => {
        if (this.#cancelled) return;
        let at = 0;
        while (running < limit && at < waiting.length) {
          const group = waiting[at]!;
          if (group.next >= group.indexes.length) {
            waiting.splice(at, 1);
            continue;
          }
          if (group.running >= perKey || group.preparing) {
            at++;
            continue;
          }
          group.running++;
          running++;
          if (group.prepared === null) {
            group.preparing = true;
            void prepare(group.key).then((value) => {
              group.preparing = false;
              group.prepared = { value };
              ended(group);
            });
            at++;
            continue;
          }
          const index = group.indexes[group.next++]!;
          void runOne(items[index]!, group.prepared.value).then((result) => {
            settle(index, result);
            ended(group);
          });
        }
      };
      this.#settleUnstarted = () => {
        for (const group of waiting) {
          for (; group.next < group.indexes.length; group.next++) {
            const index = group.indexes[group.next]!;
            settle(index, cancelled(items[index]!));
          }
        }
        waiting.length = 0;
      };
      if (this.#cancelled) this.#settleUnstarted();
      else fill();
    });
  }

  /** Starts nothing more; the items not started answer `cancelled` now. */
  cancel(): void {
    this.#cancelled = true;
    this.#settleUnstarted?.();
  }
}
