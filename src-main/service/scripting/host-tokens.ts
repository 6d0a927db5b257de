/**
 * `org.objects.accounts.createAuthToken / getSubjectTokens / revokeAuthToken / revokeSubjectTokens`
 * (docs/scripting.md): the same workflows as the REST token routes (auth/tokens/subject-tokens.ts),
 * under the same rules: administrators mint and manage any account's tokens (a token-authenticated
 * caller needs `admin.update`), an account may list and revoke its own, and a token mints only
 * within its own scopes, roles, grant, skipAcl and lifetime, with `aud` the org's URL as called.
 */
import { fault } from '../../../src-shared/faults.js';
import { callerActor } from '../audit/actor.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { normaliseEmail } from '../accounts/credentials.js';
import { minterOf, type MinterRights } from '../auth/tokens/mint-rights.js';
import {
  authorizeTokenAdmin,
  issueSubjectToken,
  listSubjectTokens,
  revokeAllSubjectTokens,
  revokeSubjectToken,
  tokenSubjectId,
} from '../auth/tokens/subject-tokens.js';
import type { HostCallContext, HostFunctions } from './run-types.js';
import type { ScriptRequest } from './protocol.js';

/** The Host header of the request a script runs for: a token's `aud` and `script.env.url` name it. */
export function requestHost(request: ScriptRequest | undefined): string | undefined {
  const host = request?.headers?.host;
  return typeof host === 'string' ? host : undefined;
}

/**
 * What `current` may mint, as REST `POST /accounts/:id/tokens` decides it: its token's scopes and
 * lifetime bound every mint. Inside `script.as` (current !== base, the run's caller) the account
 * switched to carries the token's scopes and lifetime (script-host.ts), and its roles count only
 * where the token's holder has them too: roles bring scopes, so a role of the other account would
 * widen the minted token beyond the minting one.
 */
function minterFor(base: Caller, current: Caller): MinterRights {
  const minter = minterOf(current, current.tokenExpiry);
  if (current === base || base.scopes === undefined) return minter;
  return { ...minter, roles: new Set([...current.roles].filter((role) => base.roles.has(role))) };
}

/**
 * The subject account's _id from what the original's clients pass: an `_id`, an email, or a
 * principal object (`{_id}` or `{email}`). An email is looked up in this org only.
 */
export const subjectOf = (svc: Service, org: Org, subject: unknown): string => {
  const given =
    typeof subject === 'object' && subject !== null
      ? ((subject as { _id?: unknown })._id ?? (subject as { email?: unknown }).email)
      : subject;
  if (typeof given !== 'string' || given === '' || given.length > 254)
    throw fault('invalidArgument', undefined, {
      path: 'subject',
      reason: 'Name the subject account by its _id or email.',
    });
  if (OBJECT_ID_PATTERN.test(given.toLowerCase()) || !given.includes('@')) return given;
  const found = svc.credentials.byEmail(org.id, normaliseEmail(given))?.account_id;
  if (!found) throw fault('notFound', 'account', { path: 'subject', reason: 'No account of this org has that email.' });
  return found;
};

/** jti of a JWT (its payload, unverified: revocation only needs to find the row) or the jti itself. */
function jtiOf(tokenOrJti: unknown): string {
  if (typeof tokenOrJti !== 'string' || tokenOrJti === '' || tokenOrJti.length > 8192)
    throw fault('invalidArgument', undefined, { path: 'token', reason: 'Pass a token or its jti.' });
  const parts = tokenOrJti.split('.');
  if (parts.length !== 3) return tokenOrJti;
  try {
    const payload = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as { jti?: unknown };
    if (typeof payload.jti === 'string') return payload.jti;
  } catch {
    // fall through: not a JWT we can read
  }
  throw fault('invalidArgument', undefined, {
    path: 'token',
    reason: 'The token has no jti: only stored tokens can be revoked.',
  });
}

/** `base` is the run's caller; `callerFor` answers whom a call acts as (it, or inside `script.as` another). */
export function tokenHost(
  svc: Service,
  org: Org,
  base: Caller,
  callerFor: (call: HostCallContext) => Caller,
): HostFunctions {
  const subjectFor = (caller: Caller, subject: unknown, action: 'read' | 'update', selfAllowed: boolean) => {
    const id = tokenSubjectId(svc, org, caller, subjectOf(svc, org, subject));
    authorizeTokenAdmin(caller, action, selfAllowed && id === caller.accountId);
    return id;
  };
  return {
    async 'tokens.create'(this: HostCallContext, apiKey: unknown, subject: unknown, options: unknown) {
      const caller = callerFor(this);
      authorizeTokenAdmin(caller, 'update', false);
      const accountId = subjectFor(caller, subject, 'update', false);
      const opts = typeof options === 'object' && options !== null && !Array.isArray(options) ? options : {};
      const host = requestHost(this.context.request);
      const minter = minterFor(base, caller);
      return issueSubjectToken(svc, org, accountId, { ...opts, app: apiKey }, minter, host, callerActor(caller));
    },
    'tokens.list'(this: HostCallContext, apiKey: unknown, subject: unknown) {
      const caller = callerFor(this);
      return listSubjectTokens(svc, org, apiKey, subjectFor(caller, subject, 'read', true));
    },
    'tokens.revoke'(this: HostCallContext, tokenOrJti: unknown) {
      const caller = callerFor(this);
      const jti = jtiOf(tokenOrJti);
      const row = svc.issuedTokens.byJti(jti);
      const accountId = row && row.org_id === org.id ? row.account_id : caller.accountId;
      authorizeTokenAdmin(caller, 'update', accountId === caller.accountId);
      return revokeSubjectToken(svc, org, accountId, jti, callerActor(caller));
    },
    'tokens.revokeSubject'(this: HostCallContext, apiKey: unknown, subject: unknown) {
      const caller = callerFor(this);
      return revokeAllSubjectTokens(svc, org, apiKey, subjectFor(caller, subject, 'update', true), callerActor(caller));
    },
  };
}
