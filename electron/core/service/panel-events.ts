import type { PanelEvent } from '../../../shared/events.ts';
import type { Panel } from '../../../shared/types.ts';

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

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const removed = [...this.#removed];
    const panels = this.#panelsOf([...this.#changed]);
    this.#changed.clear();
    this.#removed.clear();
    try {
      if (removed.length > 0) this.#emit({ type: 'panelsRemoved', panelIds: removed });
      if (panels.length > 0) this.#emit({ type: 'panelsChanged', panels });
    } catch {
      // A window that is gone or a listener that throws must not break the service.
    }
  }

  #schedule(): void {
    // Unref'd: a pending notice must not keep a script or a test alive.
    if (this.#timer === null) this.#timer = setTimeout(() => this.flush(), this.#delayMs).unref();
  }
}
