/**
 * Using a token: `Authorization: Bearer <jwt>` (docs/tokens.md, RFC 8725).
 *
 * Nothing in the token is trusted before its signature checks out. The unverified payload is read
 * for one thing only — `iss`, to find the app — and the app then dictates everything else: its
 * CURRENT key (so a rotated pair or a deleted app kills every token), that key's kid, and its one
 * pinned algorithm. Header parameters that point elsewhere for a key (`jku`, `x5u`) or carry one
 * (`jwk`, `x5c`) are refused outright, never followed.
 */
import {
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import { fault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import type { App } from '../../apps/apps.js';
import type { Authentication, RequestInput } from '../authentication.js';
import { CLIENT_KEY_HEADER } from '../wire-names.js';
import { OBJECT_ID_PATTERN } from '../../objects/ids.js';
import { resolveRoles } from '../../access/roles.js';
import { accountSnapshot } from '../../access/account-snapshot.js';
import { legacyOrgAudience, orgAudience, readServiceClaims } from './token-claims.js';
import { currentAppKey, verificationKey, type AppSigningKey } from './token-keys.js';
import type { DerivedAuthentication, VerifiedToken, VerifiedTokenCache } from './verified-tokens.js';
import { accountLockedFault, lockedNow } from '../sessions/credential-lockout.js';

/** Our tokens are well under 2 KB; anything this large is not one of them. */
export const MAX_TOKEN_LENGTH = 16 * 1024;
/** Header parameters that name or carry a key. We only ever use the app's stored key. */
export const FORBIDDEN_HEADER_PARAMETERS = ['jku', 'x5u', 'jwk', 'x5c'] as const;

const invalid = (reason: string) => fault('accessDenied', 'invalidJwt', { reason });
const invalidApp = (reason: string) => fault('accessDenied', 'invalidJwtApp', { reason });

/**
 * Trust boundary: turns a bearer token into an Authentication. Returns undefined when the request
 * carries no bearer token; throws a fault when it carries one that cannot be used:
 * malformed → `invalidArgument.jwt`; bad signature, alg, kid, aud, iss, not yet valid (nbf),
 * revoked or used up → `accessDenied.invalidJwt`; expired → `expired.jwt`; unknown, foreign or
 * disabled app → `accessDenied.invalidJwtApp`; `Service-Client-Key` other than the token's app →
 * `notFound.app` (key mismatch).
 */
export function authenticateToken(
  svc: Service,
  org: Org,
  request: RequestInput,
): Authentication | undefined | Promise<Authentication | undefined> {
  const token = bearerToken(request.headers.authorization);
  if (token === undefined) return undefined;
  const hostHeader = request.headers.host;
  const host = typeof hostHeader === 'string' ? hostHeader : undefined;
  // A token verified before is answered without a promise: only the signature check is
  // asynchronous, and a promise and a microtask per request cost measurably (issue #14).
  const hit = cachedToken(svc, org, token, host);
  if (hit !== undefined) return tokenAuthentication(svc, org, request, hit.app, hit.entry.payload, hit.entry);
  return verifiedToken(svc, org, token, host).then(({ app, payload }) =>
    tokenAuthentication(svc, org, request, app, payload),
  );
}

/**
 * Everything a request with a verified token is checked for, hit or miss: the key it was sent with,
 * its subject, a lock, a stored token's revocation and uses. The subject's roles and the effective
 * scopes are derived once per cache entry (they depend only on the token and on data, and the entry
 * ends with any write).
 */
export function tokenAuthentication(
  svc: Service,
  org: Org,
  request: RequestInput,
  app: App,
  payload: JWTPayload,
  entry?: VerifiedToken,
): Authentication {
  const sentKey = request.headers[CLIENT_KEY_HEADER];
  // The header may name the token's app by its name where the app allows it, as the original's does.
  const sentName = app.settings.allowNameMapping && sentKey === app.settings.name;
  if (sentKey !== undefined && sentKey !== app.key && !sentName) {
    throw fault('notFound', 'app', { reason: 'Invalid application client api key (token/key mismatch)' });
  }
  const accountId = payload.sub;
  if (typeof accountId !== 'string' || !OBJECT_ID_PATTERN.test(accountId))
    throw invalid('The token has no valid subject.');
  // The cached snapshot (email and role lists), not the whole record: no statement per request.
  const account = accountSnapshot(svc, org, accountId);
  if (!account) throw invalid("The token's subject no longer exists.");
  if (account.locked && lockedNow(svc, org, accountId)) throw accountLockedFault();
  const derived = entry?.derived ?? derive(svc, org, accountId, account, payload);
  if (entry !== undefined) entry.derived = derived;

  // Last, so a request refused for any other reason never uses up a limited-use token.
  consumeStoredToken(svc, org, app, accountId, payload.jti, derived.claims.maxUses !== undefined);

  const { claims } = derived;
  return {
    org,
    app,
    via: 'token',
    principal: derived.principal,
    scopes: derived.scopes,
    grant: claims.grant,
    skipAcl: claims.skipAcl,
    bypassCreateAcl: claims.bypassCreateAcl,
    claims: payload as Record<string, unknown>,
  };
}

function derive(
  svc: Service,
  org: Org,
  accountId: string,
  account: NonNullable<ReturnType<typeof accountSnapshot>>,
  payload: JWTPayload,
): DerivedAuthentication {
  const claims = readServiceClaims(payload as Record<string, unknown>);
  const resolved = resolveRoles(svc, org, [...account.roles, ...account.inheritedRoles, ...claims.roles]);
  return {
    claims,
    principal: { accountId, email: account.email, roles: resolved.roles },
    scopes: [...new Set([...claims.scope, ...resolved.scopes])],
  };
}

/** The service's verified-token cache (exported for its tests and the bench). */
export function tokenCache(svc: Service): VerifiedTokenCache {
  return svc.verifiedTokens;
}

/**
 * A token verified before, at this data version (see VerifiedTokenCache), with its issuing app. The
 * app, its current key and the time claims are checked on every hit with the same faults as a full
 * verification; undefined sends the token through `verifiedToken`.
 */
function cachedToken(
  svc: Service,
  org: Org,
  token: string,
  host: string | undefined,
): { app: App; entry: VerifiedToken } | undefined {
  const hit = tokenCache(svc).get(token);
  // The audience depends on the Host the token is presented to, so a hit is checked against it too.
  if (hit === undefined || hit.orgId !== org.id || !audienceMatchesCached(hit, org, host)) return undefined;
  const app = issuingApp(svc, org, hit.payload.iss);
  const key = currentAppKey(svc.apps, app.id);
  if (app.id !== hit.appId || key?.kid !== hit.kid || key.alg !== hit.alg) return undefined;
  checkTimes(hit.payload, svc.clock.now());
  return { app, entry: hit };
}

/** The token's issuing app and payload, its signature verified in full (then cached). */
async function verifiedToken(
  svc: Service,
  org: Org,
  token: string,
  host: string | undefined,
): Promise<{ app: App; payload: JWTPayload }> {
  const cache = tokenCache(svc);
  const since = cache.begin();
  const { header, unverified } = decodeUntrusted(token);
  for (const parameter of FORBIDDEN_HEADER_PARAMETERS) {
    if (parameter in header) throw invalid(`Tokens naming or carrying their own key (${parameter}) are refused.`);
  }
  const app = issuingApp(svc, org, unverified.iss);
  const key = currentAppKey(svc.apps, app.id);
  if (!key) throw invalid('The application has no current signing key.');
  if (header.kid !== key.kid) throw invalid("The token was not signed with the application's current key.");
  if (header.alg !== key.alg) throw invalid(`The token's algorithm must be ${key.alg}.`);
  const payload = await verify(token, key, app, svc, org, host);
  cache.remember(token, { orgId: org.id, appId: app.id, kid: key.kid, alg: key.alg, payload }, since);
  return { app, payload };
}

/**
 * Whether a cached token's audience fits the Host it is presented to. Checked on every hit, so the
 * usual case (the host it matched last time; the entry is for this org) compares one string and
 * allocates nothing.
 */
function audienceMatchesCached(hit: VerifiedToken, org: Org, host: string | undefined): boolean {
  if (host !== undefined && hit.audienceHost === host) return true;
  if (!audienceMatches(hit.payload.aud, orgAudience(org.code, host), legacyOrgAudience(org.code))) return false;
  hit.audienceHost = host;
  return true;
}

function audienceMatches(aud: JWTPayload['aud'], current: string, legacy: string): boolean {
  if (typeof aud === 'string') return aud === current || aud === legacy;
  return Array.isArray(aud) && aud.some((a) => a === current || a === legacy);
}

/** `exp` and `nbf` as jose checks them (whole seconds, no tolerance), for a cached token. */
export function checkTimes(payload: JWTPayload, nowMs: number): void {
  const now = Math.floor(nowMs / 1000);
  if (typeof payload.exp === 'number' && payload.exp <= now)
    throw fault('expired', 'jwt', { reason: 'The token has expired.' });
  if (typeof payload.nbf === 'number' && payload.nbf > now) throw invalid('The token is not valid yet.');
}

/** The last header `bearerToken` read and its answer. */
let lastBearer: { header: string | undefined; token: string | undefined } = { header: undefined, token: undefined };

/** The token of an `Authorization: Bearer` header; undefined for no header or another scheme. */
function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  // A client sends the same header on every request: the last answer is kept (a pure function of
  // the header) so the match over ~1 KB of token runs once per header, not once per request.
  if (authorization === lastBearer.header) return lastBearer.token;
  const match = /^Bearer[ ]+(\S*)\s*$/i.exec(authorization);
  const token = match ? (match[1] ?? '') : undefined;
  if (token === '' || (token !== undefined && token.length > MAX_TOKEN_LENGTH))
    throw fault('invalidArgument', 'jwt', { reason: 'The bearer token is empty or too long.' });
  lastBearer = { header: authorization, token };
  return token;
}

export function decodeUntrusted(token: string): { header: ProtectedHeaderParameters; unverified: JWTPayload } {
  try {
    return { header: decodeProtectedHeader(token), unverified: decodeJwt(token) };
  } catch {
    throw fault('invalidArgument', 'jwt', { reason: 'The bearer token is not a well-formed JWT.' });
  }
}

export function issuingApp(svc: Service, org: Org, iss: unknown): App {
  if (typeof iss !== 'string' || iss === '') throw invalidApp('The token names no issuing application.');
  const app = svc.apps.byKey(iss);
  if (!app || app.orgId !== org.id) throw invalidApp('The token was not issued by an application of this org.');
  if (!app.settings.enabled || (app.settings.expires && Date.parse(app.settings.expires) <= svc.clock.now())) {
    throw invalidApp('The issuing application is disabled or expired.');
  }
  return app;
}

async function verify(
  token: string,
  key: AppSigningKey,
  app: App,
  svc: Service,
  org: Org,
  host: string | undefined,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, verificationKey(key), {
      algorithms: [key.alg],
      // The base URL as called (port included); the port-less form of tokens minted before that.
      audience: [orgAudience(org.code, host), legacyOrgAudience(org.code)],
      issuer: app.key,
      typ: 'JWT',
      requiredClaims: ['sub', 'iat'],
      currentDate: new Date(svc.clock.now()),
    });
    return payload;
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw fault('expired', 'jwt', { reason: 'The token has expired.' });
    // A token used before its nbf is genuine but not usable yet: refused like any unusable token,
    // with a reason that says when it is the clock and not the token that is wrong.
    if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'nbf')
      throw invalid('The token is not valid yet.');
    if (err instanceof errors.JWTClaimValidationFailed) throw invalid(`The token's ${err.claim} claim is not valid.`);
    throw invalid('The token signature is not valid.');
  }
}

/** Permanent and limited-use tokens must still be on record, unrevoked (and not used up). */
function consumeStoredToken(
  svc: Service,
  org: Org,
  app: App,
  accountId: string,
  jti: string | undefined,
  limited: boolean,
): void {
  if (jti === undefined) {
    if (limited) throw invalid('A limited-use token must carry a jti.');
    return;
  }
  const store = svc.issuedTokens;
  if (store.consume(jti, { orgId: org.id, appId: app.id, accountId }, limited, svc.clock.now())) return;
  const row = store.byJti(jti);
  if (!row || row.org_id !== org.id || row.app_id !== app.id || row.account_id !== accountId)
    throw invalid('The token is not on record.');
  if (row.revoked) throw invalid('The token has been revoked.');
  throw invalid('The token has no uses remaining.');
}
