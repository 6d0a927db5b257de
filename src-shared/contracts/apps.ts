/**
 * The application contract (docs/orgs-and-apps.md#applications, docs/tokens.md) shared by the service, which stores and presents
 * apps, and the console, which edits them: one definition, so the two cannot drift.
 */

export type AppKind = 'session' | 'signing';

/** The token algorithm pinned to an app's key pair; PS512 by default (docs/tokens.md). */
export type SigningAlg = 'PS512' | 'RS512';
export const SIGNING_ALGS: readonly SigningAlg[] = ['PS512', 'RS512'];

/** Every setting an administrator can give an app; the key, secret and RSA pair live apart. */
export interface AppSettings {
  label: string;
  enabled: boolean;
  readOnly: boolean;
  /** ISO date after which the app stops working, or null. */
  expires: string | null;
  /** Seconds: session inactivity timeout and default token lifetime (60–86400). */
  authDuration: number;
  csrf: boolean;
  allowUnsigned: boolean;
  /** Refuse version-1 signatures: only version 2 (nonce, query and body signed) is accepted. */
  requireSignatureV2: boolean;
  principalOverride: boolean;
  principalId: string | null;
  maxTokensPerPrincipal: number;
  expose: boolean;
  alg: SigningAlg;
  corsOrigins: string[];
  ipAllow: string[];
  ipDeny: string[];
  /**
   * The original's app `name` (unique in the org): with `allowNameMapping` on, clients may send it
   * where they send the key (`Service-Client-Key`, `createAuthToken(name, …)`), as the original's do.
   */
  name?: string;
  /** Absent means false (apps made before it). */
  allowNameMapping?: boolean;
}

/** The current key pair of an app (its `kid` is the RFC 7638 thumbprint). */
export interface AppKeyInfo {
  kid: string;
  alg: SigningAlg;
  created: string;
}

/** An app as the API shows it. Never holds private keys or encrypted blobs. */
export interface ApiApp extends AppSettings {
  object: 'app';
  key: string;
  kind: AppKind;
  hasSecret: boolean;
  /** Masked (`••••…` + last 4), except in the one answer that creates or rotates it. */
  secret: string | null;
  rsa: AppKeyInfo | null;
  created: string;
}
