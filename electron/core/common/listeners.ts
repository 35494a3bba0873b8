/**
 * The listeners of one kind of notification (VS Code's `Emitter` and `Event`, made small): `add`
 * subscribes and returns the unsubscribe, `tell` calls each listener in the order they came. A
 * listener that throws is skipped: the change it hears of is made, and the others still hear of it.
 */
export class Listeners<Value> {
  readonly #listeners = new Set<(value: Value) => void>();

  /** Subscribes `listener`; the function returned unsubscribes it (twice is harmless). */
  readonly add = (listener: (value: Value) => void): (() => void) => {
    // Wrapped, so that the same function subscribed twice is told twice and unsubscribed once each.
    const entry = (value: Value) => listener(value);
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  };

  tell(value: Value): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(value);
      } catch {
        // The listener's own failure is its own: the core's call is not failed by it.
      }
    }
  }
}
