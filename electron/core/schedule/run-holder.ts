import { PanelError } from '../../../shared/contract/errors.ts';

/** What a run is to its holder: something that can be told to start no more. */
export interface Cancellable {
  cancel(): void;
}

/**
 * One run at a time of a kind (a log in to several panels, an action on services of many panels, a
 * console call across panels). `hold` refuses a second run while one is held, with `alreadyRunning`
 * in the operator's words, and holds the new one from before its first wait to its end: a second
 * call meanwhile is refused, and a `cancel` meanwhile counts.
 */
export class RunHolder<Run extends Cancellable> {
  readonly #alreadyRunning: string;
  #running: Run | null = null;

  constructor(alreadyRunning: string) {
    this.#alreadyRunning = alreadyRunning;
  }

  /** Starts a run (`start`), holds it while `use` works with it, and lets it go when `use` ends, however it ends. */
  async hold<T>(start: () => Run, use: (run: Run) => Promise<T>): Promise<T> {
    if (this.#running) throw new PanelError('INVALID_INPUT', this.#alreadyRunning);
    const run = start();
    this.#running = run;
    try {
      return await use(run);
    } finally {
      if (this.#running === run) this.#running = null;
    }
  }

  /** The run held now, if any. */
  current(): Run | null {
    return this.#running;
  }

  /** Cancels the run held now, if any. */
  cancel(): void {
    this.#running?.cancel();
  }
}
