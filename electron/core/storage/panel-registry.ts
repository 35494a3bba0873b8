import type { DocumentChange, DocumentStore } from './document-store.ts';
import { storageError } from './store-problems.ts';
import { nextTurn } from '../common/time-slices.ts';
import { loadRecords, REGISTRY_VERSION, type RegistryLoadProblem, type RegistryMigration } from './panel-list-file.ts';
import { PanelList, withEffect, type ListPatch, type PatchEffect } from './panel-list.ts';
import { WriteQueue } from './write-queue.ts';
import type { PanelRecord, PanelRecordChange } from './panel-record.ts';

export type { PanelRecord, PanelRecordChange };

/** Additions from which a change is large enough that working it out twice in one turn would hold main. */
const LARGE_CHANGE = 100;
export { REGISTRY_VERSION, type RegistryLoadProblem, type RegistryMigration };

/**
 * The panel list, kept in memory and saved on every change: the change alone to the journal once
 * the list is large, else the list whole (see `DocumentStore.save`). A change shows in memory at
 * once, as it did when saving held main up, so that calls made meanwhile see it; its write is
 * queued behind the ones before it, and its promise resolves once it is on disk. A write that
 * fails is taken back (with any change it made a twin of), and its promise rejects: the list is
 * then as it would have been without that change.
 */
export class PanelRegistry {
  readonly #store: DocumentStore;
  readonly #queue = new WriteQueue();
  /** The list as written. */
  #durable: readonly PanelRecord[];
  /** The list as written, with the changes still being written applied in order: what everyone sees. */
  #visible: PanelList;
  /** Each change being written, in order: see `Pending`. */
  readonly #pending: Pending[] = [];
  /** Bumped whenever the list shown is worked out again without a change (a failed write, a refused import). */
  #failures = 0;
  readonly #additionsPerTurn: number;
  /** The file on disk is not the list as this version writes it (older format, damage, old check results): the next save writes it whole. */
  #rewrite: boolean;
  readonly loadProblem: RegistryLoadProblem | null;
  readonly migration: RegistryMigration | null;

  /** `additionsPerTurn`: how many panels of a large addition (an import) are shown per turn of the event loop. */
  constructor(store: DocumentStore, now: Date, { additionsPerTurn = 2000 }: { additionsPerTurn?: number } = {}) {
    this.#store = store;
    this.#additionsPerTurn = Math.max(1, additionsPerTurn);
    const loaded = loadRecords(store, now);
    this.#durable = loaded.records;
    this.#visible = new PanelList(loaded.records);
    this.loadProblem = loaded.problem;
    this.migration = loaded.migration;
    this.#rewrite = loaded.problem !== null || loaded.migration !== null;
    // Written at once, so the upgrade runs once. The backup is already on disk; if this write
    // fails, the old file stays as it was and the next change writes the new format.
    if (loaded.migration) this.#queue.run(() => this.#save(null, this.#durable)).catch(() => undefined);
  }

  list(): readonly PanelRecord[] {
    return this.#visible.records;
  }

  get(id: string): PanelRecord | undefined {
    return this.#visible.get(id);
  }

  /** The panel whose API is at `baseUrl`, if any. */
  findByBaseUrl(baseUrl: string): PanelRecord | undefined {
    return this.#visible.findByBaseUrl(baseUrl);
  }

  insert(record: PanelRecord): Promise<void> {
    return this.insertAndUpdate([record], new Map());
  }

  /** Applies `change` to the panel; does nothing when the panel is gone. Resolves with the panel as it is then. */
  async update(id: string, change: PanelRecordChange): Promise<PanelRecord | undefined> {
    await this.#change({ additions: [], changes: new Map([[id, change]]), removals: new Set() });
    return this.get(id);
  }

  /** Applies several panels' changes in one write: at start, ten thousand panels cost one write, not ten thousand. */
  updateMany(changes: ReadonlyMap<string, PanelRecordChange>): Promise<void> {
    return this.insertAndUpdate([], changes);
  }

  /**
   * Forgets check results an older version kept in the list (they now live in the check
   * history), in memory only: the next change writes the list whole, without them.
   */
  dropLegacyChecks(): void {
    // Files written since check results moved out hold none: nothing to rebuild at start.
    if (this.#durable.every((record) => record.lastCheck === null)) return;
    this.#durable = this.#durable.map((record) => (record.lastCheck === null ? record : { ...record, lastCheck: null }));
    this.#visible = new PanelList(this.#durable);
    this.#rewrite = true;
  }

  /**
   * Adds `additions` and applies `changes` in one write: an import, or a change to many panels,
   * lands whole or not at all.
   */
  insertAndUpdate(additions: readonly PanelRecord[], changes: ReadonlyMap<string, PanelRecordChange>): Promise<void> {
    return this.#change({ additions, changes, removals: new Set() });
  }

  remove(id: string): Promise<void> {
    return this.removeMany(new Set([id]));
  }

  /** Removes every panel in `ids` in one write. */
  removeMany(ids: ReadonlySet<string>): Promise<void> {
    return this.#change({ additions: [], changes: new Map(), removals: ids });
  }

  /** Writes the list whole if its journal holds changes: at quit, so that panels.json alone is complete. */
  compact(): Promise<void> {
    return this.#queue.run(() => this.#store.compact(() => ({ version: REGISTRY_VERSION, panels: this.#durable })));
  }

  /**
   * Shows `patch` now and queues its write; resolves (even with nothing to do) after the writes
   * queued before it. Thousands of additions (an import) are shown a slice per turn of the event
   * loop (indexing them takes longer than main may be held), and written whole or not at all.
   */
  #change(patch: ListPatch): Promise<void> {
    const first = { ...patch, additions: patch.additions.slice(0, this.#additionsPerTurn) };
    let effect: PatchEffect | null;
    try {
      effect = this.#visible.apply(first);
    } catch (error) {
      return Promise.reject(error);
    }
    if (effect === null) return this.#queue.run(async () => undefined);
    // Shown amid the slices of a large addition: the list shown is then in another order than the list written.
    for (const other of this.#pending) if (other.shown < other.patch.additions.length) other.interleaved = true;
    const entry: Pending = {
      patch,
      effect,
      failuresBefore: this.#failures,
      shown: first.additions.length,
      refused: null,
      interleaved: false,
      written: null,
    };
    this.#pending.push(entry);
    const shown = this.#showRest(entry);
    return this.#queue.run(async () => {
      // Written already, with a change queued before it (see `#writeGroup`): answered as that write went.
      if (entry.written !== null) {
        if (entry.written.failed) throw entry.written.error;
        return;
      }
      // The first change not written yet leads its group: every change before it is on disk.
      if (this.#pending[0] === entry && this.#groupable(entry) && this.#groupable(this.#pending[1])) return this.#writeGroup();
      // A large change is worked out again below: not in the same turn as the call, and once all of it is shown.
      if (patch.additions.length > LARGE_CHANGE) await nextTurn();
      await shown;
      try {
        if (entry.refused) throw entry.refused;
        // With every change before it written, the list it was shown on is the list as written, and
        // what it did there is what it does here; after a failure, or when later changes were shown
        // amid its slices (its later additions were checked against them), it is worked out again.
        const reuse = entry.failuresBefore === this.#failures && !entry.interleaved;
        const made = reuse ? { ...entry.effect, added: patch.additions } : new PanelList(this.#durable).apply(patch);
        if (made) {
          const next = withEffect(this.#durable, made);
          const set = [...made.updated.map(([, after]) => after), ...made.added].map((record): [string, PanelRecord] => [
            record.id,
            record,
          ]);
          await this.#save({ field: 'panels', set, remove: made.removed.map((record) => record.id) }, next);
          this.#durable = next;
        }
      } catch (error) {
        this.#pending.shift();
        this.#showPending({ without: 'a change' });
        throw error;
      }
      this.#pending.shift();
      if (entry.interleaved) this.#showPending({ without: null });
    });
  }

  /**
   * Whether a change may share its write with the ones next to it: a change of panels only (no
   * addition, no removal: a sign-in, a rename), still as it was shown (no write failed since).
   */
  #groupable(entry: Pending | undefined): entry is Pending {
    return (
      entry !== undefined &&
      entry.written === null &&
      entry.refused === null &&
      entry.patch.additions.length === 0 &&
      entry.patch.removals.size === 0 &&
      entry.failuresBefore === this.#failures &&
      !entry.interleaved
    );
  }

  /**
   * Writes the first pending change with every groupable one queued right behind it, in one
   * durable write: the changes that arrived while the write before was on disk (a fleet's log
   * ins ending together) cost one fsync of panels.json, not one each. Each change still answers
   * only once it is on disk, and a failure takes all of them back and fails each.
   */
  async #writeGroup(): Promise<void> {
    const group: Pending[] = [];
    for (const entry of this.#pending) {
      if (!this.#groupable(entry)) break;
      group.push(entry);
    }
    // Each change was shown on the list the ones before it left: the first `before`, the last `after`.
    const updated = new Map<string, [PanelRecord, PanelRecord]>();
    for (const entry of group) {
      for (const [before, after] of entry.effect.updated) updated.set(before.id, [updated.get(before.id)?.[0] ?? before, after]);
    }
    const effect: PatchEffect = { updated: [...updated.values()], added: [], removed: [] };
    try {
      const next = withEffect(this.#durable, effect);
      const set = effect.updated.map(([, after]): [string, PanelRecord] => [after.id, after]);
      await this.#save({ field: 'panels', set, remove: [] }, next);
      this.#durable = next;
    } catch (error) {
      for (const entry of group) entry.written = { failed: true, error };
      this.#pending.splice(0, group.length);
      this.#showPending({ without: 'a change' });
      throw error;
    }
    for (const entry of group) entry.written = { failed: false };
    this.#pending.splice(0, group.length);
  }

  /** The additions of `entry` not shown yet, a slice per turn; a twin among them refuses the whole change. */
  async #showRest(entry: Pending): Promise<void> {
    while (entry.shown < entry.patch.additions.length && entry.refused === null) {
      await nextTurn();
      if (entry.refused !== null || !this.#pending.includes(entry)) return;
      const slice = entry.patch.additions.slice(entry.shown, entry.shown + this.#additionsPerTurn);
      try {
        this.#visible.apply({ additions: slice, changes: new Map(), removals: new Set() });
        entry.shown += slice.length;
      } catch (error) {
        entry.refused = error;
        this.#showPending({ without: 'a change' });
      }
    }
  }

  /**
   * The list as written with the changes still pending (as much of each as was shown), in the
   * order they are written: after a write that failed or a refused addition, as if that change had
   * never been (the changes after it are then worked out again when written).
   */
  #showPending({ without }: { without: 'a change' | null }): void {
    if (without !== null) this.#failures++;
    this.#visible = new PanelList(this.#durable);
    for (const entry of this.#pending) {
      if (entry.refused !== null) continue;
      try {
        this.#visible.apply({ ...entry.patch, additions: entry.patch.additions.slice(0, entry.shown) });
      } catch (error) {
        // A twin now that the change before it is gone: its own write refuses it too.
        entry.refused = error;
      }
    }
  }

  /** `records` on disk with `change`, or whole when the file is not as this version writes it. */
  async #save(change: DocumentChange | null, records: readonly PanelRecord[]): Promise<void> {
    try {
      await this.#store.save(this.#rewrite ? null : change, () => ({ version: REGISTRY_VERSION, panels: records }));
    } catch (error) {
      throw storageError(`save the panel list to ${this.#store.path}`, error);
    }
    this.#rewrite = false;
  }
}

/** A change being written: what it did to the list shown, how many of its additions are shown, whether it was refused, whether it went with another's write. */
interface Pending {
  patch: ListPatch;
  effect: PatchEffect;
  failuresBefore: number;
  shown: number;
  refused: unknown;
  interleaved: boolean;
  /** Written with the change before it (`#writeGroup`), and how that write went; null until then. */
  written: { failed: false } | { failed: true; error: unknown } | null;
}
