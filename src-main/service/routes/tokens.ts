import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { App } from '../apps/apps.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { Caller } from '../access/caller.js';
import { requireCaller } from '../http/context.js';
import { mintToken } from '../auth/tokens/tokens.js';
import { parseTokenRequest } from '../auth/tokens/token-request.js';
import { currentAppKey } from '../auth/tokens/token-keys.js';
import type { StoredTokenRow } from '../auth/tokens/token-store.js';
import { assertScopesExist } from '../access/scope-schema.js';

interface AccountParams {
  id: string;
}
interface TokenParams extends AccountParams {
  jti: string;
}
interface AppQuery {
  app?: unknown;
}

/**
 * Tokens of an account (decisions.md §6):
 *   POST   /accounts/:id/tokens          mint → {object:'result', data:'<jwt>'}
 *   GET    /accounts/:id/tokens?app=KEY  stored (permanent/limited-use) live tokens → list envelope
 *   DELETE /accounts/:id/tokens/:jti     revoke one → {object:'result', data:true}
 *   DELETE /accounts/:id/tokens?app=KEY  revoke all of the subject for the app → {object:'result', data:<count>}
 * `:id` may be `me`. Minting is for org administrators; an account may also list and revoke its own.
 */
export function tokensRoutes(svc: Service) {
  return async (app: FastifyInstance) => {
    app.post<{ Params: AccountParams }>('/accounts/:id/tokens', async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'update', false);
      const accountId = subjectId(svc, org, caller, request.params.id);
      const body = parseTokenRequest(request.body);
      assertScopesExist(svc, org.id, body.scope);
      const issuer = orgApp(svc, org, body.appKey, true);
      const existing = new Set(roleIdsOf(svc, org, body.roles));
      const unknownRole = body.roles.findIndex((role) => !existing.has(role));
      if (unknownRole !== -1) {
        throw fault('invalidArgument', undefined, {
          path: `roles[${unknownRole}]`,
          reason: 'No such role in this org.',
        });
      }
      const { jwt } = await mintToken(svc, org, issuer, accountId, body, request.headers.host);
      return { object: 'result', data: jwt };
    });

    app.get<{ Params: AccountParams; Querystring: AppQuery }>('/accounts/:id/tokens', async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'read', true, request.params.id);
      const accountId = subjectId(svc, org, caller, request.params.id);
      const issuer = orgApp(svc, org, request.query.app, false);
      const key = currentAppKey(svc.apps, issuer.id);
      const rows = key
        ? svc.issuedTokens.listLive({ orgId: org.id, appId: issuer.id, accountId }, key.kid, svc.clock.now())
        : [];
      return { object: 'list', data: rows.map(presentToken), hasMore: false };
    });

    app.delete<{ Params: TokenParams }>('/accounts/:id/tokens/:jti', async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'update', true, request.params.id);
      const accountId = subjectId(svc, org, caller, request.params.id);
      if (!svc.issuedTokens.revoke(org.id, accountId, request.params.jti)) {
        throw fault('notFound', 'instance', { reason: 'The account has no such unrevoked token.' });
      }
      return { object: 'result', data: true };
    });

    app.delete<{ Params: AccountParams; Querystring: AppQuery }>('/accounts/:id/tokens', async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'update', true, request.params.id);
      const accountId = subjectId(svc, org, caller, request.params.id);
      const issuer = orgApp(svc, org, request.query.app, false);
      const count = svc.issuedTokens.revokeAll({ orgId: org.id, appId: issuer.id, accountId });
      return { object: 'result', data: count };
    });
  };
}

/**
 * Org administrators, or (when `selfAllowed`) the account itself. A scope-limited caller also
 * needs the admin scope: scopes only ever narrow what the subject can do, so `admin.update` on a
 * token of a non-administrator grants nothing here.
 */
function authorize(
  svc: Service,
  request: FastifyRequest<{ Params: AccountParams }>,
  action: 'read' | 'update',
  selfAllowed: boolean,
  targetId?: string,
): Caller {
  const caller = requireCaller(svc, request);
  const self = selfAllowed && (targetId === 'me' || targetId?.toLowerCase() === caller.accountId);
  if (!caller.orgAdmin && !self) {
    throw fault('accessDenied', 'principal', { reason: "Only org administrators manage other accounts' tokens." });
  }
  if (caller.scopes !== undefined) {
    const decision = checkScope(caller.scopes, { kind: 'admin', action });
    if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  }
  return caller;
}

function subjectId(svc: Service, org: Org, caller: Caller, id: string): string {
  const accountId = id === 'me' ? caller.accountId : id.toLowerCase();
  const def = svc.defs.byName(org.id, 'account');
  if (!OBJECT_ID_PATTERN.test(accountId) || !def || !svc.store.get(org.id, def, accountId)) {
    throw fault('notFound', 'instance', { reason: `No account with _id ${id.slice(0, 64)}.` });
  }
  return accountId;
}

/** The org's app named by `key`; minting (`usable`) also needs it enabled, listing and revoking do not. */
function orgApp(svc: Service, org: Org, key: unknown, usable: boolean): App {
  if (typeof key !== 'string' || key === '') {
    throw fault('invalidArgument', undefined, { path: 'app', reason: 'Name the application by its key (app=KEY).' });
  }
  const found = svc.apps.byKey(key);
  if (!found || found.orgId !== org.id) throw fault('notFound', 'app', { reason: 'No application with this key.' });
  if (
    (usable && !found.settings.enabled) ||
    (found.settings.expires && Date.parse(found.settings.expires) <= svc.clock.now())
  ) {
    throw fault('accessDenied', 'app', { reason: 'The application is disabled or expired.' });
  }
  return found;
}

function roleIdsOf(svc: Service, org: Org, ids: readonly string[]): string[] {
  const def = svc.defs.byName(org.id, 'role');
  return def ? ids.filter((id) => svc.store.get(org.id, def, id) !== undefined) : [];
}

// A stored time outside the JS date range (written before validAt was bounded) shows as null, never a 500.
const iso = (ms: number | null) =>
  ms === null || !Number.isFinite(new Date(ms).getTime()) ? null : new Date(ms).toISOString();

/** Times are ISO 8601 (like every other timestamp of the API); null when not applicable. */
function presentToken(row: StoredTokenRow) {
  return {
    jti: row.jti,
    times_authorized: row.times_authorized,
    last_authorized: iso(row.last_authorized),
    uses_remaining: row.uses_remaining,
    expires_at: iso(row.expires_at),
  };
}
