/**
 * Long work on main's event loop, cut into slices: between two slices every IPC call, window event
 * and timer waiting gets its turn. A slice ends once it has run SLICE_MS, so the loop is never held
 * much longer than that by the work, whatever its size.
 */
export const SLICE_MS = 6;

/** Lets everything already waiting on the event loop run (I/O callbacks included), then goes on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Says when the current slice has run its time: `if (slicer.due) await slicer.nextSlice()` between items. */
export class TimeSlicer {
  readonly #budgetMs: number;
  #sliceStart = performance.now();

  constructor(budgetMs = SLICE_MS) {
    this.#budgetMs = budgetMs;
  }

  /** A check, not an await, between items: an await per item would cost more than most items. */
  get due(): boolean {
    return performance.now() - this.#sliceStart >= this.#budgetMs;
  }

  async nextSlice(): Promise<void> {
    await nextTurn();
    this.#sliceStart = performance.now();
  }
}

/** `items.map(map)` in slices; `map` must not depend on what other work does between slices. */
export async function mapInSlices<T, U>(items: readonly T[], map: (item: T, index: number) => U): Promise<U[]> {
  const slicer = new TimeSlicer();
  const results: U[] = [];
  for (let index = 0; index < items.length; index++) {
    results.push(map(items[index]!, index));
    if (slicer.due) await slicer.nextSlice();
  }
  return results;
}
