import type { Encryption } from '../core/index.ts';

/**
 * The part of Electron 45's `safeStorage` the vault needs: the async API only, since the
 * synchronous one is deprecated in 45 and gone in 46.
 */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only: `basic_text`, `gnome_libsecret`, `kwallet`..., or `unknown` before `ready`. */
  getSelectedStorageBackend(): string;
}

/** What protects the key on the platforms where Electron does not name a backend. */
const FIXED_BACKENDS: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'keychain',
  win32: 'dpapi',
};

/**
 * The vault's `Encryption` over safeStorage. It fails closed: on a platform it does not know,
 * or on Linux while the backend is `unknown`, encryption counts as unavailable, so tokens stay
 * in memory rather than on disk under a protection nobody can name.
 */
export function safeStorageEncryption(safeStorage: SafeStorageLike, platform: NodeJS.Platform): Encryption {
  const backend = (): string => {
    if (platform === 'linux') return safeStorage.getSelectedStorageBackend();
    return FIXED_BACKENDS[platform] ?? 'unsupported';
  };
  return {
    isAvailable: async () => {
      // Asked first: the async encryptor starts on first use, and only then names its backend.
      const available = await safeStorage.isAsyncEncryptionAvailable();
      const name = backend();
      return available && name !== 'unknown' && name !== 'unsupported';
    },
    backend,
    encrypt: (text) => safeStorage.encryptStringAsync(text),
    // Electron insists on a Buffer, not any Uint8Array.
    decrypt: async (bytes) => (await safeStorage.decryptStringAsync(Buffer.from(bytes))).result,
  };
}
