/**
 * The claims of our JWTs (docs/tokens.md#claims, docs/tokens.md) and the one place
 * that reads the `service/*` claims back out of a verified payload.
 */
import { fault } from '../../../../src-shared/faults.js';
import { OBJECT_ID_PATTERN } from '../../objects/ids.js';

export const CLAIM = {
  scope: 'service/scp',
  roles: 'service/rls',
  skipAcl: 'service/skp',
  bypassCreateAcl: 'service/skc',
  grant: 'service/gnt',
  maxUses: 'service/cnt',
  email: 'service/eml',
} as const;

/** `service/gnt` never reaches admin (8): only org administrators hold that (docs/scopes.md). */
export const MAX_GRANT = 7;

/** Loopback hosts as a `Host` header names them, with an optional port. */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/**
 * The audience of an org's tokens (docs/tokens.md): the org's base URL exactly as the client
 * called it, port included (`http://127.0.0.1:7788/demo/v2`), so jose's and PyJWT's audience checks
 * against the base URL pass. `host` is the request's `Host` header; only a loopback host is taken
 * (the service listens on loopback only; any other name is a rebinding attempt), otherwise the
 * port-less form below is used.
 */
export function orgAudience(orgCode: string, host?: string): string {
  if (host !== undefined && LOOPBACK_HOST.test(host)) return `http://${host.toLowerCase()}/${orgCode}/v2`;
  return legacyOrgAudience(orgCode);
}

/**
 * The port-less audience tokens carried before the port was included. Still accepted on
 * verification, so permanent tokens minted earlier keep working; it names the org all the same.
 */
export function legacyOrgAudience(orgCode: string): string {
  return `http://127.0.0.1/${orgCode}/v2`;
}

/** The `service/*` claims after type-checking; absent claims are undefined. */
export interface ServiceClaims {
  scope: string[];
  roles: string[];
  skipAcl: boolean;
  bypassCreateAcl: boolean;
  grant?: number;
  maxUses?: number;
}

const malformed = (claim: string) =>
  fault('accessDenied', 'invalidJwt', { reason: `The token's ${claim} claim is malformed.` });

/**
 * Reads the service claims of a payload whose signature has already been verified. We only mint
 * well-formed claims, so a malformed one means the token was not made by this service as we know
 * it: it is refused rather than coerced.
 */
export function readServiceClaims(payload: Record<string, unknown>): ServiceClaims {
  const scope = payload[CLAIM.scope] ?? [];
  if (!Array.isArray(scope) || !scope.every((s) => typeof s === 'string')) throw malformed(CLAIM.scope);
  const roles = payload[CLAIM.roles] ?? [];
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === 'string' && OBJECT_ID_PATTERN.test(r)))
    throw malformed(CLAIM.roles);
  const flag = (claim: string): boolean => {
    const value = payload[claim] ?? false;
    if (typeof value !== 'boolean') throw malformed(claim);
    return value;
  };
  const positive = (claim: string, max: number): number | undefined => {
    const value = payload[claim];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw malformed(claim);
    return Math.min(value, max);
  };
  return {
    scope: scope as string[],
    roles: roles as string[],
    skipAcl: flag(CLAIM.skipAcl),
    bypassCreateAcl: flag(CLAIM.bypassCreateAcl),
    ...optional('grant', positive(CLAIM.grant, MAX_GRANT)),
    ...optional('maxUses', positive(CLAIM.maxUses, Number.MAX_SAFE_INTEGER)),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
