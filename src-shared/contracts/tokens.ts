/** JWT claim names and the token DTOs of docs/tokens.md, shared by the service and the console. */

/** The `service/*` claims of our JWTs. */
export const CLAIM = {
  scope: 'service/scp',
  roles: 'service/rls',
  skipAcl: 'service/skp',
  bypassCreateAcl: 'service/skc',
  grant: 'service/gnt',
  maxUses: 'service/cnt',
} as const;

export type ServiceClaimName = (typeof CLAIM)[keyof typeof CLAIM];

/** The body of `POST /accounts/:id/tokens`. */
export interface MintRequest {
  app: string;
  scope: string[];
  roles?: string[];
  expiresIn?: number;
  activatesIn?: number;
  validAt?: number;
  permanent?: boolean;
  maxUses?: number;
  grant?: number;
  skipAcl?: boolean;
  bypassCreateAcl?: boolean;
}

/** A stored (permanent or limited-use) token as `GET /accounts/:id/tokens` lists it. */
export interface StoredToken {
  jti: string;
  times_authorized: number;
  last_authorized: string | null;
  uses_remaining: number | null;
  expires_at: string | null;
}

/** A public key as `GET /auth/certs/jwk` publishes it. */
export interface PublicJwk {
  kty: 'RSA';
  n: string;
  e: string;
  use: 'sig';
  alg: string;
  kid: string;
}

/** A public key in PEM form, as `GET /auth/certs/pem` lists it. */
export interface PublicPem {
  kid: string;
  alg: string;
  key: string;
}
