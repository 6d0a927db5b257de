/**
 * Issue #13 item 5: a token can only mint tokens within its own rights. Without this rule a token
 * holding only `admin.update` could mint a permanent `*` token with skipAcl for anyone.
 *
 * A caller that is not scope-limited (an org administrator's session or signed request) keeps full
 * rights. A scope-limited caller (a token) may mint only:
 *   - scope chains each at or below one of its own chains (equal, or its chain is a segment prefix;
 *     a `*` or empty segment of its chain matches any one segment). This is deliberately
 *     conservative: a chain it cannot prove narrower is refused;
 *   - roles it holds itself;
 *   - a grant no higher than its own (none if it has none);
 *   - skipAcl / bypassCreateAcl only if it has them;
 *   - a lifetime that ends no later than its own token's (no permanent token from an expiring one).
 */
import { fault } from '../../../../src-shared/faults.js';
import type { TokenRequest } from './token-request.js';

/** What the minting caller itself may do. */
export interface MinterRights {
  /** undefined: not scope-limited (session or signed request of an org administrator): full rights. */
  scopes?: readonly string[];
  roles: ReadonlySet<string>;
  grant?: number;
  skipAcl: boolean;
  bypassCreateAcl: boolean;
  /** Unix seconds the caller's own token expires; undefined = it never expires. */
  expiresAt?: number;
}

const beyond = (path: string, reason: string) => fault('accessDenied', 'scope', { path, reason });

/** True when `wanted` grants nothing `held` does not (see the rule above). */
export function chainWithin(wanted: string, held: string): boolean {
  if (held === '*') return true;
  if (wanted === '*') return false;
  const h = held.split('.');
  const w = wanted.split('.');
  if (w.length < h.length) return false;
  return h.every((segment, i) => segment === '*' || (segment === '' && i > 0) || segment === w[i]);
}

/** Throws `accessDenied.scope` naming the first part of the request beyond the minter's rights. */
export function assertWithinMinterRights(minter: MinterRights, request: TokenRequest, exp: number | undefined): void {
  if (minter.scopes === undefined) return;
  const held = minter.scopes;
  request.scope.forEach((chain, i) => {
    if (!held.some((own) => chainWithin(chain, own))) {
      throw beyond(`scope[${i}]`, `The scope ${chain.slice(0, 80)} is beyond the scopes of the token minting it.`);
    }
  });
  request.roles.forEach((role, i) => {
    if (!minter.roles.has(role)) throw beyond(`roles[${i}]`, 'A token cannot give a role its caller does not hold.');
  });
  if (request.grant !== undefined && (minter.grant === undefined || request.grant > minter.grant)) {
    throw beyond('grant', 'A token cannot give a higher grant than its own.');
  }
  if (request.skipAcl && !minter.skipAcl) throw beyond('skipAcl', 'A token without skipAcl cannot give it.');
  if (request.bypassCreateAcl && !minter.bypassCreateAcl) {
    throw beyond('bypassCreateAcl', 'A token without bypassCreateAcl cannot give it.');
  }
  if (minter.expiresAt !== undefined && (exp === undefined || exp > minter.expiresAt)) {
    throw beyond(
      request.permanent ? 'permanent' : 'expiresIn',
      'A token cannot mint a token that outlives it (no permanent token, no later expiry).',
    );
  }
}

/** What a caller may mint: its own scopes, roles, grant and flags, and its own token's expiry. */
export function minterOf(
  caller: {
    scopes?: readonly string[];
    roles: ReadonlySet<string>;
    grant?: number;
    skipAcl: boolean;
    bypassCreateAcl: boolean;
  },
  expiresAt?: number,
): MinterRights {
  return {
    ...(caller.scopes === undefined ? {} : { scopes: caller.scopes }),
    roles: caller.roles,
    ...(caller.grant === undefined ? {} : { grant: caller.grant }),
    skipAcl: caller.skipAcl,
    bypassCreateAcl: caller.bypassCreateAcl,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}
