/**
 * A token handed over as a credential rather than presented on a request: a deployment's source
 * or target token (docs/orgs-and-apps.md), which an org issued so that a deployment of another org (or of
 * another data folder) may read or write it.
 *
 * Trust boundary: the text comes from whoever saved the deployment. It is verified exactly as a
 * bearer token is (token-auth.ts: the issuing app of THIS org and its current key, kid, pinned
 * algorithm, typ, iss, exp/nbf on the service clock, the subject, a lock, a stored token's
 * revocation and uses), except for two things:
 *   - synchronously (node:crypto), because record writes check deployments inside their write
 *     transaction;
 *   - the audience is the org's base URL at any loopback address, as there is no request Host to
 *     compare with: a credential may be minted on the service at one port and used by a run from
 *     another process on the same folder. It must still name this org.
 */
import { constants, verify } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { fault } from '../../../../src-shared/faults.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import type { Authentication } from '../authentication.js';
import { legacyOrgAudience, orgAudience } from './token-claims.js';
import { currentAppKey, verificationKey, type AppSigningKey } from './token-keys.js';
import {
  checkTimes,
  decodeUntrusted,
  FORBIDDEN_HEADER_PARAMETERS,
  issuingApp,
  MAX_TOKEN_LENGTH,
  tokenAuthentication,
} from './token-auth.js';

const invalid = (reason: string) => fault('accessDenied', 'invalidJwt', { reason });

/** The authentication a credential token stands for, in `org` of `svc`; throws the bearer token's faults. */
export function authenticateCredentialToken(svc: Service, org: Org, token: string): Authentication {
  if (token === '' || token.length > MAX_TOKEN_LENGTH)
    throw fault('invalidArgument', 'jwt', { reason: 'The token is empty or too long.' });
  const { header, unverified } = decodeUntrusted(token);
  for (const parameter of FORBIDDEN_HEADER_PARAMETERS) {
    if (parameter in header) throw invalid(`Tokens naming or carrying their own key (${parameter}) are refused.`);
  }
  const app = issuingApp(svc, org, unverified.iss);
  const key = currentAppKey(svc.apps, app.id);
  if (!key) throw invalid('The application has no current signing key.');
  if (header.kid !== key.kid) throw invalid("The token was not signed with the application's current key.");
  if (header.alg !== key.alg) throw invalid(`The token's algorithm must be ${key.alg}.`);
  if (header.typ !== 'JWT') throw invalid('The token is not a JWT (typ).');
  if (!signatureHolds(token, key)) throw invalid('The token signature is not valid.');
  checkClaims(unverified, app.key, org.code);
  checkTimes(unverified, svc.clock.now());
  return tokenAuthentication(svc, org, { method: 'POST', url: '', headers: {} }, app, unverified);
}

/** RS512 (RSASSA-PKCS1-v1_5) or PS512 (RSASSA-PSS, salt as long as the SHA-512 digest), per RFC 7518. */
function signatureHolds(token: string, key: AppSigningKey): boolean {
  const [head, body, signature] = token.split('.');
  if (head === undefined || body === undefined || signature === undefined) return false;
  const padding = key.alg === 'PS512' ? constants.RSA_PKCS1_PSS_PADDING : constants.RSA_PKCS1_PADDING;
  try {
    return verify(
      'sha512',
      Buffer.from(`${head}.${body}`, 'ascii'),
      { key: verificationKey(key), padding, saltLength: 64 },
      Buffer.from(signature, 'base64url'),
    );
  } catch {
    return false;
  }
}

/** The claims jose's jwtVerify requires of a bearer token: iss, sub, iat, and an audience naming this org. */
function checkClaims(payload: JWTPayload, appKey: string, orgCode: string): void {
  if (payload.iss !== appKey) throw invalid("The token's iss claim is not valid.");
  if (typeof payload.sub !== 'string' || typeof payload.iat !== 'number')
    throw invalid('The token lacks its sub or iat claim.');
  const auds = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!auds.some((aud) => audienceNamesOrg(aud, orgCode))) throw invalid("The token's aud claim is not valid.");
}

/** `http://<loopback host[:port]>/<org>/v2`, exactly as `orgAudience` makes it for some loopback Host. */
function audienceNamesOrg(aud: unknown, orgCode: string): boolean {
  if (typeof aud !== 'string') return false;
  if (aud === legacyOrgAudience(orgCode)) return true;
  const host = /^http:\/\/([^/]+)\//.exec(aud)?.[1];
  return host !== undefined && orgAudience(orgCode, host) === aud;
}
