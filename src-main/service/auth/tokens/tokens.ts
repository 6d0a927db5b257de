/**
 * Minting tokens (docs/tokens.md): claims from a checked request, signed with the app's current
 * private key under its pinned algorithm, `kid` = the key's RFC 7638 thumbprint.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { fault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import type { App } from '../../apps/apps.js';
import { CLAIM, orgAudience } from './token-claims.js';
import { currentSigningKey } from './token-keys.js';
import type { TokenRequest } from './token-request.js';
import { assertWithinMinterRights, type MinterRights } from './mint-rights.js';

/** How far ahead a token may start to be valid (`validAt` / `activatesIn`). */
export const MAX_ACTIVATION_DELAY_SECONDS = 366 * 24 * 3600;

export interface MintedToken {
  jwt: string;
  /** Set for permanent and limited-use tokens (stored, revocable). */
  jti?: string;
}

/**
 * Signs a token for `accountId` (already checked to be an account of `org`) through `app`
 * (already checked to be an enabled app of `org`). `minter` is what the caller itself may do: the
 * token asked for must stay within it (mint-rights.ts); every caller passes it, so the rule holds
 * for the route and for scripts alike.
 */
export async function mintToken(
  svc: Service,
  org: Org,
  app: App,
  accountId: string,
  request: TokenRequest,
  minter: MinterRights,
  /** The request's `Host` header: `aud` is the org's base URL as called (token-claims.ts). */
  host?: string,
): Promise<MintedToken> {
  const nowMs = svc.clock.now();
  const iat = Math.floor(nowMs / 1000);
  const nbf =
    request.activatesIn !== undefined
      ? iat + request.activatesIn
      : request.validAt !== undefined
        ? request.validAt
        : undefined;
  // A token cannot be parked for years: it would outlive reviews, and far dates break presentation.
  if (nbf !== undefined && nbf > iat + MAX_ACTIVATION_DELAY_SECONDS) {
    throw fault('invalidArgument', undefined, {
      path: request.validAt !== undefined ? 'validAt' : 'activatesIn',
      reason: 'A token may become valid at most one year from now.',
    });
  }
  const exp = request.permanent ? undefined : (nbf ?? iat) + (request.expiresIn ?? app.settings.authDuration);
  if (exp !== undefined && exp <= iat) {
    throw fault('invalidArgument', undefined, {
      path: 'validAt',
      reason: 'The token would expire before it is issued; move validAt later or lengthen expiresIn.',
    });
  }
  assertWithinMinterRights(minter, request, exp);
  const stored = request.permanent || request.maxUses !== undefined;
  const jti = stored ? randomBytes(16).toString('base64url') : undefined;

  const signing = await currentSigningKey(svc.apps, app.id);
  if (!signing) throw fault('error', undefined, { reason: 'The application has no current signing key.' });
  const claims: Record<string, unknown> = { [CLAIM.scope]: request.scope };
  if (request.roles.length > 0) claims[CLAIM.roles] = request.roles;
  if (request.skipAcl) claims[CLAIM.skipAcl] = true;
  if (request.bypassCreateAcl) claims[CLAIM.bypassCreateAcl] = true;
  if (request.grant !== undefined) claims[CLAIM.grant] = request.grant;
  if (request.maxUses !== undefined) claims[CLAIM.maxUses] = request.maxUses;
  if (request.includeEmail) claims[CLAIM.email] = subjectEmail(svc, org, accountId);

  const builder = new SignJWT(claims)
    .setProtectedHeader({ alg: signing.key.alg, kid: signing.key.kid, typ: 'JWT' })
    .setIssuer(app.key)
    .setSubject(accountId)
    .setAudience(orgAudience(org.code, host))
    .setIssuedAt(iat);
  if (nbf !== undefined) builder.setNotBefore(nbf);
  if (exp !== undefined) builder.setExpirationTime(exp);
  if (jti !== undefined) builder.setJti(jti);
  const jwt = await builder.sign(signing.privateKey);

  // Signed first, stored second: the limit check and the insert are one synchronous transaction
  // with no await inside, and a token over the limit is simply never handed out.
  if (jti !== undefined) {
    svc.issuedTokens.insertWithinLimit(
      {
        jti,
        orgId: org.id,
        appId: app.id,
        accountId,
        kid: signing.key.kid,
        usesRemaining: request.maxUses ?? null,
        expiresAt: exp !== undefined ? exp * 1000 : null,
        created: nowMs,
      },
      app.settings.maxTokensPerPrincipal,
      nowMs,
    );
  }
  return { jwt, ...(jti !== undefined ? { jti } : {}) };
}

/** The subject's login email for `service/eml` (the original clients' `cortex/eml`). */
function subjectEmail(svc: Service, org: Org, accountId: string): string {
  const def = svc.defs.byName(org.id, 'account');
  const email = def ? svc.store.getValues(org.id, def, accountId, ['email'])?.email : undefined;
  if (typeof email !== 'string' || email === '') {
    throw fault('invalidArgument', undefined, { path: 'includeEmail', reason: 'The account has no email.' });
  }
  return email;
}
