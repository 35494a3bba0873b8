import { z } from 'zod';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { TokenStorage } from '../../shared/types.ts';
import { readOrMoveAside, storageError, type DocumentStore } from './document-store.ts';

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

const vaultSchema = z.object({
  version: z.literal(1),
  tokens: z.record(
    z.string(),
    z.object({ ciphertext: z.base64(), backend: z.string(), savedAt: z.iso.datetime() }),
  ),
});
type VaultDocument = z.infer<typeof vaultSchema>;
type StoredToken = VaultDocument['tokens'][string];

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

  /** Opens the vault and decrypts what it can; `problems` says why a panel's token could not be read. */
  static async open(store: DocumentStore, encryption: Encryption, now: Date): Promise<{ vault: TokenVault; problems: Map<string, ErrorInfo> }> {
    const vault = new TokenVault(store, encryption);
    const problems = new Map<string, ErrorInfo>();
    const read = readOrMoveAside(store, now);
    const parsed = read.ok ? vaultSchema.safeParse(read.document) : null;
    if (!parsed?.success) return { vault, problems };
    vault.#persisted = { ...parsed.data.tokens };

    const strength = await vault.#strength();
    for (const [panelId, stored] of Object.entries(vault.#persisted)) {
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
    return { vault, problems };
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
      this.#store.write({ version: 1, tokens: persisted } satisfies VaultDocument);
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
