/**
 * Route scripts (records of the built-in object `script` whose type is `route`): their
 * configuration, and matching them to requests at `/<org>/v2/routes/<path>` (docs/compatibility.md
 * §C). What a script record must meet to be saved is script-rules.ts.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { decoratorRoutes } from './decorator-routes.js';
import { resolveRoleNames, roleIdsByName } from './script-consts.js';

export type { RouteConfig, RouteScript } from './route-types.js';
import type { RouteConfig, RouteScript } from './route-types.js';

export interface RouteMatch {
  route: RouteScript;
  params: Record<string, string>;
}

/** A route path: segments of letters, digits and `_-.~:*`. */
export const PATH_PATTERN = /^\/?[A-Za-z0-9_\-.~:*]+(\/[A-Za-z0-9_\-.~:*]+)*\/?$/;

export function configOf(doc: Doc | Record<string, unknown>): RouteConfig {
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
export const pathShape = (path: string) =>
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
