import { PanelError } from '../../../shared/errors.ts';
import { normaliseAddress } from '../common/address.ts';
import type { PanelRecord, PanelRecordChange } from './panel-record.ts';

/** One change to the panel list: panels added (at the end), panels' fields changed, panels removed. */
export interface ListPatch {
  additions: readonly PanelRecord[];
  changes: ReadonlyMap<string, PanelRecordChange>;
  removals: ReadonlySet<string>;
}

/** What a patch did: the records it added or changed (as they are now) and the ids it removed. */
export interface PatchEffect {
  set: PanelRecord[];
  removed: string[];
}

/**
 * The panels in order, with lookups by id and by address that cost the same at ten thousand
 * panels as at ten. A patch is applied in place, its cost that of the change plus one pass over
 * the array; the records themselves are never changed, only replaced.
 */
export class PanelList {
  #records: readonly PanelRecord[];
  readonly #byId = new Map<string, PanelRecord>();
  readonly #byBaseUrl = new Map<string, PanelRecord>();
  /** Panels with the same address (an older version's file): the index by address is then rebuilt on change. */
  #hasTwins = false;

  constructor(records: readonly PanelRecord[]) {
    this.#records = records;
    for (const record of records) this.#byId.set(record.id, record);
    this.#indexAddresses();
  }

  get records(): readonly PanelRecord[] {
    return this.#records;
  }

  get(id: string): PanelRecord | undefined {
    return this.#byId.get(id);
  }

  /** The first panel at `baseUrl`, as a search of the list in order would find it. */
  findByBaseUrl(baseUrl: string): PanelRecord | undefined {
    return this.#byBaseUrl.get(baseUrl);
  }

  /**
   * Applies `patch`; changes to panels that are not there are skipped. Returns null when nothing
   * changes. Throws `DUPLICATE_PANEL`, the list left as it was, when a panel would come to share
   * its address with another.
   */
  apply(patch: ListPatch): PatchEffect | null {
    const updated: [before: PanelRecord, after: PanelRecord][] = [];
    for (const [id, change] of patch.changes) {
      const record = this.#byId.get(id);
      if (record && !patch.removals.has(id)) updated.push([record, { ...record, ...change }]);
    }
    const removed: PanelRecord[] = [];
    for (const id of patch.removals) {
      const record = this.#byId.get(id);
      if (record) removed.push(record);
    }
    if (updated.length === 0 && removed.length === 0 && patch.additions.length === 0) return null;
    this.#refuseTwins(patch.additions, updated);
    let next = this.#records;
    if (updated.length > 0) {
      const byId = new Map(updated.map(([before, after]) => [before.id, after]));
      next = next.map((record) => byId.get(record.id) ?? record);
    }
    if (removed.length > 0) next = next.filter((record) => !patch.removals.has(record.id));
    if (patch.additions.length > 0) next = next.concat(patch.additions);
    this.#records = next;
    const set = updated.length === 0 ? [...patch.additions] : [...updated.map(([, after]) => after), ...patch.additions];
    for (const record of removed) this.#byId.delete(record.id);
    for (const record of set) this.#byId.set(record.id, record);
    if (this.#hasTwins) {
      this.#indexAddresses();
    } else {
      for (const record of [...removed, ...updated.map(([before]) => before)]) this.#byBaseUrl.delete(record.baseUrl);
      for (const record of set) this.#byBaseUrl.set(record.baseUrl, record);
    }
    return { set, removed: removed.map((record) => record.id) };
  }

  /**
   * Two panels at one address would be one panel twice. The callers check first; this catches an
   * add or a move that a change queued before it (and written since, or failed) made a twin.
   */
  #refuseTwins(additions: readonly PanelRecord[], updated: readonly (readonly [PanelRecord, PanelRecord])[]): void {
    const claimed = new Map<string, string>();
    const moved = updated.filter(([before, after]) => before.baseUrl !== after.baseUrl).map(([, after]) => after);
    for (const record of [...moved, ...additions]) {
      const holder = this.#byBaseUrl.get(record.baseUrl);
      const taken = (holder && holder.id !== record.id ? holder.name : undefined) ?? claimed.get(record.baseUrl);
      if (taken !== undefined) {
        const { display } = normaliseAddress(record.baseUrl, { allowPlainHttp: record.allowPlainHttp });
        throw new PanelError('DUPLICATE_PANEL', `${display} is already in your list as "${taken}", so nothing was changed.`);
      }
      claimed.set(record.baseUrl, record.name);
    }
  }

  #indexAddresses(): void {
    this.#byBaseUrl.clear();
    this.#hasTwins = false;
    for (const record of this.#records) {
      if (this.#byBaseUrl.has(record.baseUrl)) this.#hasTwins = true;
      else this.#byBaseUrl.set(record.baseUrl, record);
    }
  }
}
