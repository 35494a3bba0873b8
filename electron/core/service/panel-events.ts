import type { PanelEvent } from '../../../shared/events.ts';
import type { Panel } from '../../../shared/types.ts';
import { nextTurn } from '../common/time-slices.ts';

/** Panels per event when the timer sends them: an import of twenty thousand is forty events, each a turn of main's event loop. */
const PANELS_PER_EVENT = 500;

/**
 * Gathers the panels that changed and sends them as one `panelsChanged` event a short while later:
 * a check of a thousand panels becomes a few dozen events, not a thousand.
 */
export class PanelChangeBatcher {
  readonly #emit: (event: PanelEvent) => void;
  readonly #panelsOf: (ids: readonly string[]) => Panel[];
  readonly #delayMs: number;
  readonly #changed = new Set<string>();
  readonly #removed = new Set<string>();
  #timer: NodeJS.Timeout | null = null;

  constructor(emit: (event: PanelEvent) => void, panelsOf: (ids: readonly string[]) => Panel[], delayMs = 50) {
    this.#emit = emit;
    this.#panelsOf = panelsOf;
    this.#delayMs = delayMs;
  }

  changed(panelId: string): void {
    this.#removed.delete(panelId);
    this.#changed.add(panelId);
    this.#schedule();
  }

  removed(panelId: string): void {
    this.#changed.delete(panelId);
    this.#removed.add(panelId);
    this.#schedule();
  }

  /** Sends everything waiting now, in one go (at quit). */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#send(Infinity);
  }

  /** Sends what is waiting, at most `most` changed panels; returns whether some are left. */
  #send(most: number): boolean {
    const removed = [...this.#removed];
    const ids = [...this.#changed].slice(0, most);
    for (const id of ids) this.#changed.delete(id);
    this.#removed.clear();
    const panels = this.#panelsOf(ids);
    try {
      if (removed.length > 0) this.#emit({ type: 'panelsRemoved', panelIds: removed });
      if (panels.length > 0) this.#emit({ type: 'panelsChanged', panels });
    } catch {
      // A window that is gone or a listener that throws must not break the service.
    }
    return this.#changed.size > 0;
  }

  async #sendInSlices(): Promise<void> {
    this.#timer = null;
    while (this.#timer === null && this.#send(PANELS_PER_EVENT)) await nextTurn();
  }

  #schedule(): void {
    // Unref'd: a pending notice must not keep a script or a test alive.
    if (this.#timer === null) this.#timer = setTimeout(() => void this.#sendInSlices(), this.#delayMs).unref();
  }
}
