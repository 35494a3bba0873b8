import type { PanelEvent } from '../../shared/contract/events.ts';
import type { Panel } from '../../shared/types.ts';

/** A check pass under way in main: `done` of `total` panels. */
export interface CheckProgress {
  readonly done: number;
  readonly total: number;
}

/** What the window knows of main's panels, as one immutable value per change. */
export interface PanelSnapshot {
  /** In the list's order; null until the first list has arrived. */
  readonly panels: readonly Panel[] | null;
  readonly byId: ReadonlyMap<string, Panel>;
  /** Sessions main said end soon (`sessionExpiring`): panel id to when it ends. */
  readonly expiring: ReadonlyMap<string, string>;
  /** The check pass under way, or null when none runs. */
  readonly progress: CheckProgress | null;
}

/**
 * The one home of the panels in the window, keyed by id and fed by main: the list once at start,
 * then main's events and the results of the window's own actions. Read it with
 * `useSyncExternalStore(store.subscribe, store.getSnapshot)`; the snapshot changes only when
 * something in it did.
 */
export class PanelStore {
  #byId = new Map<string, Panel>();
  #expiring = new Map<string, string>();
  /** Removed ids: an answer or event that was on its way when a panel went must not bring it back. */
  readonly #removed = new Set<string>();
  #loaded = false;
  #progress: CheckProgress | null = null;
  #snapshot: PanelSnapshot = { panels: null, byId: new Map(), expiring: new Map(), progress: null };
  readonly #listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): PanelSnapshot => this.#snapshot;

  /** The whole list (`listPanels`): it replaces what was known, since it is at least as new. */
  load(panels: readonly Panel[]): void {
    this.#byId = new Map(panels.filter((panel) => !this.#removed.has(panel.id)).map((panel) => [panel.id, panel]));
    this.#expiring = new Map([...this.#expiring].filter(([id]) => this.#stillEnding(id, this.#expiring.get(id)!)));
    this.#loaded = true;
    this.#publish();
  }

  /** Applies one event from main; events that do not concern the panels' data are ignored here. */
  apply(event: PanelEvent): void {
    switch (event.type) {
      case 'panelsChanged':
        return this.#upsert(event.panels);
      case 'panelsRemoved':
        return this.#remove(event.panelIds);
      case 'sessionExpiring':
        // Unknown panels, and sessions that already ended or were replaced, get no warning.
        if (!this.#stillEnding(event.panelId, event.expiresAt) || this.#expiring.get(event.panelId) === event.expiresAt) return;
        this.#expiring = new Map(this.#expiring).set(event.panelId, event.expiresAt);
        return this.#publish();
      case 'checkProgress': {
        // The last event of a pass has done === total: the pass is over.
        const progress = event.done >= event.total ? null : { done: event.done, total: event.total };
        if (progress?.done === this.#progress?.done && progress?.total === this.#progress?.total) return;
        this.#progress = progress;
        return this.#publish();
      }
      case 'logInProgress':
      case 'focusPanel':
      case 'runCommand':
      case 'updateReady':
        return;
    }
  }

  /** A panel an action of the window returned (added, edited, logged in or out). */
  upsert(panel: Panel): void {
    this.#upsert([panel]);
  }

  /** A panel the window removed. */
  remove(panelId: string): void {
    this.#remove([panelId]);
  }

  has(panelId: string): boolean {
    return this.#byId.has(panelId);
  }

  #upsert(panels: readonly Panel[]): void {
    const fresh = panels.filter((panel) => !this.#removed.has(panel.id) && this.#byId.get(panel.id) !== panel);
    if (fresh.length === 0) return;
    this.#byId = new Map(this.#byId);
    for (const panel of fresh) this.#byId.set(panel.id, panel);
    this.#dropEndedWarnings(fresh.map((panel) => panel.id));
    this.#publish();
  }

  #remove(panelIds: readonly string[]): void {
    for (const id of panelIds) this.#removed.add(id);
    const known = panelIds.filter((id) => this.#byId.has(id));
    if (known.length === 0) return;
    this.#byId = new Map(this.#byId);
    for (const id of known) this.#byId.delete(id);
    this.#dropEndedWarnings(known);
    this.#publish();
  }

  /** A warning stands while the panel is signed in with that same session end. */
  #dropEndedWarnings(ids: readonly string[]): void {
    const ended = ids.filter((id) => {
      const expiresAt = this.#expiring.get(id);
      return expiresAt !== undefined && !this.#stillEnding(id, expiresAt);
    });
    if (ended.length === 0) return;
    this.#expiring = new Map(this.#expiring);
    for (const id of ended) this.#expiring.delete(id);
  }

  #stillEnding(id: string, expiresAt: string): boolean {
    const panel = this.#byId.get(id);
    // The same instant may be spelt differently (offsets, fractions of a second).
    return !!panel?.signedIn && panel.sessionExpiresAt !== null && Date.parse(panel.sessionExpiresAt) === Date.parse(expiresAt);
  }

  #publish(): void {
    // The list is rebuilt only when the panels changed, so a progress tick does not re-filter ten thousand rows.
    const panels = !this.#loaded
      ? null
      : this.#snapshot.byId === this.#byId && this.#snapshot.panels
        ? this.#snapshot.panels
        : [...this.#byId.values()];
    this.#snapshot = { panels, byId: this.#byId, expiring: this.#expiring, progress: this.#progress };
    for (const listener of [...this.#listeners]) listener();
  }
}
