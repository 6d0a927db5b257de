/**
 * The script library (records of the built-in object `script`, `/scripts`): validation on save and
 * route matching for `/<org>/v2/routes/<path>` (original-clients.md §C).
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { checkSyntaxSync, loadSyntaxChecker } from './syntax.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { compileScript } from './language/compiled-cache.js';
import { decoratorRoutes, routesOfLibrary } from './decorator-routes.js';
import { resolveRoleNames, roleIdsByName } from './script-consts.js';
import { recordRules, type RuleInput } from '../records/rules.js';

export type { RouteConfig, RouteScript } from './route-types.js';
import type { RouteConfig, RouteScript } from './route-types.js';

export interface RouteMatch {
  route: RouteScript;
  params: Record<string, string>;
}

const DEFAULT_MAX_CHARS = 50_000;

const PATH_PATTERN = /^\/?[A-Za-z0-9_\-.~:*]+(\/[A-Za-z0-9_\-.~:*]+)*\/?$/;

/**
 * Makes every write of a script record (REST, driver API, scripts' `org.objects.scripts`,
 * environment import and deployments, the CLI) check it through the record rules of the one write
 * path (records/rules.ts); the syntax checker loads before writes. Idempotent.
 */
export function registerScriptRecordRules(svc: Service): void {
  const check = ({ org, merged, current }: RuleInput) => {
    assertScriptCompiles(merged);
    assertRouteConfig(svc, org, merged, current?._id);
    assertDecoratorRoutes(svc, org, merged, current?._id);
  };
  recordRules(svc).register('script', 'library', check, loadSyntaxChecker);
}

/**
 * The source compiles (fault with line and column of the source as written otherwise): it is
 * transpiled here, once per version (language/compiled-cache.ts keeps it for the runs), then the
 * result is compiled by QuickJS; `loadSyntaxChecker` must have run.
 */
export function assertScriptCompiles(values: Record<string, unknown>): void {
  if (typeof values.script !== 'string') return;
  const transpiled = values.script.length > DEFAULT_MAX_CHARS ? undefined : compileScript(values.script);
  if (transpiled && !transpiled.ok) {
    throw fault('validation', 'script', {
      path: 'script',
      reason: `Line ${transpiled.line}, column ${transpiled.column}: ${transpiled.message}`,
    });
  }
  const check = transpiled ? checkSyntaxSync(transpiled.code, Infinity) : checkSyntaxSync(values.script);
  if (check === null) {
    throw fault('error', 'script.syntaxCheck', { reason: 'The script checker is not loaded yet; try again.' });
  }
  if (!check.ok) {
    throw fault('validation', 'script', {
      path: 'script',
      reason: `Line ${check.line}, column ${check.column}: ${check.message}`,
    });
  }
}

/**
 * A route script has a method and a valid path, an apiKey and a principal that exist, and no other
 * route script has the same method and path (§C).
 */
export function assertRouteConfig(svc: Service, org: Org, merged: Record<string, unknown>, selfId?: string): void {
  if (merged.type !== 'route') return;
  const config = configOf(merged);
  if (!PATH_PATTERN.test(config.path)) {
    throw fault('validation', 'invalidPath', {
      path: 'configuration.path',
      reason: 'A route script needs a path such as /patients/:id.',
    });
  }
  if (config.apiKey !== undefined && svc.apps.byKey(config.apiKey)?.orgId !== org.id) {
    throw fault('validation', 'invalidReference', {
      path: 'configuration.apiKey',
      reason: 'apiKey must be the key of an app of this org.',
    });
  }
  // Checked on save (REST, driver, import) as a view's principal is: a route naming no usable
  // account would answer every call with a 500 (issue 38 low 3). Who may name it: named-principal.ts.
  if (config.principal !== undefined) {
    const found = lookupAccountPrincipal(svc, org, config.principal);
    if ('problem' in found) {
      throw fault('validation', 'invalidReference', {
        path: 'configuration.principal',
        reason: `principal must name an account of the org (by _id or email): ${found.problem}`,
      });
    }
  }
  const clash = routeScripts(svc, org, false).find(
    (r) => r._id !== selfId && r.config.method === config.method && pathShape(r.config.path) === pathShape(config.path),
  );
  if (clash) {
    throw fault('validation', 'conflict', {
      path: 'configuration.path',
      reason: `Script ${clash._id} already handles ${config.method} ${config.path}.`,
    });
  }
}

/** The routes a library registers with `@route` clash with no other route of the org. */
function assertDecoratorRoutes(svc: Service, org: Org, merged: Record<string, unknown>, selfId?: string): void {
  if (merged.type !== 'library' || typeof merged.script !== 'string') return;
  const own = routesOfLibrary({ _id: selfId ?? '', source: merged.script, active: true });
  if (own.length === 0) return;
  const others = routeScripts(svc, org, false).filter((r) => r._id !== selfId);
  for (const [i, route] of own.entries()) {
    if (!PATH_PATTERN.test(route.config.path)) {
      throw fault('validation', 'invalidPath', {
        path: 'script',
        reason: `@route ${route.handler ?? ''}: a path such as /patients/:id.`,
      });
    }
    const clash = [...others, ...own.slice(0, i)].find(
      (r) => r.config.method === route.config.method && pathShape(r.config.path) === pathShape(route.config.path),
    );
    if (clash) {
      throw fault('validation', 'conflict', {
        path: 'script',
        reason: `@route ${route.config.method} ${route.config.path} (${route.handler ?? ''}) is already handled by script ${clash._id || 'itself'}.`,
      });
    }
  }
}

function configOf(doc: Doc | Record<string, unknown>): RouteConfig {
  const c = (typeof doc.configuration === 'object' && doc.configuration !== null ? doc.configuration : {}) as Record<
    string,
    unknown
  >;
  const acl = Array.isArray(c.acl) ? c.acl.filter((a): a is string => typeof a === 'string') : [];
  return {
    method: typeof c.method === 'string' ? c.method.toLowerCase() : '*',
    path: typeof c.path === 'string' ? c.path : '',
    priority: typeof c.priority === 'number' ? c.priority : 0,
    acl,
    ...(typeof c.authValidation === 'string' ? { authValidation: c.authValidation } : {}),
    ...(typeof c.apiKey === 'string' && c.apiKey !== '' ? { apiKey: c.apiKey } : {}),
    ...(typeof c.principal === 'string' && c.principal !== '' ? { principal: c.principal } : {}),
    ...(c.urlEncoded === true ? { urlEncoded: true } : {}),
  };
}

const normalisePath = (path: string) => path.replace(/^\/+|\/+$/g, '');
/** A path as the requests it matches: `/p/:id` and `/p/:other` are one route. */
const pathShape = (path: string) =>
  normalisePath(path)
    .split('/')
    .map((seg) => (seg.startsWith(':') && seg.length > 1 ? ':' : seg))
    .join('/');

/** A segment of the request's path as sent, decoded once; undefined when it is malformed. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Route scripts of the org (active ones only when `activeOnly`): route records, then the routes
 * library scripts register with `@route` (decorator-routes.ts).
 */
export function routeScripts(svc: Service, org: Org, activeOnly: boolean): RouteScript[] {
  const def = svc.defs.byName(org.id, 'script');
  if (!def) return [];
  const out: RouteScript[] = decoratorRoutes(svc, org, activeOnly);
  for (const record of svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 0 })) {
    const doc = record.doc;
    if (doc.type !== 'route' || typeof doc.script !== 'string') continue;
    if (activeOnly && doc.active !== true) continue;
    out.push({
      _id: record._id,
      script: doc.script,
      weight: typeof doc.weight === 'number' ? doc.weight : 0,
      config: configOf(doc),
    });
  }
  return out;
}

/**
 * Matches `pattern` (segments, `:name` params, `*` = the rest) against `rawPath`, the request's
 * path as sent (still percent-encoded): it is split first and each segment decoded once, so
 * `a%2Fb` is one segment `a/b` and `100%25` is `100%`. The params, or null.
 */
export function matchPath(pattern: string, rawPath: string): Record<string, string> | null {
  const want = normalisePath(pattern).split('/');
  const decoded = normalisePath(rawPath).split('/').map(decodeSegment);
  if (decoded.some((seg) => seg === undefined)) return null;
  const got = decoded as string[];
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const seg = want[i] ?? '';
    if (seg === '*') {
      params['*'] = got.slice(i).join('/');
      return params;
    }
    const value = got[i];
    if (value === undefined) return null;
    if (seg.startsWith(':') && seg.length > 1) {
      if (value === '') return null;
      params[seg.slice(1)] = value;
    } else if (seg !== value) return null;
  }
  return got.length === want.length ? params : null;
}

/**
 * Active route scripts matching the method and path, in the order they are tried: priority high
 * first, then weight high first, then _id (a stable order for equal ones).
 */
export function matchRoutes(svc: Service, org: Org, method: string, path: string): RouteMatch[] {
  const verb = method.toLowerCase();
  const matches: RouteMatch[] = [];
  let roles: Record<string, string> | undefined;
  for (const route of routeScripts(svc, org, true)) {
    if (route.config.method !== '*' && route.config.method !== verb) continue;
    const params = matchPath(route.config.path, path);
    if (!params) continue;
    // The original's acl names roles (`role.administrator`); the check compares ids.
    roles ??= roleIdsByName(svc, org);
    const acl = resolveRoleNames(route.config.acl, roles);
    matches.push({ route: { ...route, config: { ...route.config, acl } }, params });
  }
  return matches.sort(
    (a, b) =>
      b.route.config.priority - a.route.config.priority ||
      b.route.weight - a.route.weight ||
      (a.route._id < b.route._id ? -1 : 1),
  );
}
