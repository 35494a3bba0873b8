import { z } from 'zod';
import type { ErrorInfo } from '../../../shared/errors.ts';
import type { ProtectionLevel, TokenProtection } from '../../../shared/types.ts';
import { copyAside, isEmptyDocument, readOrMoveAside, storageError, type DocumentStore } from './document-store.ts';
import { isRecord, isTime } from '../common/guards.ts';
import {
  ADDRESS_CHANGED_REASON,
  damagedEntryReason,
  damagedFileReason,
  unavailableReason,
  undecryptableReason,
} from './token-vault-messages.ts';

/**
 * The OS encryption the vault relies on. The app implements it with safeStorage's async API;
 * `backend` is `getSelectedStorageBackend()` on Linux (e.g. `gnome_libsecret`, `basic_text`).
 */
export interface Encryption {
  isAvailable(): Promise<boolean>;
  backend(): string;
  encrypt(text: string): Promise<Uint8Array>;
  decrypt(bytes: Uint8Array): Promise<string>;
}

/** Linux's fallback backend encrypts with a hard-coded key: as good as plain text. */
export const WEAK_BACKENDS: ReadonlySet<string> = new Set(['basic_text']);

const VAULT_VERSION = 1;
const vaultShape = z.object({ version: z.literal(VAULT_VERSION), tokens: z.record(z.string(), z.unknown()) });
interface StoredToken {
  /** Base64 of what `Encryption.encrypt` gave. */
  ciphertext: string;
  backend: string;
  savedAt: string;
  /** The panel address the token was issued by; absent in files from before it was recorded. */
  baseUrl?: string;
}
const DECRYPTIONS_AT_ONCE = 64;

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

/** A token held for a panel, bound to the address that issued it. */
interface HeldToken {
  token: string;
  storage: ProtectionLevel;
  baseUrl: string;
}

/** What the panel list says of each panel at start: its address, and whether it was signed in. */
export interface PanelListView {
  panels: ReadonlyMap<string, { baseUrl: string; signedIn: boolean }>;
  /** False when some of the list could not be read: a token of an unknown panel is then kept on disk. */
  complete: boolean;
}

/** Whose sign-in a save belongs to: a save for a sign-in that ended meanwhile is dropped. */
export interface SaveFor {
  /** The panel's `generation` when the token was asked for. */
  generation: number;
  /** The address that issued the token; `token()` hands it out for that address only. */
  baseUrl: string;
  /** Save only if the panel still holds this token (a later log in wins over an older token). */
  replacing?: string;
}

/**
 * Tokens by panel id. On disk only as ciphertext from `Encryption`, in a file of their own;
 * in memory only when no real encryption is available, or when the only encryption is a key
 * built into the app (`basic_text`) and the operator has not allowed that.
 *
 * Every change to the file is made to `#intended` first and written from there. A write that
 * fails leaves the change in `#intended`, so the next write carries it: a log out whose write
 * failed is never undone by a later save.
 */
export class TokenVault {
  readonly #store: DocumentStore;
  readonly #encryption: Encryption;
  readonly #policy: VaultPolicy;
  readonly #tokens = new Map<string, HeldToken>();
  /** What the token store should hold, kept even when it cannot be decrypted now: the keyring may come back. */
  #intended: Record<string, StoredToken> = {};
  /** What the token store holds as far as this run knows. */
  #written: Record<string, StoredToken> = {};
  /** Bumped by `forget`, so a save that was under way when the sign-in ended is dropped. */
  readonly #generation = new Map<string, number>();

  private constructor(store: DocumentStore, encryption: Encryption, policy: VaultPolicy) {
    this.#store = store;
    this.#encryption = encryption;
    this.#policy = policy;
  }

  /**
   * Opens the vault and decrypts what the panel list says is signed in. `problems` says why a
   * panel's token could not be read; `fileProblem` why none could. A token the list says was
   * ended (logged out, or the panel removed) is dropped even when the write recording that failed.
   */
  static async open(
    store: DocumentStore,
    encryption: Encryption,
    now: Date,
    policy: VaultPolicy,
    list: PanelListView,
  ): Promise<VaultOpening> {
    const vault = new TokenVault(store, encryption, policy);
    const { entries, fileProblem, damagedCopy } = readEntries(store, now);
    const problems = new Map<string, ErrorInfo>();
    const level = await vault.#level();
    const backend = vault.#backendName();
    const upgrades: [string, HeldToken][] = [];
    const toDecrypt: { panelId: string; stored: StoredToken; baseUrl: string }[] = [];
    for (const [panelId, stored] of entries) {
      const panel = list.panels.get(panelId);
      if (stored === null) {
        problems.set(panelId, damagedEntryReason(damagedCopy));
        continue;
      }
      // What the file holds, so that the flush below sees every entry dropped from it.
      vault.#written[panelId] = stored;
      if (!panel) {
        if (!list.complete) vault.#intended[panelId] = stored;
        continue;
      }
      if (!panel.signedIn) continue;
      if (stored.baseUrl !== undefined && stored.baseUrl !== panel.baseUrl) {
        problems.set(panelId, ADDRESS_CHANGED_REASON);
        continue;
      }
      vault.#intended[panelId] = stored;
      if (level !== 'keyring' && !vault.#usable(level)) {
        problems.set(panelId, unavailableReason(level, stored.backend, backend));
        continue;
      }
      toDecrypt.push({ panelId, stored, baseUrl: panel.baseUrl });
    }
    // Many at a time: a fleet of thousands would otherwise wait for each decryption in turn.
    for (let start = 0; start < toDecrypt.length; start += DECRYPTIONS_AT_ONCE) {
      const batch = toDecrypt.slice(start, start + DECRYPTIONS_AT_ONCE);
      const tokens = await Promise.all(
        batch.map(({ stored }) => encryption.decrypt(Buffer.from(stored.ciphertext, 'base64')).catch(() => null)),
      );
      batch.forEach(({ panelId, stored, baseUrl }, index) => {
        const token = tokens[index];
        if (typeof token !== 'string') {
          problems.set(panelId, undecryptableReason(stored.backend, backend));
          return;
        }
        const savedWeakly = WEAK_BACKENDS.has(stored.backend);
        const held: HeldToken = { token, storage: savedWeakly || level !== 'keyring' ? 'weak' : 'keyring', baseUrl };
        vault.#tokens.set(panelId, held);
        if (savedWeakly && level === 'keyring') upgrades.push([panelId, held]);
      });
    }
    try {
      // Drops what the panel list says has ended; the upgrades below would write it too.
      vault.#flush();
    } catch {
      // Kept in `#intended`: the next write drops it.
    }
    // A keyring appeared since these were saved under the built-in key: protect them properly now.
    for (const [panelId, held] of upgrades) {
      try {
        await vault.save(panelId, held.token, now, { generation: vault.generation(panelId), baseUrl: held.baseUrl, replacing: held.token });
      } catch {
        // Still readable as it was; the next log in tries again.
      }
    }
    return { vault, problems, fileProblem };
  }

  /** How tokens saved now would be protected. */
  async protection(): Promise<TokenProtection> {
    const level = await this.#level();
    return { level, backend: this.#backendName() };
  }

  /** The panel's token, only for the address that issued it: a token is never sent anywhere else. */
  token(panelId: string, baseUrl: string): string | undefined {
    const held = this.#tokens.get(panelId);
    return held?.baseUrl === baseUrl ? held.token : undefined;
  }

  /** Whether a saved sign-in of the panel is kept on disk, readable now or not. */
  keeps(panelId: string): boolean {
    return Object.hasOwn(this.#intended, panelId);
  }

  storage(panelId: string): ProtectionLevel | null {
    return this.#tokens.get(panelId)?.storage ?? null;
  }

  /** Changes whenever the panel's sign-in ends; `save` takes it to drop stale tokens. */
  generation(panelId: string): number {
    return this.#generation.get(panelId) ?? 0;
  }

  /**
   * Keeps a token: encrypted on disk when the OS offers real encryption, else in memory for this
   * run. Returns where it went, or `null` when the sign-in it was for ended meanwhile (see `SaveFor`).
   * Everything is decided again after the encryption's `await`, when the world may have changed.
   */
  async save(panelId: string, token: string, now: Date, saveFor: SaveFor): Promise<ProtectionLevel | null> {
    let ciphertext: string | null = null;
    const level = await this.#level();
    if (this.#usable(level)) {
      try {
        ciphertext = Buffer.from(await this.#encryption.encrypt(token)).toString('base64');
      } catch {
        // Encryption that fails is encryption that is unavailable: keep the token in memory.
        ciphertext = null;
      }
    }
    if (this.generation(panelId) !== saveFor.generation) return null;
    if (saveFor.replacing !== undefined && this.#tokens.get(panelId)?.token !== saveFor.replacing) return null;
    // Weak protection may have been turned off while the token was being encrypted.
    if (ciphertext !== null && !this.#usable(level)) ciphertext = null;

    const before = this.#intended[panelId];
    if (ciphertext === null) delete this.#intended[panelId];
    else this.#intended[panelId] = { ciphertext, backend: this.#backendName(), savedAt: now.toISOString(), baseUrl: saveFor.baseUrl };
    try {
      this.#flush();
    } catch (error) {
      if (before) this.#intended[panelId] = before;
      else delete this.#intended[panelId];
      throw error;
    }
    // A token encrypted at all was encrypted at the level in use: the keyring, or the weak key allowed.
    const storage: ProtectionLevel = ciphertext === null ? 'memory' : level;
    this.#tokens.set(panelId, { token, storage, baseUrl: saveFor.baseUrl });
    return storage;
  }

  /**
   * Weak protection was turned on: saves the tokens kept in memory under the built-in key. Each is
   * saved only if its sign-in is still the same when its encryption ends; `onSaved` runs at once
   * after each save, before anything else can change the panel.
   */
  async saveHeldInMemory(now: Date, onSaved: (panelId: string, storage: ProtectionLevel) => void): Promise<void> {
    const level = await this.#level();
    if (level !== 'weak' || !this.#usable(level)) return;
    for (const [panelId, held] of [...this.#tokens]) {
      if (held.storage !== 'memory' || this.#tokens.get(panelId) !== held) continue;
      const saved = await this.save(panelId, held.token, now, {
        generation: this.generation(panelId),
        baseUrl: held.baseUrl,
        replacing: held.token,
      });
      if (saved !== null && saved !== 'memory') onSaved(panelId, saved);
    }
  }

  /**
   * Weak protection was turned off: deletes every copy under the built-in key from disk; the
   * tokens stay in memory. Idempotent, so a call after a failed write finishes the job. Returns
   * the panels whose tokens are now in memory only.
   */
  removeWeakCopies(): string[] {
    for (const [panelId, stored] of Object.entries(this.#intended)) {
      if (WEAK_BACKENDS.has(stored.backend)) delete this.#intended[panelId];
    }
    this.#flush();
    const changed: string[] = [];
    for (const [panelId, held] of this.#tokens) {
      if (held.storage !== 'weak') continue;
      held.storage = 'memory';
      changed.push(panelId);
    }
    return changed;
  }

  /**
   * The panel rejected `token` (401/403): drops it, if it is still the panel's, at once in memory
   * and then on disk. The generation stays: a log in under way is the operator's new sign-in, not
   * one that ended, so it still counts. A failed write throws `STORAGE` and stays due.
   */
  dropRejected(panelId: string, token: string): boolean {
    if (this.#tokens.get(panelId)?.token !== token) return false;
    this.#tokens.delete(panelId);
    delete this.#intended[panelId];
    this.#flush();
    return true;
  }

  /**
   * Ends the panels' sign-ins: at once in memory, whatever happens on disk; then deletes their
   * ciphertexts. A failed write throws `STORAGE`, and the deletion stays due for the next write.
   */
  forget(...panelIds: string[]): void {
    // Many in one write: a log out of a thousand panels is one write of the token store.
    for (const panelId of panelIds) {
      this.#generation.set(panelId, this.generation(panelId) + 1);
      this.#tokens.delete(panelId);
      delete this.#intended[panelId];
    }
    this.#flush();
  }

  #flush(): void {
    if (sameEntries(this.#intended, this.#written)) return;
    const snapshot = { ...this.#intended };
    try {
      this.#store.write({ version: VAULT_VERSION, tokens: snapshot });
    } catch (error) {
      throw storageError(`save the token store ${this.#store.path}`, error);
    }
    this.#written = snapshot;
  }

  /** Whether tokens may go to disk now: under a keyring always, under a built-in key only when allowed. */
  #usable(level: ProtectionLevel): boolean {
    return level === 'keyring' || (level === 'weak' && this.#policy.allowWeak());
  }

  async #level(): Promise<ProtectionLevel> {
    try {
      if (!(await this.#encryption.isAvailable())) return 'memory';
      return WEAK_BACKENDS.has(this.#backendName()) ? 'weak' : 'keyring';
    } catch {
      return 'memory';
    }
  }

  #backendName(): string {
    try {
      return this.#encryption.backend();
    } catch {
      return 'unknown';
    }
  }
}

/** The operator's say over weak protection, read at the moment a token is saved or opened. */
export interface VaultPolicy {
  allowWeak(): boolean;
}

export interface VaultOpening {
  vault: TokenVault;
  problems: Map<string, ErrorInfo>;
  /** `info` goes on each panel that lost its sign-in; `summary` is the one-line notice for the window. */
  fileProblem: { info: ErrorInfo; summary: string; copyPath: string } | null;
}

/**
 * The entries of the token store, each checked on its own: a damaged entry is `null` and costs
 * only its own panel. Whenever something could not be read, the file is kept aside first,
 * because the next save rewrites it without what was unreadable.
 */
function readEntries(
  store: DocumentStore,
  now: Date,
): {
  entries: Map<string, StoredToken | null>;
  fileProblem: VaultOpening['fileProblem'];
  damagedCopy: string | null;
} {
  const entries = new Map<string, StoredToken | null>();
  const read = readOrMoveAside(store, now);
  if (!read.ok) {
    return { entries, fileProblem: damagedFileReason('was not valid JSON', read.movedTo), damagedCopy: null };
  }
  if (isEmptyDocument(read.document)) return { entries, fileProblem: null, damagedCopy: null };
  const shape = vaultShape.safeParse(read.document);
  if (!shape.success) {
    return {
      entries,
      fileProblem: damagedFileReason('has a format this version does not know', copyAside(store.path, now)),
      damagedCopy: null,
    };
  }
  for (const [panelId, candidate] of Object.entries(shape.data.tokens)) {
    entries.set(panelId, readStoredToken(candidate));
  }
  const damagedCopy = [...entries.values()].includes(null) ? copyAside(store.path, now) : null;
  return { entries, fileProblem: null, damagedCopy };
}

function sameEntries(a: Record<string, StoredToken>, b: Record<string, StoredToken>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
