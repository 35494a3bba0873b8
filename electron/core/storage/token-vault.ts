import type { ErrorInfo } from '../../../shared/contract/errors.ts';
import type { ProtectionLevel, TokenProtection } from '../../../shared/types.ts';
import type { DocumentStore } from './document-store.ts';
import { TokenFile, type StoredToken, type TokenFileProblem } from './token-file.ts';
import { ADDRESS_CHANGED_REASON, damagedEntryReason, unavailableReason, undecryptableReason } from './token-vault-messages.ts';

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

const DECRYPTIONS_AT_ONCE = 64;

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
  /** The panel's `epoch` when the token was asked for. */
  epoch: number;
  /** The address that issued the token; `token()` hands it out for that address only. */
  baseUrl: string;
  /** Save only if the panel still holds this token (a later log in wins over an older token). */
  replacing?: string;
}

/**
 * Tokens by panel id. On disk only as ciphertext from `Encryption`, in a file of their own
 * (`TokenFile`); in memory only when no real encryption is available, or when the only encryption
 * is a key built into the app (`basic_text`) and the operator has not allowed that. Ending a
 * sign-in takes effect in memory at once; the methods that write resolve once it is on disk.
 */
export class TokenVault {
  readonly #file: TokenFile;
  readonly #encryption: Encryption;
  readonly #policy: VaultPolicy;
  readonly #tokens = new Map<string, HeldToken>();
  /** Bumped by `forget`, so a save that was under way when the sign-in ended is dropped. */
  readonly #epoch = new Map<string, number>();
  /** "Weak off" under way (`removeWeakCopies` to `weakRemovalEnded`): no new weak copy, even before the setting reads off. */
  #weakRemovals = 0;

  private constructor(file: TokenFile, encryption: Encryption, policy: VaultPolicy) {
    this.#file = file;
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
    const { file, entries, fileProblem, damagedCopy } = TokenFile.read(store, now);
    const vault = new TokenVault(file, encryption, policy);
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
      if (!panel) {
        if (!list.complete) file.intend(panelId, stored);
        continue;
      }
      if (!panel.signedIn) continue;
      if (stored.baseUrl !== undefined && stored.baseUrl !== panel.baseUrl) {
        problems.set(panelId, ADDRESS_CHANGED_REASON);
        continue;
      }
      file.intend(panelId, stored);
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
    file.markDifferences();
    try {
      // Drops what the panel list says has ended; the upgrades below would write it too.
      await file.flush();
    } catch {
      // Still due: the next write drops it.
    }
    // A keyring appeared since these were saved under the built-in key: protect them properly now.
    for (const [panelId, held] of upgrades) {
      try {
        await vault.save(panelId, held.token, now, { epoch: vault.epoch(panelId), baseUrl: held.baseUrl, replacing: held.token });
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
    return this.#file.entry(panelId) !== undefined;
  }

  storage(panelId: string): ProtectionLevel | null {
    return this.#tokens.get(panelId)?.storage ?? null;
  }

  /** Changes whenever the panel's sign-in ends; `save` takes it to drop stale tokens. */
  epoch(panelId: string): number {
    return this.#epoch.get(panelId) ?? 0;
  }

  /**
   * Keeps a token: encrypted on disk when the OS offers real encryption, else in memory for this
   * run. Returns where it went, or `null` when the sign-in it was for ended meanwhile (see `SaveFor`).
   * Everything is decided again after each `await` (the encryption's, the write's), when the world
   * may have changed.
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
    if (this.epoch(panelId) !== saveFor.epoch) return null;
    if (saveFor.replacing !== undefined && this.#tokens.get(panelId)?.token !== saveFor.replacing) return null;
    // Weak protection may have been turned off while the token was being encrypted.
    if (ciphertext !== null && !this.#usable(level)) ciphertext = null;

    const before = { entry: this.#file.entry(panelId), held: this.#tokens.get(panelId) };
    const entry =
      ciphertext === null ? undefined : { ciphertext, backend: this.#backendName(), savedAt: now.toISOString(), baseUrl: saveFor.baseUrl };
    const held: HeldToken = {
      token,
      storage: ciphertext === null ? 'memory' : level,
      baseUrl: saveFor.baseUrl,
    };
    // In memory at once, as the file will be: a 401 to the old token while this is written must not drop the new one.
    this.#file.intend(panelId, entry);
    this.#tokens.set(panelId, held);
    try {
      await this.#file.flush();
    } catch (error) {
      // Taken back, unless a later change (a log out, another save) took its place meanwhile.
      if (this.#file.entry(panelId) === entry) this.#file.intend(panelId, before.entry);
      if (this.#tokens.get(panelId) === held) {
        if (before.held) this.#tokens.set(panelId, before.held);
        else this.#tokens.delete(panelId);
      }
      throw error;
    }
    // The sign-in ended while the token was being written: the end's own write removes it.
    if (this.epoch(panelId) !== saveFor.epoch) return null;
    // Weak copies may have been removed meanwhile: where the token is now.
    return held.storage;
  }

  /**
   * Weak protection was turned on: saves the tokens kept in memory under the built-in key. Each is
   * saved only if its sign-in is still the same when its encryption ends; `onSaved` runs at once
   * after each save, before anything else can change the panel, and is waited for.
   */
  async saveHeldInMemory(now: Date, onSaved: (panelId: string, storage: ProtectionLevel) => Promise<void>): Promise<void> {
    const level = await this.#level();
    if (level !== 'weak' || !this.#usable(level)) return;
    for (const [panelId, held] of [...this.#tokens]) {
      if (held.storage !== 'memory' || this.#tokens.get(panelId) !== held) continue;
      const saved = await this.save(panelId, held.token, now, {
        epoch: this.epoch(panelId),
        baseUrl: held.baseUrl,
        replacing: held.token,
      });
      if (saved !== null && saved !== 'memory') await onSaved(panelId, saved);
    }
  }

  /**
   * Weak protection is being turned off: deletes every copy under the built-in key from disk; the
   * tokens stay in memory. Idempotent, so a call after a failed write finishes the job. Returns
   * the panels whose tokens are now in memory only. From the call until `weakRemovalEnded()` (once
   * the setting is written, or the change failed), no token is saved under the built-in key.
   */
  async removeWeakCopies(): Promise<string[]> {
    this.#weakRemovals++;
    for (const panelId of this.#file.panelIds()) {
      if (WEAK_BACKENDS.has(this.#file.entry(panelId)!.backend)) this.#file.intend(panelId, undefined);
    }
    await this.#file.flush();
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
   * and then on disk. The epoch stays: a log in under way is the operator's new sign-in, not
   * one that ended, so it still counts. A failed write throws `STORAGE` and stays due.
   */
  async dropRejected(panelId: string, token: string): Promise<boolean> {
    if (this.#tokens.get(panelId)?.token !== token) return false;
    this.#tokens.delete(panelId);
    this.#file.intend(panelId, undefined);
    await this.#file.flush();
    return true;
  }

  /**
   * Ends the panels' sign-ins: at once in memory, whatever happens on disk; then deletes their
   * ciphertexts. A failed write throws `STORAGE`, and the deletion stays due for the next write.
   */
  forget(...panelIds: string[]): Promise<void> {
    // Many in one write: a log out of a thousand panels is one write of the token store.
    for (const panelId of panelIds) {
      this.#epoch.set(panelId, this.epoch(panelId) + 1);
      this.#tokens.delete(panelId);
      this.#file.intend(panelId, undefined);
    }
    return this.#file.flush();
  }

  /** Writes the token store whole if its journal holds changes: at quit. */
  compact(): Promise<void> {
    return this.#file.compact();
  }

  weakRemovalEnded(): void {
    this.#weakRemovals = Math.max(0, this.#weakRemovals - 1);
  }

  /** Whether tokens may go to disk now: under a keyring always, under a built-in key only when allowed. */
  #usable(level: ProtectionLevel): boolean {
    return level === 'keyring' || (level === 'weak' && this.#weakRemovals === 0 && this.#policy.allowWeak());
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
  fileProblem: TokenFileProblem;
}
