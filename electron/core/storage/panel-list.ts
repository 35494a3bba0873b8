import { PanelError } from '../../../shared/contract/errors.ts';
import { normaliseAddress } from '../common/address.ts';
import type { PanelRecord, PanelRecordChange } from './panel-record.ts';

/** One change to the panel list: panels added (at the end), panels' fields changed, panels removed. */
export interface ListPatch {
  additions: readonly PanelRecord[];
  changes: ReadonlyMap<string, PanelRecordChange>;
  removals: ReadonlySet<string>;
}

/** What a patch did to a list: the panels it changed (before and after), added and removed. */
export interface PatchEffect {
  updated: [before: PanelRecord, after: PanelRecord][];
  added: readonly PanelRecord[];
  removed: PanelRecord[];
}

/** `records` as `effect` leaves them: one pass over the array, no index. */
export function withEffect(records: readonly PanelRecord[], effect: PatchEffect): readonly PanelRecord[] {
  let next = records;
  if (effect.updated.length > 0) {
    const byId = new Map(effect.updated.map(([before, after]) => [before.id, after]));
    next = next.map((record) => byId.get(record.id) ?? record);
  }
  if (effect.removed.length > 0) {
    const gone = new Set(effect.removed.map((record) => record.id));
    next = next.filter((record) => !gone.has(record.id));
  }
  return effect.added.length > 0 ? next.concat(effect.added) : next;
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
   * its address with another (the callers check first; this catches an add or a move that a change
   * queued before it made a twin).
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
    const effect: PatchEffect = { updated, added: patch.additions, removed };
    this.#claimAddresses(effect);
    this.#records = withEffect(this.#records, effect);
    for (const record of removed) this.#byId.delete(record.id);
    for (const [, after] of updated) this.#byId.set(after.id, after);
    for (const record of patch.additions) this.#byId.set(record.id, record);
    this.#releaseAddresses(effect);
    return effect;
  }

  /**
   * Enters each new address in the index, checking it as it goes (one lookup and one insertion per
   * panel: an import's thousands cost no more); on a twin, takes back what it did and throws.
   */
  #claimAddresses({ updated, added }: PatchEffect): void {
    const claimed: string[] = [];
    const claim = (record: PanelRecord) => {
      const holder = this.#byBaseUrl.get(record.baseUrl);
      if (holder === undefined) {
        this.#byBaseUrl.set(record.baseUrl, record);
        claimed.push(record.baseUrl);
        return;
      }
      if (holder.id === record.id) return;
      for (const url of claimed) this.#byBaseUrl.delete(url);
      const { display } = normaliseAddress(record.baseUrl, { allowPlainHttp: record.allowPlainHttp });
      throw new PanelError('DUPLICATE_PANEL', `${display} is already in your list as "${holder.name}", so nothing was changed.`);
    };
    for (const [before, after] of updated) if (before.baseUrl !== after.baseUrl) claim(after);
    for (const record of added) claim(record);
  }

  /** The index by address once the records are changed: old addresses out, changed records in. */
  #releaseAddresses({ updated, removed }: PatchEffect): void {
    if (this.#hasTwins) {
      this.#indexAddresses();
      return;
    }
    for (const record of removed) this.#byBaseUrl.delete(record.baseUrl);
    for (const [before, after] of updated) {
      if (before.baseUrl !== after.baseUrl) this.#byBaseUrl.delete(before.baseUrl);
      else this.#byBaseUrl.set(after.baseUrl, after);
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
