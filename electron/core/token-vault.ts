import { z } from 'zod';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { TokenStorage } from '../../shared/types.ts';
import { copyAside, isEmptyDocument, readOrMoveAside, storageError, type DocumentStore } from './document-store.ts';

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
const storedTokenSchema = z.object({ ciphertext: z.base64(), backend: z.string(), savedAt: z.iso.datetime() });
type StoredToken = z.infer<typeof storedTokenSchema>;

/**
 * Tokens by panel id. On disk only as ciphertext from `Encryption`, in a file of their own;
 * in memory only when no real encryption is available.
 */
export class TokenVault {
  readonly #store: DocumentStore;
  readonly #encryption: Encryption;
  readonly #tokens = new Map<string, { token: string; storage: TokenStorage }>();
  /** What is on disk, kept even when it cannot be decrypted now: the keyring may come back. */
  #persisted: Record<string, StoredToken> = {};
  /** Bumped by `forget`, so a save that was under way when the token was forgotten is dropped. */
  readonly #generation = new Map<string, number>();

  private constructor(store: DocumentStore, encryption: Encryption) {
    this.#store = store;
    this.#encryption = encryption;
  }

  /**
   * Opens the vault and decrypts what it can. `problems` says why a panel's token could not be
   * read; `fileProblem` why none could (a damaged file, of which a copy was kept).
   */
  static async open(store: DocumentStore, encryption: Encryption, now: Date): Promise<VaultOpening> {
    const vault = new TokenVault(store, encryption);
    const { entries, fileProblem } = readEntries(store, now);
    const problems = new Map<string, ErrorInfo>();
    const strength = await vault.#strength();
    for (const [panelId, stored] of entries) {
      if (stored === null) {
        problems.set(panelId, { code: 'TOKEN_UNREADABLE', message: 'The saved sign-in was damaged on disk (a copy of the token store was kept). Log in again.' });
        continue;
      }
      vault.#persisted[panelId] = stored;
      if (strength !== 'strong') {
        problems.set(panelId, unavailableReason(strength));
        continue;
      }
      try {
        const token = await encryption.decrypt(Buffer.from(stored.ciphertext, 'base64'));
        vault.#tokens.set(panelId, { token, storage: 'encrypted' });
      } catch {
        problems.set(panelId, {
          code: 'TOKEN_UNREADABLE',
          message: 'The saved sign-in could not be decrypted: the system keyring may have been changed or reset. Log in again.',
        });
      }
    }
    return { vault, problems, fileProblem };
  }

  token(panelId: string): string | undefined {
    return this.#tokens.get(panelId)?.token;
  }

  storage(panelId: string): TokenStorage | null {
    return this.#tokens.get(panelId)?.storage ?? null;
  }

  /** Changes whenever the panel's token is forgotten; `save` takes it to drop stale tokens. */
  generation(panelId: string): number {
    return this.#generation.get(panelId) ?? 0;
  }

  /**
   * Keeps a token: encrypted on disk when the OS offers real encryption, else in memory for this
   * run. Returns where it went, or `null` when the panel's token was forgotten since `generation`
   * (logged out, removed, or moved to another address while the token was being obtained).
   */
  async save(panelId: string, token: string, now: Date, generation = this.generation(panelId)): Promise<TokenStorage | null> {
    let ciphertext: string | null = null;
    if ((await this.#strength()) === 'strong') {
      try {
        ciphertext = Buffer.from(await this.#encryption.encrypt(token)).toString('base64');
      } catch {
        // Encryption that fails is encryption that is unavailable: keep the token in memory.
        ciphertext = null;
      }
    }
    if (this.generation(panelId) !== generation) return null;

    const persisted = { ...this.#persisted };
    if (ciphertext === null) delete persisted[panelId];
    else persisted[panelId] = { ciphertext, backend: this.#backendName(), savedAt: now.toISOString() };
    this.#write(persisted);
    const storage: TokenStorage = ciphertext === null ? 'memory' : 'encrypted';
    this.#tokens.set(panelId, { token, storage });
    return storage;
  }

  /** Forgets the token in memory and deletes its ciphertext. */
  forget(panelId: string): void {
    this.#generation.set(panelId, this.generation(panelId) + 1);
    this.#tokens.delete(panelId);
    if (Object.hasOwn(this.#persisted, panelId)) {
      const { [panelId]: _removed, ...rest } = this.#persisted;
      this.#write(rest);
    }
  }

  #write(persisted: Record<string, StoredToken>): void {
    if (sameKeysAndValues(persisted, this.#persisted)) return;
    try {
      this.#store.write({ version: VAULT_VERSION, tokens: persisted });
    } catch (error) {
      throw storageError(`save the token store ${this.#store.path}`, error);
    }
    this.#persisted = persisted;
  }

  async #strength(): Promise<'strong' | 'weak' | 'unavailable'> {
    try {
      if (!(await this.#encryption.isAvailable())) return 'unavailable';
      return WEAK_BACKENDS.has(this.#backendName()) ? 'weak' : 'strong';
    } catch {
      return 'unavailable';
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

export interface VaultOpening {
  vault: TokenVault;
  problems: Map<string, ErrorInfo>;
  fileProblem: ErrorInfo | null;
}

/**
 * The entries of the token store, each checked on its own: a damaged entry is `null` and costs
 * only its own panel. Whenever something could not be read, the file is kept aside first,
 * because the next save rewrites it without what was unreadable.
 */
function readEntries(store: DocumentStore, now: Date): { entries: Map<string, StoredToken | null>; fileProblem: ErrorInfo | null } {
  const entries = new Map<string, StoredToken | null>();
  const read = readOrMoveAside(store, now);
  if (!read.ok) {
    return { entries, fileProblem: damagedFile(`was not valid JSON; it was moved to ${read.movedTo}`) };
  }
  if (isEmptyDocument(read.document)) return { entries, fileProblem: null };
  const shape = vaultShape.safeParse(read.document);
  if (!shape.success) {
    return { entries, fileProblem: damagedFile(`has a format this version does not know; a copy was kept at ${copyAside(store.path, now)}`) };
  }
  for (const [panelId, candidate] of Object.entries(shape.data.tokens)) {
    const parsed = storedTokenSchema.safeParse(candidate);
    entries.set(panelId, parsed.success ? parsed.data : null);
  }
  if ([...entries.values()].includes(null)) copyAside(store.path, now);
  return { entries, fileProblem: null };
}

function damagedFile(what: string): ErrorInfo {
  return { code: 'TOKEN_UNREADABLE', message: `The saved sign-ins could not be read: the token store ${what}. Log in again.` };
}

function unavailableReason(strength: 'weak' | 'unavailable'): ErrorInfo {
  const why =
    strength === 'weak'
      ? 'this system only offers encryption with a built-in key (no keyring), which protects nothing'
      : 'secure storage (the system keyring) is not available now';
  return {
    code: 'ENCRYPTION_UNAVAILABLE',
    message: `The saved sign-in cannot be read: ${why}. Log in again; the token will then be kept in memory until Paneldeck closes.`,
  };
}

function sameKeysAndValues(a: Record<string, StoredToken>, b: Record<string, StoredToken>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
