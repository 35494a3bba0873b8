import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Encryption } from '../../../electron/core/index.ts';

/**
 * The OS secret storage as Paneldeck meets it across runs of the app: which backend safeStorage
 * picks can change from one start to the next, each keyring backend has its own key (which can
 * be reset), and `basic_text` encrypts with a key built into the app.
 */

export type Backend = 'gnome_libsecret' | 'kwallet5' | 'basic_text' | 'unavailable';
export const BACKENDS: readonly Backend[] = ['gnome_libsecret', 'kwallet5', 'basic_text', 'unavailable'];

export function isStrong(backend: string): boolean {
  return backend === 'gnome_libsecret' || backend === 'kwallet5';
}

/** What `backend()` says when no encryption is available at all. */
export const UNAVAILABLE_NAME = 'unknown';

/** Like Chromium's OSCrypt on Linux: a version prefix says which key a ciphertext needs. */
const BUILT_IN_PREFIX = Buffer.from('v10');
const KEYRING_PREFIX = Buffer.from('v11');
/** The same for every install and every run: that is what makes `basic_text` weak. */
const BUILT_IN_KEY = createHash('sha256').update('paneldeck model test: the key built into the app').digest();

export class Keyrings {
  readonly #keys = new Map<string, { epoch: number; key: Buffer }>();

  /** Which key of `backend` a ciphertext made now would need; 0 for the built-in key. */
  epoch(backend: string): number {
    return isStrong(backend) ? this.#key(backend).epoch : 0;
  }

  /** As a wiped or recreated keyring would: ciphertexts made before no longer decrypt. */
  reset(backend: string): void {
    if (!isStrong(backend)) return;
    this.#keys.set(backend, { epoch: this.epoch(backend) + 1, key: randomBytes(32) });
  }

  #key(backend: string): { epoch: number; key: Buffer } {
    let entry = this.#keys.get(backend);
    if (!entry) {
      entry = { epoch: 1, key: randomBytes(32) };
      this.#keys.set(backend, entry);
    }
    return entry;
  }

  /** safeStorage as one run of the app sees it: the backend is chosen at start and stays. */
  encryption(backend: Backend): Encryption {
    const keyFor = (prefix: Buffer): Buffer => {
      if (prefix.equals(BUILT_IN_PREFIX)) return BUILT_IN_KEY;
      // A keyring ciphertext needs the keyring, which basic_text (or nothing) cannot offer.
      if (!isStrong(backend)) throw new Error(`no keyring to decrypt with under ${backend}`);
      return this.#key(backend).key;
    };
    return {
      isAvailable: async () => backend !== 'unavailable',
      backend: () => (backend === 'unavailable' ? UNAVAILABLE_NAME : backend),
      encrypt: async (text) => {
        if (backend === 'unavailable') throw new Error('encryption is not available');
        const prefix = backend === 'basic_text' ? BUILT_IN_PREFIX : KEYRING_PREFIX;
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', keyFor(prefix), iv);
        const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
        return Buffer.concat([prefix, iv, cipher.getAuthTag(), body]);
      },
      decrypt: async (bytes) => {
        const data = Buffer.from(bytes);
        const decipher = createDecipheriv('aes-256-gcm', keyFor(data.subarray(0, 3)), data.subarray(3, 15));
        decipher.setAuthTag(data.subarray(15, 31));
        return Buffer.concat([decipher.update(data.subarray(31)), decipher.final()]).toString('utf8');
      },
    };
  }
}

/**
 * `inner` with every answer held by the scheduler (`hold`): each `await` inside the vault becomes
 * a point where the other calls under way may run first, in an order the scheduler picks.
 */
export function scheduledEncryption(inner: Encryption, hold: <T>(promise: Promise<T>, label: string) => Promise<T>): Encryption {
  return {
    backend: () => inner.backend(),
    isAvailable: () => hold(inner.isAvailable(), 'isAvailable'),
    encrypt: (text) => hold(inner.encrypt(text), 'encrypt'),
    decrypt: (bytes) => hold(inner.decrypt(bytes), 'decrypt'),
  };
}
