import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WEAK_BACKENDS } from '../../../electron/core/storage/token-vault.ts';
import { safeStorageEncryption, type SafeStorageLike } from '../../../electron/main/safe-storage-encryption.ts';

/** A safeStorage that "encrypts" by XOR, records what it was given, and can be told it has no keyring. */
function fakeSafeStorage(init: { available?: boolean; backend?: string } = {}) {
  const calls = { backend: 0, decryptArgs: [] as unknown[] };
  const xor = (bytes: Uint8Array) => Buffer.from(bytes.map((byte) => byte ^ 0x5a));
  const storage: SafeStorageLike = {
    isAsyncEncryptionAvailable: async () => init.available ?? true,
    encryptStringAsync: async (text) => xor(Buffer.from(text, 'utf8')),
    decryptStringAsync: async (encrypted) => {
      calls.decryptArgs.push(encrypted);
      if (!Buffer.isBuffer(encrypted)) throw new TypeError('Expected the first argument of decryptStringAsync() to be a buffer');
      return { shouldReEncrypt: false, result: xor(encrypted).toString('utf8') };
    },
    getSelectedStorageBackend: () => {
      calls.backend++;
      return init.backend ?? 'gnome_libsecret';
    },
  };
  return { storage, calls };
}

test('round-trips a token, handing decrypt a real Buffer even when given a plain Uint8Array', async () => {
  const { storage, calls } = fakeSafeStorage();
  const encryption = safeStorageEncryption(storage, 'linux');
  const ciphertext = await encryption.encrypt('tok\u00e9n-123');
  assert.notEqual(Buffer.from(ciphertext).toString('utf8'), 'tok\u00e9n-123');
  // The vault reads ciphertext back from base64 into whatever Uint8Array it likes.
  const plain = new Uint8Array(ciphertext);
  assert.equal(await encryption.decrypt(plain), 'tok\u00e9n-123');
  assert.ok(Buffer.isBuffer(calls.decryptArgs[0]));
});

test('on Linux the backend is the one safeStorage selected, and basic_text is one the core treats as weak', async () => {
  const { storage } = fakeSafeStorage({ backend: 'basic_text' });
  const encryption = safeStorageEncryption(storage, 'linux');
  assert.equal(encryption.backend(), 'basic_text');
  assert.ok(WEAK_BACKENDS.has(encryption.backend()));
  assert.equal(safeStorageEncryption(fakeSafeStorage({ backend: 'kwallet6' }).storage, 'linux').backend(), 'kwallet6');
});

test('on macOS and Windows the backend is named without calling the Linux-only method', async () => {
  const { storage, calls } = fakeSafeStorage();
  assert.equal(safeStorageEncryption(storage, 'darwin').backend(), 'keychain');
  assert.equal(safeStorageEncryption(storage, 'win32').backend(), 'dpapi');
  assert.equal(await safeStorageEncryption(storage, 'darwin').isAvailable(), true);
  assert.equal(await safeStorageEncryption(storage, 'win32').isAvailable(), true);
  assert.equal(calls.backend, 0);
});

test('availability follows safeStorage, and fails closed when the backend is unknown or the platform unsupported', async () => {
  assert.equal(await safeStorageEncryption(fakeSafeStorage({ available: false }).storage, 'linux').isAvailable(), false);
  assert.equal(await safeStorageEncryption(fakeSafeStorage({ available: false }).storage, 'darwin').isAvailable(), false);
  // safeStorage says yes, but the backend is `unknown` (asked before ready): no one can say what protects the key.
  assert.equal(await safeStorageEncryption(fakeSafeStorage({ backend: 'unknown' }).storage, 'linux').isAvailable(), false);
  const freebsd = safeStorageEncryption(fakeSafeStorage().storage, 'freebsd');
  assert.equal(freebsd.backend(), 'unsupported');
  assert.equal(await freebsd.isAvailable(), false);
});

test('a failing decrypt rejects (the vault reads that as a changed keyring)', async () => {
  const { storage } = fakeSafeStorage();
  storage.decryptStringAsync = async () => {
    throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
  };
  await assert.rejects(safeStorageEncryption(storage, 'linux').decrypt(new Uint8Array([1, 2, 3])), /decrypting/);
});
