import { isRecord } from '../common/guards.ts';
import type { DocumentStore } from './document-store.ts';

/**
 * The last result of a costly fleet-wide read (the backups, the certificates), kept on disk so that
 * a start shows it at once and its daily bound holds across restarts. Written whole after each
 * pass (`{ version, at, <field>: [...] }`); read back with every entry checked by `readEntry`, an
 * entry that is not what this version writes dropped alone, a file of another version not read.
 */

const VERSION = 1;

export interface KeptFileOptions<Entry> {
  open(): DocumentStore;
  /** The document's field holding the entries ("panels", "rows"). */
  field: string;
  /** One stored entry as this version writes it, or null when it is not. */
  readEntry(value: unknown): Entry | null;
}

export class KeptFile<Entry> {
  readonly #options: KeptFileOptions<Entry>;
  #store: DocumentStore | null = null;

  constructor(options: KeptFileOptions<Entry>) {
    this.#options = options;
  }

  /** The pass kept by an earlier run, with when it started (epoch ms); null when none, or the file is not this version's. */
  async load(): Promise<{ at: number; value: Entry[] } | null> {
    const { field, readEntry } = this.#options;
    const document = this.#document().read();
    if (!isRecord(document) || document.version !== VERSION || typeof document.at !== 'number') return null;
    const entries = document[field];
    if (!Array.isArray(entries)) return null;
    return { at: document.at, value: entries.flatMap((entry) => readEntry(entry) ?? []) };
  }

  async save({ at, value }: { at: number; value: readonly Entry[] }): Promise<void> {
    await this.#document().save(null, () => ({ version: VERSION, at, [this.#options.field]: value }));
  }

  #document(): DocumentStore {
    this.#store ??= this.#options.open();
    return this.#store;
  }
}
