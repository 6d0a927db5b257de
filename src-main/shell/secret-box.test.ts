import { describe, expect, it } from 'vitest';
import { safeStorageBox, type SafeStorageLike } from './secret-box.js';

const fake = (available: boolean, backend = 'gnome_libsecret'): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: () => backend,
  encryptString: (plain) => Buffer.from(plain).reverse(),
  decryptString: (sealed) => Buffer.from(sealed).reverse().toString(),
});

describe('the safeStorage secret box', () => {
  it('is available only when the OS offers a real keychain key', () => {
    expect(safeStorageBox(fake(true), 'linux').isAvailable()).toBe(true);
    expect(safeStorageBox(fake(false), 'darwin').isAvailable()).toBe(false);
    // Linux without a keyring: Electron's hard-coded fallback key protects nothing.
    expect(safeStorageBox(fake(true, 'basic_text'), 'linux').isAvailable()).toBe(false);
  });

  it('seals and unseals through safeStorage', () => {
    const box = safeStorageBox(fake(true), 'win32');
    expect(box.decrypt(box.encrypt('s3cret'))).toBe('s3cret');
    expect(box.encrypt('s3cret').toString()).not.toBe('s3cret');
  });
});
