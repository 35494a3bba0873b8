/**
 * Runs tasks one after another in the order they were queued; a task that fails does not stop the
 * next. A store's changes go through one, so that each is worked out from the state the one before
 * it left, and its file is never written by two tasks at once.
 */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => task());
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
