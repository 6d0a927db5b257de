import { createPublicKey } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Service } from '../service.js';
import type { ExposedKey } from '../apps/app-keys.js';
import type { TypedServer } from '../http/route-schemas.js';

export interface PublicJwk {
  kty: 'RSA';
  n: string;
  e: string;
  use: 'sig';
  alg: string;
  kid: string;
}

/**
 * Only the public members of the key: built field by field from Node's export, so a private member
 * can never slip through even if a private key were passed by mistake.
 */
export function toPublicJwk(key: ExposedKey): PublicJwk {
  const jwk = createPublicKey(key.publicPem).export({ format: 'jwk' }) as { n: string; e: string };
  return { kty: 'RSA', n: jwk.n, e: jwk.e, use: 'sig', alg: key.alg, kid: key.kid };
}

/** Re-derived from the key object, for the same reason as above: public SPKI PEM only. */
const toPublicPem = (key: ExposedKey): string =>
  createPublicKey(key.publicPem).export({ type: 'spki', format: 'pem' }).toString();

/**
 * Public keys of the org's apps with Expose Keys (docs/tokens.md), for verifiers of our tokens. No
 * authentication: these are public keys. Only current keys of enabled apps are listed; a rotated
 * key disappears at once, so clients must not cache for long.
 *   GET /auth/certs/jwk → {keys:[{kty, n, e, use:"sig", alg, kid}]}
 *   GET /auth/certs/pem → {keys:[{kid, alg, key:"-----BEGIN PUBLIC KEY-----..."}]}
 */
export function certsRoutes(svc: Service) {
  return async (server: TypedServer) => {
    const noCache = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache');

    server.get('/auth/certs/jwk', async (request, reply) => {
      noCache(reply);
      return { keys: svc.apps.exposedKeys(request.ctx.org.id).map(toPublicJwk) };
    });

    server.get('/auth/certs/pem', async (request, reply) => {
      noCache(reply);
      return {
        keys: svc.apps.exposedKeys(request.ctx.org.id).map((k) => ({ kid: k.kid, alg: k.alg, key: toPublicPem(k) })),
      };
    });
  };
}
