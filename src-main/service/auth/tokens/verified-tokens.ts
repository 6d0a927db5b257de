/**
 * Verified bearer tokens, so an RSA-PSS/PKCS#1 signature check (about a millisecond of CPU for a
 * 2048-bit key) is paid once per token and not on every request (issue #14 item 3).
 *
 * Keyed on the exact token text: any other text, even one differing only in its signature, is a
 * miss and is verified in full. An entry holds what verification established (the payload, for
 * which org, app, kid and alg) and nothing that can change without a write: everything that can —
 * the app being enabled, its current key, the account, its roles, a stored token's revocation and
 * use count — is still checked on every request by the caller, and any write empties the cache
 * anyway (it follows the data version, like the app, session, account and role caches), so a
 * revocation, an RSA regeneration, an app change or a lock ends every entry at once. Expiry (`exp`)
 * and `nbf` are checked against the service clock on every hit.
 */
import type { JWTPayload } from 'jose';
import type { DataVersion } from '../../db/data-version.js';
import type { Principal } from '../../access/principal.js';
import type { ServiceClaims } from './token-claims.js';

/**
 * What a request with the token is authenticated as, derived from the payload and stored data (the
 * subject's roles, the role graph): valid as long as the entry, which ends with any write.
 */
export interface DerivedAuthentication {
  claims: ServiceClaims;
  principal: Principal;
  scopes: string[];
}

export interface VerifiedToken {
  orgId: number;
  appId: number;
  kid: string;
  alg: string;
  payload: JWTPayload;
  /**
   * The last Host header the token's audience was found to match (the audience depends on it), so
   * a hit from the same host skips building the audience strings; undefined until one matched.
   */
  audienceHost?: string | undefined;
  /** Set on the first request that uses the entry (see DerivedAuthentication). */
  derived?: DerivedAuthentication | undefined;
}

/** Bounded, least recently used first out. */
export class VerifiedTokenCache {
  private readonly map = new Map<string, VerifiedToken>();
  private version = -1;

  constructor(
    private readonly versions: DataVersion,
    private readonly max = 10_000,
  ) {}

  /** The data version to pass to `remember` for a verification starting now. */
  begin(): number {
    this.sync();
    return this.version;
  }

  get(token: string): VerifiedToken | undefined {
    this.sync();
    const entry = this.map.get(token);
    if (entry === undefined) return undefined;
    // Re-inserted so the map's order is the order of last use.
    this.map.delete(token);
    this.map.set(token, entry);
    return entry;
  }

  /**
   * Records a verification that started at data version `since`; dropped when anything was written
   * while it ran (the verification may have read what the write replaced).
   */
  remember(token: string, entry: VerifiedToken, since: number): void {
    this.sync();
    if (since !== this.version) return;
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    this.map.set(token, entry);
  }

  /** Forgets every entry (the bench's cold measurements). */
  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }

  private sync(): void {
    const now = this.versions.current();
    if (now !== this.version) {
      this.map.clear();
      this.version = now;
    }
  }
}
