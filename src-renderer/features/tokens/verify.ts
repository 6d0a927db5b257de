/**
 * Offline verification of a token the way a relying party would do it: the signature against the
 * org's published keys (`/auth/certs/jwk`, with jose), the audience, nbf/exp against the
 * service's clock (`Service-Server-Time`), and — for stored tokens — whether the service still
 * lists it (revocation, uses remaining). Dependencies are passed in so the steps are testable.
 */
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { PublicJwk, ServiceApp } from '../../api/apps';
import type { PublishedJwks } from '../../api/tokens';
import type { StoredToken } from '../../api/tokens';
import { decodeJwt, formatDuration, normalizeToken, timeVerdict } from './claims';

export type CheckState = 'pass' | 'fail' | 'warn' | 'info';

export interface VerifyCheck {
  id: 'format' | 'app' | 'signature' | 'audience' | 'time' | 'stored';
  title: string;
  state: CheckState;
  detail: string;
}

export interface VerifyDeps {
  org: string;
  apps: readonly ServiceApp[];
  fetchJwks: () => Promise<PublishedJwks>;
  listStored: (accountId: string, appKey: string) => Promise<StoredToken[]>;
}

export interface VerifyReport {
  checks: VerifyCheck[];
  /** True when no check failed: the service should accept the token now. */
  valid: boolean;
  serverTime?: number;
}

/**
 * The org's base URL as this console calls it (port included, docs/tokens.md); the service also
 * accepts the port-less form of tokens minted before it named the port.
 */
export const expectedAudience = (org: string, origin: string = consoleOrigin()) => `${origin}/${org}/v2`;
const legacyAudience = (org: string) => `http://127.0.0.1/${org}/v2`;

function consoleOrigin(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin.startsWith('http') ? origin : 'http://127.0.0.1';
}

/** Signature only: the key is picked by `kid` and `alg` from the set, as stock JWKS clients do. */
export async function verifySignature(
  token: string,
  keys: readonly PublicJwk[],
): Promise<{ ok: boolean; reason: string }> {
  try {
    await compactVerify(token, createLocalJWKSet({ keys: [...keys] } as JSONWebKeySet));
    return { ok: true, reason: 'The signature matches the published key.' };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_JWKS_NO_MATCHING_KEY') {
      return { ok: false, reason: 'No published key has this token’s kid and alg.' };
    }
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') {
      return {
        ok: false,
        reason: 'The signature does not match the published key: the token was altered or not signed by this key.',
      };
    }
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export async function verifyToken(text: string, deps: VerifyDeps): Promise<VerifyReport> {
  const token = normalizeToken(text);
  const decoded = decodeJwt(token);
  if (!decoded.ok) {
    return { checks: [{ id: 'format', title: 'Format', state: 'fail', detail: decoded.reason }], valid: false };
  }
  const { header, payload } = decoded;
  const checks: VerifyCheck[] = [{ id: 'format', title: 'Format', state: 'pass', detail: 'A well-formed JWT.' }];
  const iss = typeof payload.iss === 'string' ? payload.iss : undefined;
  const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const app = deps.apps.find((a) => a.key === iss);

  if (!app) {
    checks.push({
      id: 'app',
      title: 'Issuing app',
      state: 'fail',
      detail: `No application of this org has the key ${JSON.stringify(iss ?? null)}: the app was deleted, or the token is from elsewhere.`,
    });
  } else if (!app.enabled || (app.expires !== null && Date.parse(app.expires) <= Date.now())) {
    checks.push({
      id: 'app',
      title: 'Issuing app',
      state: 'fail',
      detail: `${app.label} is disabled or expired: its tokens are refused.`,
    });
  } else if (app.rsa && kid !== undefined && app.rsa.kid !== kid) {
    checks.push({
      id: 'app',
      title: 'Issuing app',
      state: 'fail',
      detail: `${app.label} has a new key pair (kid ${app.rsa.kid}); this token was signed with an earlier one (kid ${kid}) and is refused.`,
    });
  } else {
    checks.push({
      id: 'app',
      title: 'Issuing app',
      state: 'pass',
      detail: `${app.label} (${app.kind}), enabled, signing with this kid.`,
    });
  }

  let jwks: PublishedJwks | undefined;
  try {
    jwks = await deps.fetchJwks();
  } catch (error) {
    checks.push({
      id: 'signature',
      title: 'Signature',
      state: 'warn',
      detail: `The published keys could not be read: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  if (jwks) {
    const published = jwks.keys.some((k) => k.kid === kid);
    if (!published && app && !app.expose) {
      checks.push({
        id: 'signature',
        title: 'Signature',
        state: 'warn',
        detail: `Not checked offline: ${app.label} does not expose its keys. Turn on Expose Keys (Applications) to publish its JWK.`,
      });
    } else if (!published) {
      checks.push({
        id: 'signature',
        title: 'Signature',
        state: 'fail',
        detail: 'No key with this kid is published: the key pair was regenerated, or the token is not from this org.',
      });
    } else {
      const result = await verifySignature(token, jwks.keys);
      checks.push({
        id: 'signature',
        title: 'Signature',
        state: result.ok ? 'pass' : 'fail',
        detail: `${result.reason} (${String(header.alg)}, kid ${kid})`,
      });
    }
  }

  const aud = expectedAudience(deps.org);
  checks.push(
    payload.aud === aud || payload.aud === legacyAudience(deps.org)
      ? { id: 'audience', title: 'Audience', state: 'pass', detail: `For this org (${aud}).` }
      : {
          id: 'audience',
          title: 'Audience',
          state: 'fail',
          detail: `For ${JSON.stringify(payload.aud ?? null)}, not this org (${aud}).`,
        },
  );

  const now = jwks?.serverTime ?? Date.now();
  const clock = jwks?.fromServer ? 'the service’s clock (Service-Server-Time)' : 'this computer’s clock';
  const verdict = timeVerdict(payload, now);
  if (verdict.state === 'notYetValid') {
    checks.push({
      id: 'time',
      title: 'Validity window',
      state: 'fail',
      detail: `Not valid yet by ${clock}: usable in ${formatDuration(verdict.seconds)} (nbf).`,
    });
  } else if (verdict.state === 'expired') {
    checks.push({
      id: 'time',
      title: 'Validity window',
      state: 'fail',
      detail: `Expired ${formatDuration(verdict.seconds)} ago by ${clock} (exp).`,
    });
  } else {
    checks.push({
      id: 'time',
      title: 'Validity window',
      state: 'pass',
      detail:
        verdict.secondsLeft === null
          ? `Valid by ${clock}; it never expires (permanent).`
          : `Valid by ${clock} for another ${formatDuration(verdict.secondsLeft)}.`,
    });
  }

  const jti = typeof payload.jti === 'string' ? payload.jti : undefined;
  if (jti === undefined) {
    checks.push({
      id: 'stored',
      title: 'Revocation',
      state: 'info',
      detail:
        'Ephemeral token (no jti): it is not stored and cannot be revoked; only regenerating the key pair or deleting the app ends it early.',
    });
  } else if (!app || sub === undefined) {
    checks.push({
      id: 'stored',
      title: 'Revocation',
      state: 'warn',
      detail: 'Cannot look the token up without its app and subject.',
    });
  } else {
    try {
      const stored = (await deps.listStored(sub, app.key)).find((t) => t.jti === jti);
      if (!stored) {
        checks.push({
          id: 'stored',
          title: 'Revocation',
          state: 'fail',
          detail: `The service no longer lists token ${jti}: it was revoked, used up, expired, or its key pair was replaced.`,
        });
      } else {
        const uses =
          stored.uses_remaining === null
            ? 'unlimited uses'
            : `${stored.uses_remaining} use${stored.uses_remaining === 1 ? '' : 's'} remaining`;
        checks.push({
          id: 'stored',
          title: 'Revocation',
          state: 'pass',
          detail: `Live: used ${stored.times_authorized} time${stored.times_authorized === 1 ? '' : 's'}, ${uses}.`,
        });
      }
    } catch (error) {
      checks.push({
        id: 'stored',
        title: 'Revocation',
        state: 'warn',
        detail: `The token list could not be read: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  const report: VerifyReport = { checks, valid: checks.every((c) => c.state !== 'fail') };
  if (jwks) report.serverTime = jwks.serverTime;
  return report;
}
