/**
 * The app's current RSA key, read straight from `app_keys` (decisions.md §6: one algorithm pinned
 * per key; only the current key signs and verifies, so rotating the pair or deleting the app kills
 * every token at once). Imported keys are cached by kid: a kid is the thumbprint of the public key,
 * so a cached entry can never stand for a different key.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { importPKCS8 } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof importPKCS8>>;
import type { Db } from '../../db/open.js';
import type { SecretCipher } from '../../crypto/cipher.js';
import type { SigningAlg } from '../../crypto/rsa.js';

export interface AppSigningKey {
  kid: string;
  alg: SigningAlg;
  publicPem: string;
}

interface KeyRow {
  kid: string;
  alg: string;
  public_pem: string;
  private_enc: string;
}

const PINNED_ALGS: readonly string[] = ['PS512', 'RS512'] satisfies SigningAlg[];
const CACHE_LIMIT = 256;
const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, PrivateKey>();

function currentRow(db: Db, appId: number): KeyRow | undefined {
  const rows = db
    .prepare('SELECT kid, alg, public_pem, private_enc FROM app_keys WHERE app_id = ? AND current = 1')
    .all(appId) as KeyRow[];
  // Exactly one current key, with an algorithm we pin; anything else is treated as no key at all.
  if (rows.length !== 1) return undefined;
  const [row] = rows;
  return row && PINNED_ALGS.includes(row.alg) ? row : undefined;
}

/** The app's current public key and its pinned algorithm; undefined when it has none. */
export function currentAppKey(db: Db, appId: number): AppSigningKey | undefined {
  const row = currentRow(db, appId);
  return row ? { kid: row.kid, alg: row.alg as SigningAlg, publicPem: row.public_pem } : undefined;
}

/** Verification key for a current key (node KeyObject, accepted by jose on Node). */
export function verificationKey(key: AppSigningKey): KeyObject {
  const cacheKey = `${key.kid}:${key.alg}`;
  let cached = publicKeys.get(cacheKey);
  if (!cached) {
    cached = createPublicKey(key.publicPem);
    remember(publicKeys, cacheKey, cached);
  }
  return cached;
}

/** The current key with its decrypted, imported private half, for signing. */
export async function currentSigningKey(
  db: Db,
  cipher: SecretCipher,
  appId: number,
): Promise<{ key: AppSigningKey; privateKey: PrivateKey } | undefined> {
  const row = currentRow(db, appId);
  if (!row) return undefined;
  const key: AppSigningKey = { kid: row.kid, alg: row.alg as SigningAlg, publicPem: row.public_pem };
  const cacheKey = `${key.kid}:${key.alg}`;
  let privateKey = privateKeys.get(cacheKey);
  if (!privateKey) {
    privateKey = await importPKCS8(cipher.decrypt(row.private_enc), key.alg);
    remember(privateKeys, cacheKey, privateKey);
  }
  return { key, privateKey };
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
