/**
 * The app's current RSA key, as `AppRepository` reads it from `app_keys` (docs/tokens.md: one algorithm pinned
 * per key; only the current key signs and verifies, so rotating the pair or deleting the app kills
 * every token at once). Imported keys are cached by kid: a kid is the thumbprint of the public key,
 * so a cached entry can never stand for a different key.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { importPKCS8 } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof importPKCS8>>;
import type { AppRepository } from '../../apps/apps.js';
import type { SigningAlg } from '../../crypto/rsa.js';

export interface AppSigningKey {
  kid: string;
  alg: SigningAlg;
  publicPem: string;
}

const CACHE_LIMIT = 256;
const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, PrivateKey>();

/** The app's current public key and its pinned algorithm; undefined when it has none. */
export function currentAppKey(apps: AppRepository, appId: number): AppSigningKey | undefined {
  const sealed = apps.currentSigningKey(appId);
  return sealed ? { kid: sealed.kid, alg: sealed.alg, publicPem: sealed.publicPem } : undefined;
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
  apps: AppRepository,
  appId: number,
): Promise<{ key: AppSigningKey; privateKey: PrivateKey } | undefined> {
  const sealed = apps.currentSigningKey(appId);
  if (!sealed) return undefined;
  const key: AppSigningKey = { kid: sealed.kid, alg: sealed.alg, publicPem: sealed.publicPem };
  const cacheKey = `${key.kid}:${key.alg}`;
  let privateKey = privateKeys.get(cacheKey);
  if (!privateKey) {
    privateKey = await importPKCS8(apps.decryptPrivateKey(sealed), key.alg);
    remember(privateKeys, cacheKey, privateKey);
  }
  return { key, privateKey };
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
