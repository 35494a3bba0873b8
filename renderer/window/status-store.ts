import type { ErrorInfo } from '../../shared/contract/errors.ts';
import type { AppStatus } from '../../shared/types.ts';
import { readWindowMemory, type SessionMemory, writeWindowMemory } from './window-memory.ts';
import { SnapshotStore } from './snapshot-store.ts';

/** What an export, an import or a run of service actions did, until dismissed. */
export interface WindowNotice {
  text: string;
  failed: boolean;
  /** The next step it offers in place (after an import: log in to the panels added); the notice goes when it runs. */
  action?: { label: string; run(): void };
}

/** Main's status and what the window tells the operator at its top. */
export interface StatusSnapshot {
  /** Main's status (settings, token protection, what was repaired at start); null until it arrives. */
  readonly status: AppStatus | null;
  readonly notice: WindowNotice | null;
  /** Why the panel list could not be read, until it is. */
  readonly listError: ErrorInfo | null;
  readonly startupProblemsDismissed: boolean;
  /** A newer Paneldeck downloaded (main's `updateReady`), and whether the operator put it off. */
  readonly update: { version: string; dismissed: boolean } | null;
  /** The log in to several panels under way (main's `logInProgress`); null when none runs. */
  readonly fleetProgress: { done: number; total: number } | null;
}

/**
 * Main's status and the window's notices. What a reload must not lose (a downloaded update,
 * notices put away) is kept in the tab's sessionStorage when one is given; nothing secret is ever here.
 */
export class StatusStore extends SnapshotStore<StatusSnapshot> {
  readonly #memory: SessionMemory | null;

  constructor(memory: SessionMemory | null = null) {
    const remembered = readWindowMemory(memory);
    super({
      status: null,
      notice: null,
      listError: null,
      startupProblemsDismissed: remembered.startupProblemsDismissed,
      update: remembered.update,
      fleetProgress: null,
    });
    this.#memory = memory;
  }

  /** Main's status, first or changed (the first one's panel list settings are the panel list choices store's to adopt). */
  setStatus(status: AppStatus | null): void {
    this.update({ status });
  }

  showNotice(notice: WindowNotice | null): void {
    this.update({ notice });
  }

  setListError(listError: ErrorInfo | null): void {
    this.update({ listError });
  }

  dismissStartupProblems(): void {
    this.update({ startupProblemsDismissed: true });
    this.#remember();
  }

  /** Main downloaded `version`. Put off once ("Later"), the notice stays away for this window's life. */
  updateReady(version: string): void {
    this.update({ update: { version, dismissed: this.getSnapshot().update?.dismissed ?? false } });
    this.#remember();
  }

  dismissUpdate(): void {
    const { update } = this.getSnapshot();
    if (!update || update.dismissed) return;
    this.update({ update: { ...update, dismissed: true } });
    this.#remember();
  }

  /** Main's progress of a log in to several panels; the last one (done === total) ends it. */
  logInProgress(done: number, total: number): void {
    const current = this.getSnapshot().fleetProgress;
    if (done >= total) return this.update({ fleetProgress: null });
    if (current?.done !== done || current.total !== total) this.update({ fleetProgress: { done, total } });
  }

  #remember(): void {
    const { update, startupProblemsDismissed } = this.getSnapshot();
    writeWindowMemory(this.#memory, { update, startupProblemsDismissed });
  }
}
