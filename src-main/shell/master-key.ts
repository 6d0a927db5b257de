import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';

/**
 * The desktop's master key: random, kept only encrypted by the OS keychain (safeStorage) in the
 * data dir. Where no keychain is available it falls back to the headless 0600 key file.
 */
export function desktopMasterKey(dataDir: string): Buffer | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  const file = join(dataDir, 'master.key.enc');
  if (!existsSync(file)) {
    const key = randomBytes(32);
    writeFileSync(file, safeStorage.encryptString(key.toString('base64')), { mode: 0o600 });
    chmodSync(file, 0o600); // whatever the umask
    return key;
  }
  return Buffer.from(safeStorage.decryptString(readFileSync(file)), 'base64');
}
