import type { PanelEvent } from '../../../shared/contract/events.ts';
import type { Panel } from '../../../shared/types.ts';
import { nextTurn } from '../common/time-slices.ts';

/** Panels per event when the timer sends them: an import of twenty thousand is forty events, each a turn of main's event loop. */
const PANELS_PER_EVENT = 500;

/**
 * Gathers the ids of panels that changed (or were removed) and sends them a short while later, in
 * slices of at most 500 changed ones, each its own turn of main's event loop: a check of a thousand
 * panels becomes a few dozen events, not a thousand.
 */
export class ChangeBatcher {
  readonly #send: (changed: string[], removed: string[]) => void;
  readonly #delayMs: number;
  readonly #changed = new Set<string>();
  readonly #removed = new Set<string>();
  #timer: NodeJS.Timeout | null = null;

  /** `send` gets the changed ids and those removed since; what it throws is dropped. */
  constructor(send: (changed: string[], removed: string[]) => void, delayMs = 50) {
    this.#send = send;
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
    this.#sendSome(Infinity);
  }

  /** Sends what is waiting, at most `most` changed panels; returns whether some are left. */
  #sendSome(most: number): boolean {
    const removed = [...this.#removed];
    const ids = [...this.#changed].slice(0, most);
    for (const id of ids) this.#changed.delete(id);
    this.#removed.clear();
    try {
      if (removed.length > 0 || ids.length > 0) this.#send(ids, removed);
    } catch {
      // A window that is gone or a listener that throws must not break the service.
    }
    return this.#changed.size > 0;
  }

  async #sendInSlices(): Promise<void> {
    this.#timer = null;
    while (this.#timer === null && this.#sendSome(PANELS_PER_EVENT)) await nextTurn();
  }

  #schedule(): void {
    // Unref'd: a pending notice must not keep a script or a test alive.
    if (this.#timer === null) this.#timer = setTimeout(() => void this.#sendInSlices(), this.#delayMs).unref();
  }
}

/** What a feature tells of a panel that changed or was removed: the window hears of it, batched. */
export type PanelChanges = Pick<ChangeBatcher, 'changed' | 'removed'>;

/** The panels that changed, whole, as `panelsChanged` events (and `panelsRemoved`). */
export class PanelChangeBatcher extends ChangeBatcher {
  constructor(emit: (event: PanelEvent) => void, panelsOf: (ids: readonly string[]) => Panel[], delayMs = 50) {
    super((ids, removed) => {
      const panels = panelsOf(ids);
      if (removed.length > 0) emit({ type: 'panelsRemoved', panelIds: removed });
      if (panels.length > 0) emit({ type: 'panelsChanged', panels });
    }, delayMs);
  }
}
