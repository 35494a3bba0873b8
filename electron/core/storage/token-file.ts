import { z } from 'zod';
import type { ErrorInfo } from '../../../shared/contract/errors.ts';
import { isRecord, isTime } from '../common/guards.ts';
import type { DocumentStore } from './document-store.ts';
import { copyAside, isEmptyDocument, readOrMoveAside, storageError } from './store-problems.ts';
import { damagedFileReason } from './token-vault-messages.ts';
import { WriteQueue } from './write-queue.ts';

const VAULT_VERSION = 1;
const vaultShape = z.object({ version: z.literal(VAULT_VERSION), tokens: z.record(z.string(), z.unknown()) });

export interface StoredToken {
  /** Base64 of what `Encryption.encrypt` gave. */
  ciphertext: string;
  backend: string;
  savedAt: string;
  /** The panel address the token was issued by; absent in files from before it was recorded. */
  baseUrl?: string;
}

/** One entry of the token store, or null when it is damaged. */
function readStoredToken(candidate: unknown): StoredToken | null {
  if (!isRecord(candidate)) return null;
  const { ciphertext, backend, savedAt, baseUrl } = candidate as Record<string, unknown>;
  if (
    typeof ciphertext !== 'string' ||
    ciphertext.length === 0 ||
    ciphertext.length % 4 !== 0 ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(ciphertext)
  )
    return null;
  if (typeof backend !== 'string' || !isTime(savedAt)) return null;
  if (baseUrl !== undefined && typeof baseUrl !== 'string') return null;
  return baseUrl === undefined ? { ciphertext, backend, savedAt } : { ciphertext, backend, savedAt, baseUrl };
}

/** `info` goes on each panel that lost its sign-in; `summary` is the one-line notice for the window. */
export type TokenFileProblem = { info: ErrorInfo; summary: string; copyPath: string } | null;

export interface TokenFileRead {
  file: TokenFile;
  /** Each entry checked on its own: a damaged one is `null` and costs only its own panel. */
  entries: Map<string, StoredToken | null>;
  fileProblem: TokenFileProblem;
  damagedCopy: string | null;
}

/**
 * The token store on disk (`tokens.json`): the ciphertext of each panel's token, as it should be
 * (`intend`) and as written. Each change is made to what the file should hold first and written
 * from there: a write that fails leaves it there, so the next write carries it (a log out whose
 * write failed is never undone by a later save).
 */
export class TokenFile {
  readonly #store: DocumentStore;
  readonly #queue = new WriteQueue();
  /** What the token store should hold, kept even when it cannot be decrypted now: the keyring may come back. */
  readonly #intended: Record<string, StoredToken> = {};
  /** What the token store holds as far as this run knows. */
  readonly #written: Record<string, StoredToken> = {};
  /** Panels whose intended entry may differ from the written one. */
  readonly #dirty = new Set<string>();
  /** The file holds what this version would not write (damage, another format): the next write is whole. */
  #rewrite: boolean;
  /** The write queued behind the one under way, not started yet: a flush asked now joins it. */
  #next: Promise<void> | null = null;

  private constructor(store: DocumentStore, rewrite: boolean) {
    this.#store = store;
    this.#rewrite = rewrite;
  }

  /** Whenever something could not be read, the file is kept aside first, because the next save rewrites it without what was unreadable. */
  static read(store: DocumentStore, now: Date): TokenFileRead {
    const entries = new Map<string, StoredToken | null>();
    const read = readOrMoveAside(store, now);
    if (!read.ok) {
      const fileProblem = damagedFileReason('was not valid JSON', read.movedTo);
      return { file: new TokenFile(store, true), entries, fileProblem, damagedCopy: null };
    }
    if (isEmptyDocument(read.document)) return { file: new TokenFile(store, false), entries, fileProblem: null, damagedCopy: null };
    const shape = vaultShape.safeParse(read.document);
    if (!shape.success) {
      const fileProblem = damagedFileReason('has a format this version does not know', copyAside(store.path, now));
      return { file: new TokenFile(store, true), entries, fileProblem, damagedCopy: null };
    }
    for (const [panelId, candidate] of Object.entries(shape.data.tokens)) entries.set(panelId, readStoredToken(candidate));
    const damagedCopy = [...entries.values()].includes(null) ? copyAside(store.path, now) : null;
    const file = new TokenFile(store, damagedCopy !== null || store.damagedJournal() !== null);
    for (const [panelId, stored] of entries) if (stored) file.#written[panelId] = stored;
    return { file, entries, fileProblem: null, damagedCopy };
  }

  /** What the file should hold for the panel. */
  entry(panelId: string): StoredToken | undefined {
    return Object.hasOwn(this.#intended, panelId) ? this.#intended[panelId] : undefined;
  }

  panelIds(): string[] {
    return Object.keys(this.#intended);
  }

  /** Says what the file should hold for the panel (`undefined`: nothing); `flush` writes it. */
  intend(panelId: string, stored: StoredToken | undefined): void {
    if (stored) this.#intended[panelId] = stored;
    else delete this.#intended[panelId];
    this.#dirty.add(panelId);
  }

  /** The entries the file held when it was read and no longer should, or that changed: the first flush deals with them. */
  markDifferences(): void {
    for (const panelId of Object.keys(this.#written)) if (this.entry(panelId) !== this.#writtenEntry(panelId)) this.#dirty.add(panelId);
  }

  /**
   * Writes what the file should hold, once the write under way is done: the changes made up to
   * the moment this write starts, which are those of every flush waiting on it (a change is made
   * with `intend` and flushed at once); later changes go with later flushes. Throws `STORAGE`
   * when the write fails, to every flush that shared it.
   */
  flush(): Promise<void> {
    // Grouped: every flush asked while another write is on disk shares the next one, which takes
    // what the file should hold when it starts. A fleet's log ins that end together are then one
    // fsync of tokens.json, not one each, and each is still on disk before its flush resolves.
    if (this.#next !== null) return this.#next;
    const next = this.#queue.run(async () => {
      // From here on, a change waits for the write after this one.
      this.#next = null;
      const writing = [...this.#dirty].map((panelId): [string, StoredToken | undefined] => [panelId, this.entry(panelId)]);
      const changed = writing.filter(([panelId, stored]) => this.#writtenEntry(panelId) !== stored);
      if (changed.length > 0) {
        const set = changed.filter((entry): entry is [string, StoredToken] => entry[1] !== undefined);
        const remove = changed.filter(([, stored]) => stored === undefined).map(([panelId]) => panelId);
        const change = this.#rewrite ? null : { field: 'tokens', set, remove };
        try {
          await this.#store.save(change, () => this.#document(set, remove));
        } catch (error) {
          throw storageError(`save the token store ${this.#store.path}`, error);
        }
        this.#rewrite = false;
        for (const [panelId, stored] of changed) {
          if (stored) this.#written[panelId] = stored;
          else delete this.#written[panelId];
        }
      }
      // Due again if what the file should hold moved on, even if back to what an earlier flush saw.
      for (const [panelId] of writing) {
        if (this.entry(panelId) === this.#writtenEntry(panelId)) this.#dirty.delete(panelId);
        else this.#dirty.add(panelId);
      }
    });
    this.#next = next;
    return next;
  }

  /** Own keys only: a panel id read from the file could be any string, `constructor` too. */
  #writtenEntry(panelId: string): StoredToken | undefined {
    return Object.hasOwn(this.#written, panelId) ? this.#written[panelId] : undefined;
  }

  /** Writes the file whole if its journal holds changes: at quit. */
  compact(): Promise<void> {
    return this.#queue.run(() => this.#store.compact(() => this.#document([], [])));
  }

  /** The file as written, with `set` and `remove` applied. */
  #document(set: readonly [string, StoredToken][], remove: readonly string[]): Record<string, unknown> {
    const tokens = { ...this.#written, ...Object.fromEntries(set) };
    for (const panelId of remove) delete tokens[panelId];
    return { version: VAULT_VERSION, tokens };
  }
}
