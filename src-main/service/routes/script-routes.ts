import { fault, FaultError, type FaultBody } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { anonymousCaller, callerOf, type Caller } from '../access/caller.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { requireCaller, type RequestContext } from '../http/context.js';
import { pathParams, type TypedServer } from '../http/route-schemas.js';
import { matchRoutes, type RouteScript } from '../scripting/route-scripts.js';
import { runScriptFor } from '../scripting/script-host.js';
import { answerCursor } from './script-cursor.js';
import { SANDBOX_STATS_HEADER, requireScriptScope, scriptRequestOf } from './script-runner.js';
import { envelope, responseHost, type RouteAnswer } from '../scripting/response-host.js';

/**
 * `ALL /<org>/v2/routes/<path>` (docs/scripting.md#script-routes): the org's active route scripts matching
 * method and path, tried by priority then weight. A handler returns a value (enveloped like the
 * runner's) or shapes the answer with `require('response')` (`setStatusCode`, `setHeader`,
 * `write`), and `require('response').next()` passes to the next match.
 */
export function scriptRoutes(svc: Service) {
  return async (server: TypedServer) => {
    // A form is kept as its text; a route with the original's `urlEncoded: true` reads it as fields.
    server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    // Every method, GET included, so the body has no schema (Fastify refuses one on GET): the
    // script reads it as it came.
    server.all('/routes/*', { schema: { params: pathParams('*') } }, async (request, reply) => {
      const { org } = request.ctx;
      // Matched on the path as sent: Fastify's `*` param is already decoded, and a `%2F` in it
      // would split a parameter in two (route-scripts.ts matchPath decodes each segment once).
      const path = rawRoutePath(request.url) ?? request.params['*'];
      const matches = matchRoutes(svc, org, request.method, path);
      if (matches.length === 0)
        throw fault('notFound', 'route', {
          reason: `No route script handles ${request.method} /${path.slice(0, 200)}.`,
        });
      const requestCaller = request.ctx.principal ? requireCaller(svc, request) : undefined;
      for (const { route, params } of matches) {
        assertRouteApp(route, request.ctx.app?.key);
        const caller = routeCaller(route, request.ctx, requestCaller);
        if (caller) requireScriptScope(caller, { action: 'route', identifier: route._id });
        if (!aclAllows(route, caller)) {
          throw fault('accessDenied', 'route', { reason: 'The route does not admit this caller.' });
        }
        const runAs = routePrincipal(svc, org, route) ?? caller ?? anonymousCaller();
        const answer: RouteAnswer = { headers: {} };
        const result = await runScriptFor(svc, {
          org,
          caller: runAs,
          source: route.script,
          request: scriptRequestOf(request, routeBody(route, request.body, request.headers['content-type']), params),
          extraHost: responseHost(answer),
          readOnly: request.ctx.app?.settings.readOnly === true,
          // The queue's caller is who asked, not the route's principal: anonymous callers by address.
          requester: requestCaller?.accountId ?? `ip:${request.ip}`,
          log: { type: 'route', scriptId: route._id, path: `${route.config.method} ${route.config.path}` },
        });
        reply.header(SANDBOX_STATS_HEADER, JSON.stringify(result.stats));
        if (!result.ok) throw new FaultError(result.fault as FaultBody);
        if (answer.next) continue;
        if (answer.status !== undefined) reply.code(answer.status);
        for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
        if (answer.hasBody) {
          // Serialised here: a string body given to Fastify as is would go out as plain text.
          return reply.type('application/json; charset=utf-8').send(JSON.stringify(answer.body ?? null));
        }
        if (result.cursor) return answerCursor(svc, org, runAs, result.cursor, request, reply);
        return envelope(result.value);
      }
      throw fault('notFound', 'route', { reason: 'Every matching route script passed the request on.' });
    });
  };
}

/** The body a route's script reads: a form as fields when the route says `urlEncoded` (§C). */
function routeBody(route: RouteScript, body: unknown, contentType: string | undefined): unknown {
  if (!route.config.urlEncoded || typeof body !== 'string') return body;
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) return body;
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const had = fields[name];
    fields[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return fields;
}

/** `apiKey` (§C "app restriction"): only requests made through that app (client key or token issuer). */
function assertRouteApp(route: RouteScript, appKey: string | undefined): void {
  const wanted = route.config.apiKey;
  if (wanted === undefined || appKey === wanted) return;
  throw fault('accessDenied', 'route', {
    reason: appKey
      ? 'The route accepts requests from another application only.'
      : 'The route accepts requests from one application only; send its Service-Client-Key.',
  });
}

/**
 * The caller as the route's `authValidation` (§C) sees it:
 * - `legacy` (the default): as the request authenticated it; a session that can no longer be used
 *   (expired, ended elsewhere, locked) leaves the caller anonymous and the acl decides.
 * - `all`: every credential must hold: the request comes through an app, and a presented session
 *   that cannot be used is its fault (`accessDenied.sessionExpired`, …), never an anonymous call.
 * - `none`: credentials are not used; the route runs as its principal, or anonymous (so its acl
 *   must admit `anonymous`).
 */
function routeCaller(route: RouteScript, ctx: RequestContext, caller: Caller | undefined): Caller | undefined {
  const mode = route.config.authValidation ?? 'legacy';
  if (mode === 'none') return undefined;
  if (mode === 'all') {
    if (!ctx.app) {
      throw fault('accessDenied', 'app', {
        reason: 'The route validates every credential: send the Service-Client-Key of an app.',
      });
    }
    if (!caller && ctx.sessionProblem) {
      const { errCode, reason } = ctx.sessionProblem;
      throw fault('accessDenied', errCode.split('.').pop(), reason === undefined ? {} : { reason });
    }
  }
  return caller;
}

/**
 * The route's acl (§C): `anonymous` admits anyone, `account.public` any logged-in account,
 * `account.<id>` one account, `role.<id>` holders of a role. No acl = any logged-in account.
 */
function aclAllows(route: RouteScript, caller: Caller | undefined): boolean {
  const acl = route.config.acl.length > 0 ? route.config.acl : ['account.public'];
  return acl.some((entry) => {
    if (entry === 'anonymous') return true;
    if (!caller) return false;
    if (entry === 'account.public') return true;
    if (entry.startsWith('account.')) return entry.slice(8).toLowerCase() === caller.accountId;
    if (entry.startsWith('role.')) return caller.roles.has(entry.slice(5).toLowerCase());
    return false;
  });
}

/** The configured run-as principal (id or email) as a caller, or undefined. */
function routePrincipal(svc: Service, org: Org, route: RouteScript): Caller | undefined {
  if (!route.config.principal) return undefined;
  const found = lookupAccountPrincipal(svc, org, route.config.principal);
  if (!('principal' in found)) {
    // The principal was valid at save; it may have been locked or deleted since. That is the
    // route's configuration refusing the run (403), not a service failure (500).
    throw fault('accessDenied', 'route.principal', {
      reason: `The route cannot run as its principal: ${found.problem}`,
    });
  }
  return callerOf(svc, { org, principal: found.principal });
}

/** The part of the request's URL after `/v2/routes/`, still percent-encoded (no query). */
function rawRoutePath(url: string): string | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const at = path.indexOf('/v2/routes/');
  return at === -1 ? undefined : path.slice(at + '/v2/routes/'.length);
}
