import type { SecretBox } from '../gateway/connections-store.js';

/** The part of Electron's `safeStorage` the box uses (injected so a test can stand in for it). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  getSelectedStorageBackend?(): string;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
}

/**
 * Secrets sealed with the OS keychain's key. On Linux without a keyring, Electron falls back to a
 * hard-coded key (`basic_text`): that protects nothing, so it counts as unavailable and the store
 * refuses to keep the secret rather than pretend.
 */
export function safeStorageBox(safeStorage: SafeStorageLike, platform: string = process.platform): SecretBox {
  return {
    isAvailable: () =>
      safeStorage.isEncryptionAvailable() &&
      !(platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text'),
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (sealed) => safeStorage.decryptString(sealed),
  };
}
