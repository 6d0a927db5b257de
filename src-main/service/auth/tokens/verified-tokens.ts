/**
 * Verified bearer tokens, so an RSA-PSS/PKCS#1 signature check (about a millisecond of CPU for a
 * 2048-bit key) is paid once per token and not on every request (issue #14 item 3).
 *
 * Matched on the exact token text: any other text, even one differing only in its signature, is a
 * miss and is verified in full. (Entries are found by the text's last characters, which are its
 * signature's: a hash of 32 characters, not of a kilobyte, per request; the full text must then be
 * equal.) An entry holds what verification established (the payload, for
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

/**
 * The characters an entry is found by: the end of the signature, which no two tokens share short
 * of a forgery (and a forgery is never cached). A shorter text is its own key.
 */
const KEY_LENGTH = 32;

interface Slot {
  token: string;
  entry: VerifiedToken;
  /** Used since the eviction hand last passed (a second chance). */
  used: boolean;
}

/**
 * Bounded; a full cache evicts the oldest entry not used since the eviction last passed it (the
 * CLOCK approximation of least recently used): a hit only sets a flag, so it writes nothing to
 * the map.
 */
export class VerifiedTokenCache {
  private readonly map = new Map<string, Slot>();
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
    const slot = this.map.get(keyOf(token));
    if (slot === undefined || slot.token !== token) return undefined;
    slot.used = true;
    return slot.entry;
  }

  /**
   * Records a verification that started at data version `since`; dropped when anything was written
   * while it ran (the verification may have read what the write replaced).
   */
  remember(token: string, entry: VerifiedToken, since: number): void {
    this.sync();
    if (since !== this.version) return;
    const key = keyOf(token);
    if (!this.map.has(key) && this.map.size >= this.max) this.evictOne();
    this.map.set(key, { token, entry, used: false });
  }

  /** Forgets every entry (the bench's cold measurements). */
  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }

  /** Drops the oldest entry not used since its last pass; used ones go to the back, unflagged. */
  private evictOne(): void {
    for (const [key, slot] of this.map) {
      this.map.delete(key);
      if (!slot.used) return;
      slot.used = false;
      this.map.set(key, slot);
    }
  }

  private sync(): void {
    const now = this.versions.current();
    if (now !== this.version) {
      this.map.clear();
      this.version = now;
    }
  }
}

function keyOf(token: string): string {
  return token.length <= KEY_LENGTH ? token : token.slice(-KEY_LENGTH);
}
