import { isErrorCode } from '../../../shared/contract/errors.ts';
import { isPanelVersion } from '../../../shared/panel-version.ts';
import type { SessionCheck } from '../../../shared/types.ts';
import type { DocumentStore } from './document-store.ts';
import { changedMaterially } from './check-change.ts';
import { readStoredHealth, type StoredHealth } from './health-record.ts';
import { isEmptyDocument, readOrMoveAside } from './store-problems.ts';
import { WriteQueue } from './write-queue.ts';
import { isRecord, isTime } from '../common/guards.ts';

/** What checks learnt of a panel: run-time state, not what the operator typed. */
export interface CheckState {
  lastCheck: SessionCheck | null;
  sessionExpiresAt: string | null;
  /** The Easypanel version the panel last named (`"2.32.2"`); null when it never named one. */
  panelVersion: string | null;
  /** When the version was last asked for, whatever the answer: the next read waits about an hour from it. */
  versionReadAt: string | null;
  /** Whether the panel's last version read said a newer Easypanel is out; null when it never said. */
  updateAvailable: boolean | null;
  /**
   * What the last check read of the panel's services and load (the panel list's row). Kept here, not in
   * a file of its own: every check rewrites the panel's entry anyway (`lastCheck.at`), so the state
   * rides on the same coalesced write.
   */
  health: StoredHealth | null;
}

const HISTORY_VERSION = 1;

/** The fields of a state, for comparing and emptiness. */
const STATE_FIELDS = [
  'lastCheck',
  'sessionExpiresAt',
  'panelVersion',
  'versionReadAt',
  'updateAvailable',
  'health',
] as const satisfies readonly (keyof CheckState)[];

/**
 * One panel's entry, or null when it is not what this version writes. The version fields and the
 * state are absent (null) in older files; a state that cannot be read is dropped alone.
 */
function readState(candidate: unknown): CheckState | null {
  if (!isRecord(candidate)) return null;
  const { lastCheck, sessionExpiresAt, panelVersion = null, versionReadAt = null, updateAvailable = null, health = null } = candidate;
  if (sessionExpiresAt !== null && !isTime(sessionExpiresAt)) return null;
  if (panelVersion !== null && !isPanelVersion(panelVersion)) return null;
  if (versionReadAt !== null && !isTime(versionReadAt)) return null;
  if (updateAvailable !== null && typeof updateAvailable !== 'boolean') return null;
  const known = {
    sessionExpiresAt,
    panelVersion,
    versionReadAt,
    updateAvailable,
    health: health === null ? null : readStoredHealth(health),
  };
  if (lastCheck === null) return { lastCheck: null, ...known };
  if (!isRecord(lastCheck) || !isTime(lastCheck.at)) return null;
  if (lastCheck.ok === true) return { lastCheck: { at: lastCheck.at, ok: true }, ...known };
  const error = lastCheck.error;
  if (lastCheck.ok !== false || !isRecord(error) || !isErrorCode(error.code) || typeof error.message !== 'string') return null;
  return { lastCheck: { at: lastCheck.at, ok: false, error: { code: error.code, message: error.message } }, ...known };
}

export const EMPTY_CHECK_STATE: Readonly<CheckState> = Object.freeze({
  lastCheck: null,
  sessionExpiresAt: null,
  panelVersion: null,
  versionReadAt: null,
  updateAvailable: null,
  health: null,
});

const isEmptyState = (state: CheckState) => STATE_FIELDS.every((field) => state[field] === null);

/** The timer the history waits on; injected so tests and benchmarks can drive it. */
export interface FlushTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: FlushTimer = {
  // Unref'd: a pending flush must not keep a script alive; the app flushes at quit.
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The outcome of each panel's last check and when its session ends, in `checks.json`. Checks come
 * by the thousand, so they are written coalesced: at most once every `delayMs` and at `flush()`
 * (quit), each time only the panels that changed once the history is large (see
 * `DocumentStore.save`). A crash loses the last seconds of check history, never a panel or a log
 * out, which live in the panel list and the token store, written before their calls answer.
 */
export class CheckHistory {
  readonly #store: DocumentStore;
  readonly #queue = new WriteQueue();
  readonly #states = new Map<string, CheckState>();
  readonly #timer: FlushTimer;
  readonly #delayMs: number;
  #pending: unknown = null;
  /** Panels whose state changed materially since it was last written. */
  readonly #dirty = new Set<string>();
  /** Each panel's state as checks.json holds it (read at start, or written since): what `changedMaterially` compares with. */
  readonly #written = new Map<string, CheckState>();
  /** The file holds what this version would not write (damage, another format): the next write is whole. */
  #rewrite = false;

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
  seed(panelId: string, seeded: Partial<CheckState>): void {
    const state = { ...EMPTY_CHECK_STATE, ...seeded };
    if (this.#states.has(panelId) || isEmptyState(state)) return;
    this.#states.set(panelId, state);
    this.#schedule(panelId);
  }

  /**
   * A change that changes nothing writes nothing (a log out of a never-checked panel, say), and
   * neither does one that changes nothing material (check-change.ts): a check that only moved the
   * times on a little and read the same figures.
   */
  record(panelId: string, change: Partial<CheckState>): CheckState {
    const current = this.get(panelId);
    const next = { ...current, ...change };
    if (STATE_FIELDS.every((field) => next[field] === current[field])) return current;
    if (isEmptyState(next)) this.#states.delete(panelId);
    else this.#states.set(panelId, next);
    // Shown at once whatever it is; written only when it differs materially from what the file holds (check-change.ts).
    const written = this.#written.get(panelId);
    if (isEmptyState(next) ? written !== undefined : changedMaterially(written, next)) this.#schedule(panelId);
    return next;
  }

  forget(panelId: string): void {
    if (this.#states.delete(panelId)) this.#schedule(panelId);
  }

  /**
   * Writes now what is waiting; resolves once it is on disk. A failure is kept for the next try:
   * check history is not worth an error.
   */
  flush(): Promise<void> {
    if (this.#pending !== null) this.#timer.clear(this.#pending);
    this.#pending = null;
    return this.#queue.run(async () => {
      if (this.#dirty.size === 0) return;
      const ids = [...this.#dirty];
      // A panel checked again during the write is marked again, for the next one.
      this.#dirty.clear();
      const set = ids.flatMap((id): [string, CheckState][] => (this.#states.has(id) ? [[id, this.#states.get(id)!]] : []));
      const remove = ids.filter((id) => !this.#states.has(id));
      try {
        await this.#store.save(this.#rewrite ? null : { field: 'panels', set, remove }, () => this.#document());
        this.#rewrite = false;
        for (const [id, state] of set) this.#written.set(id, state);
        for (const id of remove) this.#written.delete(id);
      } catch {
        for (const id of ids) this.#schedule(id);
      }
    });
  }

  /** Writes the history whole if its journal holds changes: at quit. */
  compact(): Promise<void> {
    return this.#queue.run(() => this.#store.compact(() => this.#document()).catch(() => undefined));
  }

  #document(): Record<string, unknown> {
    return { version: HISTORY_VERSION, panels: Object.fromEntries(this.#states) };
  }

  #schedule(panelId: string): void {
    this.#dirty.add(panelId);
    if (this.#pending === null) this.#pending = this.#timer.set(() => void this.flush(), this.#delayMs);
  }

  #load(): void {
    let read: ReturnType<typeof readOrMoveAside>;
    try {
      read = readOrMoveAside(this.#store, new Date());
    } catch {
      this.#rewrite = true;
      return;
    }
    // Damaged or unknown history costs only the check history: it is rebuilt by the next checks.
    if (!read.ok || isEmptyDocument(read.document)) return;
    const document = read.document;
    this.#rewrite = true;
    if (!isRecord(document) || document.version !== HISTORY_VERSION || !isRecord(document.panels)) return;
    for (const [panelId, candidate] of Object.entries(document.panels)) {
      const state = readState(candidate);
      if (state) {
        this.#states.set(panelId, state);
        this.#written.set(panelId, state);
      }
    }
    // Entries this version would not have written are dropped by the next write, which is then whole.
    this.#rewrite = this.#states.size !== Object.keys(document.panels).length;
  }
}
