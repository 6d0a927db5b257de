import { createHash, createPublicKey, generateKeyPair } from 'node:crypto';

export type { SigningAlg } from '../../../src-shared/contracts/apps.js';

export interface RsaKeyPair {
  kid: string;
  publicPem: string;
  privatePem: string;
}

/** RFC 7638 thumbprint of an RSA public key: the `kid` of the app's tokens and JWKS entry. */
export function rsaThumbprint(publicPem: string): string {
  const jwk = createPublicKey(publicPem).export({ format: 'jwk' }) as { e: string; n: string };
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
}

export function generateRsaKeyPair(bits = 2048): Promise<RsaKeyPair> {
  return new Promise((resolve, reject) =>
    generateKeyPair(
      'rsa',
      {
        modulusLength: bits,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (err, publicPem, privatePem) =>
        err ? reject(err) : resolve({ kid: rsaThumbprint(publicPem), publicPem, privatePem }),
    ),
  );
}
