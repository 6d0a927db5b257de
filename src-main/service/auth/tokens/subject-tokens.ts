/**
 * The token workflows of an account, shared by the REST routes (`routes/tokens.ts`) and the script
 * host functions (`org.objects.accounts.createAuthToken` …, `scripting/host-tokens.ts`): one
 * implementation underneath both ways in (issue 16 §4).
 */
import { fault } from '../../../../src-shared/faults.js';
import { checkScope } from '../../../../src-shared/scopes/index.js';
import type { AuditActor } from '../../audit/actor.js';
import { recordAudit } from '../../audit/record.js';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import type { App } from '../../apps/apps.js';
import type { Caller } from '../../access/caller.js';
import { assertScopesExist } from '../../access/scope-schema.js';
import { OBJECT_ID_PATTERN } from '../../objects/ids.js';
import { mintToken } from './tokens.js';
import type { MinterRights } from './mint-rights.js';
import { parseTokenRequest } from './token-request.js';
import { currentAppKey } from './token-keys.js';
import type { StoredTokenRow } from './token-store.js';

/**
 * Org administrators, or (when `self`) the account itself. A scope-limited caller also needs the
 * admin scope: scopes only ever narrow what the subject can do, so `admin.update` on a token of a
 * non-administrator grants nothing here.
 */
export function authorizeTokenAdmin(caller: Caller, action: 'read' | 'update', self: boolean): void {
  if (!caller.orgAdmin && !self) {
    throw fault('accessDenied', 'principal', { reason: "Only org administrators manage other accounts' tokens." });
  }
  if (caller.scopes !== undefined) {
    const decision = checkScope(caller.scopes, { kind: 'admin', action });
    if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  }
}

/** The account `id` (`me` = the caller) of `org`, or notFound. */
export function tokenSubjectId(svc: Service, org: Org, caller: Caller, id: string): string {
  const accountId = id === 'me' ? caller.accountId : id.toLowerCase();
  const def = svc.defs.byName(org.id, 'account');
  if (!OBJECT_ID_PATTERN.test(accountId) || !def || !svc.store.get(org.id, def, accountId)) {
    throw fault('notFound', 'instance', { reason: `No account with _id ${id.slice(0, 64)}.` });
  }
  return accountId;
}

/** The org's app named by `key`; minting (`usable`) also needs it enabled, listing and revoking do not. */
export function tokenApp(svc: Service, org: Org, key: unknown, usable: boolean): App {
  if (typeof key !== 'string' || key === '') {
    throw fault('invalidArgument', undefined, { path: 'app', reason: 'Name the application by its key (app=KEY).' });
  }
  // By key, or by name where the app allows name mapping (`createAuthToken('c_my_app', …)`).
  const found = svc.apps.byKeyOrName(org.id, key);
  if (!found) throw fault('notFound', 'app', { reason: 'No application with this key.' });
  if (
    (usable && !found.settings.enabled) ||
    (found.settings.expires && Date.parse(found.settings.expires) <= svc.clock.now())
  ) {
    throw fault('accessDenied', 'app', { reason: 'The application is disabled or expired.' });
  }
  return found;
}

/** Mints a token for `accountId` from a raw token request (the REST body / the script options plus `app`). */
/**
 * Mints a token for `accountId` as REST `POST /accounts/:id/tokens` and the scripts'
 * `createAuthToken` both do; `minter` is what the minting caller itself may do (mint-rights.ts).
 */
export async function issueSubjectToken(
  svc: Service,
  org: Org,
  accountId: string,
  raw: unknown,
  minter: MinterRights,
  /** The request's `Host` header: `aud` is the org's base URL as called (token-claims.ts). */
  host?: string,
  /** Who mints it, for the audit entry (issue 41). */
  actor?: AuditActor,
): Promise<string> {
  const body = parseTokenRequest(raw);
  assertScopesExist(svc, org.id, body.scope);
  const issuer = tokenApp(svc, org, body.appKey, true);
  const roleDef = svc.defs.byName(org.id, 'role');
  const existing = new Set(roleDef ? body.roles.filter((id) => svc.store.get(org.id, roleDef, id) !== undefined) : []);
  const unknownRole = body.roles.findIndex((role) => !existing.has(role));
  if (unknownRole !== -1) {
    throw fault('invalidArgument', undefined, { path: `roles[${unknownRole}]`, reason: 'No such role in this org.' });
  }
  const { jwt, jti } = await mintToken(svc, org, issuer, accountId, body, minter, host);
  if (actor) {
    const kind = body.permanent
      ? 'permanent'
      : body.maxUses !== undefined
        ? `limited-use (${body.maxUses})`
        : 'expiring';
    recordAudit(svc, org, actor, {
      cat: 'token',
      sub: 'mint',
      target: { object: 'account', _id: accountId },
      summary: `Minted a ${kind} token${jti ? ` (jti ${jti})` : ''} for account ${accountId} through app ${issuer.key}, scope ${body.scope.join(' ') || '(none)'}.`,
    });
  }
  return jwt;
}

/** Live stored (permanent / limited-use) tokens of the subject through the app. */
export function listSubjectTokens(svc: Service, org: Org, appKey: unknown, accountId: string) {
  const issuer = tokenApp(svc, org, appKey, false);
  const key = currentAppKey(svc.apps, issuer.id);
  const rows = key
    ? svc.issuedTokens.listLive({ orgId: org.id, appId: issuer.id, accountId }, key.kid, svc.clock.now())
    : [];
  return rows.map(presentToken);
}

export function revokeSubjectToken(
  svc: Service,
  org: Org,
  accountId: string,
  jti: string,
  actor?: AuditActor,
): boolean {
  const revoked = svc.issuedTokens.revoke(org.id, accountId, jti);
  if (revoked && actor) {
    recordAudit(svc, org, actor, {
      cat: 'token',
      sub: 'revoke',
      target: { object: 'account', _id: accountId },
      summary: `Revoked token ${jti.slice(0, 64)} of account ${accountId}.`,
    });
  }
  return revoked;
}

export function revokeAllSubjectTokens(
  svc: Service,
  org: Org,
  appKey: unknown,
  accountId: string,
  actor?: AuditActor,
): number {
  const issuer = tokenApp(svc, org, appKey, false);
  const count = svc.issuedTokens.revokeAll({ orgId: org.id, appId: issuer.id, accountId });
  if (actor) {
    recordAudit(svc, org, actor, {
      cat: 'token',
      sub: 'revokeSubject',
      target: { object: 'account', _id: accountId },
      summary: `Revoked ${count} token(s) of account ${accountId} through app ${issuer.key}.`,
    });
  }
  return count;
}

// A stored time outside the JS date range (written before validAt was bounded) shows as null, never a 500.
const iso = (ms: number | null) =>
  ms === null || !Number.isFinite(new Date(ms).getTime()) ? null : new Date(ms).toISOString();

/** Times are ISO 8601 (like every other timestamp of the API); null when not applicable. */
export function presentToken(row: StoredTokenRow) {
  return {
    jti: row.jti,
    times_authorized: row.times_authorized,
    last_authorized: iso(row.last_authorized),
    uses_remaining: row.uses_remaining,
    expires_at: iso(row.expires_at),
  };
}
