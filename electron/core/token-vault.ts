import { z } from 'zod';
import type { ErrorInfo } from '../../shared/errors.ts';
import type { TokenProtection, TokenStorage } from '../../shared/types.ts';
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
 * in memory only when no real encryption is available, or when the only encryption is a key
 * built into the app (`basic_text`) and the operator has not allowed that.
 */
export class TokenVault {
  readonly #store: DocumentStore;
  readonly #encryption: Encryption;
  readonly #tokens = new Map<string, { token: string; storage: TokenStorage }>();
  /** What is on disk, kept even when it cannot be decrypted now: the keyring may come back. */
  #persisted: Record<string, StoredToken> = {};
  /** Bumped by `forget`, so a save that was under way when the token was forgotten is dropped. */
  readonly #generation = new Map<string, number>();
  readonly #policy: VaultPolicy;

  private constructor(store: DocumentStore, encryption: Encryption, policy: VaultPolicy) {
    this.#store = store;
    this.#encryption = encryption;
    this.#policy = policy;
  }

  /**
   * Opens the vault and decrypts what it can. `problems` says why a panel's token could not be
   * read; `fileProblem` why none could (a damaged file, of which a copy was kept). Nothing that
   * cannot be read is deleted: the keyring may come back.
   */
  static async open(store: DocumentStore, encryption: Encryption, now: Date, policy: VaultPolicy): Promise<VaultOpening> {
    const vault = new TokenVault(store, encryption, policy);
    const { entries, fileProblem, damagedCopy } = readEntries(store, now);
    const problems = new Map<string, ErrorInfo>();
    const strength = await vault.#strength();
    const backend = vault.#backendName();
    const upgrades: [string, string][] = [];
    for (const [panelId, stored] of entries) {
      if (stored === null) {
        problems.set(panelId, {
          code: 'TOKEN_UNREADABLE',
          message: `The saved sign-in was damaged on disk (the token store as it was is kept at ${damagedCopy}). Log in again.`,
        });
        continue;
      }
      vault.#persisted[panelId] = stored;
      if (strength !== 'strong' && !vault.#usable(strength)) {
        problems.set(panelId, unavailableReason(strength, stored.backend, backend));
        continue;
      }
      let token: string;
      try {
        token = await encryption.decrypt(Buffer.from(stored.ciphertext, 'base64'));
      } catch {
        problems.set(panelId, undecryptableReason(stored.backend, backend));
        continue;
      }
      const savedWeakly = WEAK_BACKENDS.has(stored.backend);
      vault.#tokens.set(panelId, { token, storage: savedWeakly || strength !== 'strong' ? 'weak' : 'encrypted' });
      if (savedWeakly && strength === 'strong') upgrades.push([panelId, token]);
    }
    // A keyring appeared since these were saved under the built-in key: protect them properly now.
    for (const [panelId, token] of upgrades) {
      try {
        await vault.save(panelId, token, now);
      } catch {
        // Still readable as it was; the next log in tries again.
      }
    }
    return { vault, problems, fileProblem };
  }

  /** How tokens saved now would be protected. */
  async protection(): Promise<TokenProtection> {
    const strength = await this.#strength();
    return { level: strength === 'strong' ? 'keyring' : strength === 'weak' ? 'weak' : 'none', backend: this.#backendName() };
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
    const strength = await this.#strength();
    if (this.#usable(strength)) {
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
    const storage: TokenStorage = ciphertext === null ? 'memory' : strength === 'strong' ? 'encrypted' : 'weak';
    this.#tokens.set(panelId, { token, storage });
    return storage;
  }

  /**
   * Brings what is stored in line with the policy after the operator changed it: tokens kept in
   * memory are saved when weak protection is now allowed; weakly protected copies are deleted
   * from disk (the tokens stay in memory) when it no longer is. Returns the panels whose
   * storage changed, and where their token is now.
   */
  async applyPolicy(now: Date): Promise<Map<string, TokenStorage>> {
    const changed = new Map<string, TokenStorage>();
    const strength = await this.#strength();
    if (strength === 'weak' && this.#usable(strength)) {
      for (const [panelId, { token, storage }] of [...this.#tokens]) {
        if (storage !== 'memory') continue;
        const saved = await this.save(panelId, token, now);
        if (saved !== null && saved !== storage) changed.set(panelId, saved);
      }
    } else if (!this.#policy.allowWeak()) {
      const kept = Object.fromEntries(Object.entries(this.#persisted).filter(([, stored]) => !WEAK_BACKENDS.has(stored.backend)));
      this.#write(kept);
      for (const [panelId, entry] of this.#tokens) {
        if (entry.storage !== 'weak') continue;
        entry.storage = 'memory';
        changed.set(panelId, 'memory');
      }
    }
    return changed;
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

  /** Whether tokens may go to disk now: under a keyring always, under a built-in key only when allowed. */
  #usable(strength: Strength): boolean {
    return strength === 'strong' || (strength === 'weak' && this.#policy.allowWeak());
  }

  async #strength(): Promise<Strength> {
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

type Strength = 'strong' | 'weak' | 'unavailable';

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
function readEntries(store: DocumentStore, now: Date): {
  entries: Map<string, StoredToken | null>;
  fileProblem: VaultOpening['fileProblem'];
  damagedCopy: string | null;
} {
  const entries = new Map<string, StoredToken | null>();
  const read = readOrMoveAside(store, now);
  if (!read.ok) {
    return { entries, fileProblem: damagedFile('was not valid JSON', read.movedTo), damagedCopy: null };
  }
  if (isEmptyDocument(read.document)) return { entries, fileProblem: null, damagedCopy: null };
  const shape = vaultShape.safeParse(read.document);
  if (!shape.success) {
    return { entries, fileProblem: damagedFile('has a format this version does not know', copyAside(store.path, now)), damagedCopy: null };
  }
  for (const [panelId, candidate] of Object.entries(shape.data.tokens)) {
    const parsed = storedTokenSchema.safeParse(candidate);
    entries.set(panelId, parsed.success ? parsed.data : null);
  }
  const damagedCopy = [...entries.values()].includes(null) ? copyAside(store.path, now) : null;
  return { entries, fileProblem: null, damagedCopy };
}

function damagedFile(what: string, copyPath: string): NonNullable<VaultOpening['fileProblem']> {
  return {
    info: { code: 'TOKEN_UNREADABLE', message: `The saved sign-ins could not be read: the token store ${what}. It was kept at ${copyPath}. Log in again.` },
    summary: `The saved sign-ins could not be read: the token store ${what}. Panels that were logged in need a new log in. The file was kept untouched.`,
    copyPath,
  };
}

function unavailableReason(strength: Exclude<Strength, 'strong'>, savedUnder: string, now: string): ErrorInfo {
  const changed = savedUnder !== now ? `Secure storage on this system changed from ${savedUnder} to ${now} since the token was saved. ` : '';
  const why =
    strength === 'weak'
      ? `${now} is a key built into the app, not a keyring, and storing tokens with weak protection is off`
      : 'secure storage (the system keyring) is not available now';
  const choice = strength === 'weak' ? ', unless you turn on "Store tokens with weak protection on this system" in Preferences' : '';
  return {
    code: 'ENCRYPTION_UNAVAILABLE',
    message: `${changed}The saved sign-in is not read: ${why}. It stays on disk, untouched, for when the keyring is back. Log in again; the new token stays in memory until Paneldeck closes${choice}.`,
  };
}

function undecryptableReason(savedUnder: string, now: string): ErrorInfo {
  const why =
    savedUnder !== now
      ? `secure storage on this system changed from ${savedUnder} to ${now} since the token was saved`
      : 'the system keyring may have been changed or reset';
  return {
    code: 'TOKEN_UNREADABLE',
    message: `The saved sign-in could not be decrypted: ${why}. It is kept on disk, untouched. Log in again.`,
  };
}

function sameKeysAndValues(a: Record<string, StoredToken>, b: Record<string, StoredToken>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
