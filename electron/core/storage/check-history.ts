import { isErrorCode } from '../../../shared/errors.ts';
import type { SessionCheck } from '../../../shared/types.ts';
import { isEmptyDocument, readOrMoveAside, type DocumentStore } from './document-store.ts';
import { isRecord, isTime } from '../common/guards.ts';

/** What checks learnt of a panel: run-time state, not what the operator typed. */
export interface CheckState {
  lastCheck: SessionCheck | null;
  sessionExpiresAt: string | null;
}

const HISTORY_VERSION = 1;

/** One panel's entry, or null when it is not what this version writes. */
function readState(candidate: unknown): CheckState | null {
  if (!isRecord(candidate)) return null;
  const { lastCheck, sessionExpiresAt } = candidate;
  if (sessionExpiresAt !== null && !isTime(sessionExpiresAt)) return null;
  if (lastCheck === null) return { lastCheck: null, sessionExpiresAt };
  if (!isRecord(lastCheck) || !isTime(lastCheck.at)) return null;
  if (lastCheck.ok === true) return { lastCheck: { at: lastCheck.at, ok: true }, sessionExpiresAt };
  const error = lastCheck.error;
  if (lastCheck.ok !== false || !isRecord(error) || !isErrorCode(error.code) || typeof error.message !== 'string') return null;
  return { lastCheck: { at: lastCheck.at, ok: false, error: { code: error.code, message: error.message } }, sessionExpiresAt };
}

export const EMPTY_CHECK_STATE: Readonly<CheckState> = Object.freeze({ lastCheck: null, sessionExpiresAt: null });

/** The timer the history waits on; injected so tests and benchmarks can drive it. */
export interface FlushTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: FlushTimer = {
  // Unref'd: a pending flush must not keep a script alive; the app flushes at quit.
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The outcome of each panel's last check and when its session ends, in `checks.json`. Checks come
 * by the thousand, so they are written coalesced: at most once every `delayMs` and at `flush()`
 * (quit). A crash loses the last seconds of check history, never a panel or a log out, which live
 * in the panel list and the token store, written before their calls answer.
 */
export class CheckHistory {
  readonly #store: DocumentStore;
  readonly #states = new Map<string, CheckState>();
  readonly #timer: FlushTimer;
  readonly #delayMs: number;
  #pending: unknown = null;
  #dirty = false;

  constructor(store: DocumentStore, options: { timer?: FlushTimer; delayMs?: number } = {}) {
    this.#store = store;
    this.#timer = options.timer ?? realTimer;
    this.#delayMs = options.delayMs ?? 2000;
    this.#load();
  }

  get(panelId: string): CheckState {
    return this.#states.get(panelId) ?? EMPTY_CHECK_STATE;
  }

  /** Seeds a panel's state from an older panel list that still held it, unless the history has one. */
  seed(panelId: string, state: CheckState): void {
    if (this.#states.has(panelId) || (state.lastCheck === null && state.sessionExpiresAt === null)) return;
    this.#states.set(panelId, state);
    this.#schedule();
  }

  /** A change that changes nothing writes nothing: a log out of a never-checked panel, say. */
  record(panelId: string, change: Partial<CheckState>): CheckState {
    const current = this.get(panelId);
    const next = { ...current, ...change };
    if (next.lastCheck === current.lastCheck && next.sessionExpiresAt === current.sessionExpiresAt) return current;
    if (next.lastCheck === null && next.sessionExpiresAt === null) this.#states.delete(panelId);
    else this.#states.set(panelId, next);
    this.#schedule();
    return next;
  }

  forget(panelId: string): void {
    if (this.#states.delete(panelId)) this.#schedule();
  }

  /** Writes now what is waiting. A failure is kept for the next try: check history is not worth an error. */
  flush(): void {
    if (this.#pending !== null) this.#timer.clear(this.#pending);
    this.#pending = null;
    if (!this.#dirty) return;
    try {
      this.#store.write({ version: HISTORY_VERSION, panels: Object.fromEntries(this.#states) });
      this.#dirty = false;
    } catch {
      this.#schedule();
    }
  }

  #schedule(): void {
    this.#dirty = true;
    if (this.#pending === null) this.#pending = this.#timer.set(() => this.flush(), this.#delayMs);
  }

  #load(): void {
    let read: ReturnType<typeof readOrMoveAside>;
    try {
      read = readOrMoveAside(this.#store, new Date());
    } catch {
      return;
    }
    // Damaged or unknown history costs only the check history: it is rebuilt by the next checks.
    if (!read.ok || isEmptyDocument(read.document)) return;
    const document = read.document;
    if (!isRecord(document) || document.version !== HISTORY_VERSION || !isRecord(document.panels)) return;
    for (const [panelId, candidate] of Object.entries(document.panels)) {
      const state = readState(candidate);
      if (state) this.#states.set(panelId, state);
    }
  }
}
