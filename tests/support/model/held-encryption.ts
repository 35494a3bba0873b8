import type { Encryption } from '../../../electron/core/index.ts';

/**
 * For scripted interleavings in regression tests: while `holding` is on, every isAvailable,
 * encrypt and decrypt waits until the test lets it go, so a test can run a whole call (a log out)
 * while another (a save under way) sits at one of its awaits. Off, calls go straight through.
 */
export class HeldEncryption implements Encryption {
  holding = false;
  readonly #inner: Encryption;
  readonly #waiting: { label: string; go: () => void }[] = [];

  constructor(inner: Encryption) {
    this.#inner = inner;
  }

  backend(): string {
    return this.#inner.backend();
  }
  isAvailable(): Promise<boolean> {
    return this.#hold('isAvailable', () => this.#inner.isAvailable());
  }
  encrypt(text: string): Promise<Uint8Array> {
    return this.#hold('encrypt', () => this.#inner.encrypt(text));
  }
  decrypt(bytes: Uint8Array): Promise<string> {
    return this.#hold('decrypt', () => this.#inner.decrypt(bytes));
  }

  #hold<T>(label: string, work: () => Promise<T>): Promise<T> {
    if (!this.holding) return work();
    return new Promise<T>((resolve, reject) => this.#waiting.push({ label, go: () => work().then(resolve, reject) }));
  }

  /** Lets held calls go, oldest first, until one labelled `label` is waiting (and keeps that one). */
  async advanceTo(label: string): Promise<void> {
    await this.#loop(() => this.#waiting.some((held) => held.label === label), null, `a held ${label}`);
  }

  /** Lets held calls go, oldest first, except those labelled `keep`, until `promise` settles. */
  async settle(promise: Promise<unknown>, keep: string | null = null): Promise<void> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await this.#loop(() => settled, keep, 'the call to end');
  }

  async #loop(done: () => boolean, keep: string | null, what: string): Promise<void> {
    const deadline = Date.now() + 5000;
    for (;;) {
      // A macrotask: the core's microtasks and any HTTP exchange under way get to run.
      await new Promise((resolve) => setImmediate(resolve));
      if (done()) return;
      const index = this.#waiting.findIndex((held) => held.label !== keep);
      if (index >= 0) this.#waiting.splice(index, 1)[0]!.go();
      else if (Date.now() > deadline)
        throw new Error(`waited 5 s for ${what}; held: ${this.#waiting.map((held) => held.label).join(', ') || 'nothing'}`);
    }
  }
}
