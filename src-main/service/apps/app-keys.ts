/**
 * The `app_keys` table: each app's RSA key pairs, one current (signs and verifies its tokens) and
 * the earlier ones kept as history, private halves encrypted at rest. AppRepository (apps.ts) is
 * the way in; this class holds the key-pair statements and the per-data-version key cache.
 */
import type Database from 'better-sqlite3';
import type { DataVersion } from '../db/data-version.js';
import { VersionedCache } from '../db/data-version.js';
import type { SecretCipher } from '../crypto/cipher.js';
import type { RsaKeyPair } from '../crypto/rsa.js';
import type { SigningAlg } from '../../../src-shared/contracts/apps.js';

export interface AppKeyInfo {
  kid: string;
  alg: SigningAlg;
  created: string;
}

export interface AppKey extends AppKeyInfo {
  publicPem: string;
  /** Decrypted; never log or return it. */
  privatePem: string;
}

export interface ExposedKey {
  kid: string;
  alg: SigningAlg;
  publicPem: string;
}

/** A current key as stored: the private half is encrypted until `decryptPrivateKey`. */
export interface SealedSigningKey {
  kid: string;
  alg: SigningAlg;
  publicPem: string;
  privateEnc: string;
}

const PINNED_ALGS: readonly string[] = ['PS512', 'RS512'] satisfies SigningAlg[];

interface KeyRow {
  kid: string;
  alg: SigningAlg;
  public_pem: string;
  private_enc: string;
  created: string;
}

export class AppKeyTable {
  /** Every bearer token names its app's current key: read once per data version, not per request. */
  private readonly signingKeyCache: VersionedCache<number, SealedSigningKey | undefined>;

  /** `stmt` is AppRepository's: it marks the data version before a write. */
  constructor(
    private readonly stmt: (sql: string) => Database.Statement,
    private readonly cipher: SecretCipher,
    versions: DataVersion,
  ) {
    this.signingKeyCache = new VersionedCache(versions, 1000);
  }

  /** Stores `pair` as the app's current key (the caller retires the previous one first). */
  insertCurrent(appId: number, pair: RsaKeyPair, alg: SigningAlg, created: string): void {
    this.stmt(
      'INSERT INTO app_keys (app_id, kid, alg, public_pem, private_enc, current, created) VALUES (?, ?, ?, ?, ?, 1, ?)',
    ).run(appId, pair.kid, alg, pair.publicPem, this.cipher.encrypt(pair.privatePem), created);
  }

  /** The current pair becomes history: never used to sign or verify again. */
  retireCurrent(appId: number): void {
    this.stmt('UPDATE app_keys SET current = 0 WHERE app_id = ? AND current = 1').run(appId);
  }

  /** The current key's public facts, for display (nothing is decrypted). */
  currentKeyInfo(appId: number): AppKeyInfo | undefined {
    return this.stmt('SELECT kid, alg, created FROM app_keys WHERE app_id = ? AND current = 1').get(appId) as
      AppKeyInfo | undefined;
  }

  /**
   * The current key pair with its private key decrypted, for signing tokens. Callers must never
   * log or return `privatePem`.
   */
  currentKey(appId: number): AppKey | undefined {
    const row = this.stmt(
      'SELECT kid, alg, public_pem, private_enc, created FROM app_keys WHERE app_id = ? AND current = 1',
    ).get(appId) as KeyRow | undefined;
    if (!row) return undefined;
    return {
      kid: row.kid,
      alg: row.alg,
      created: row.created,
      publicPem: row.public_pem,
      privatePem: this.cipher.decrypt(row.private_enc),
    };
  }

  /**
   * The current key for signing and verifying tokens, with its private half still encrypted
   * (docs/tokens.md: one algorithm pinned per key). Exactly one current key with a pinned
   * algorithm, or undefined: anything else is treated as no key at all.
   */
  currentSigningKey(appId: number): SealedSigningKey | undefined {
    return this.signingKeyCache.get(appId, () => this.readSigningKey(appId));
  }

  private readSigningKey(appId: number): SealedSigningKey | undefined {
    const rows = this.stmt(
      'SELECT kid, alg, public_pem, private_enc FROM app_keys WHERE app_id = ? AND current = 1',
    ).all(appId) as Omit<KeyRow, 'created'>[];
    if (rows.length !== 1) return undefined;
    const [row] = rows;
    if (!row || !PINNED_ALGS.includes(row.alg)) return undefined;
    return { kid: row.kid, alg: row.alg, publicPem: row.public_pem, privateEnc: row.private_enc };
  }

  /** The PEM of a key read by `currentSigningKey`, decrypted; never log or return it. */
  decryptPrivateKey(key: SealedSigningKey): string {
    return this.cipher.decrypt(key.privateEnc);
  }
}
