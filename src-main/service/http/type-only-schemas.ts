import type { RouteOptions } from 'fastify';
import { isRecord } from './route-schemas.js';

type SchemaPart = 'params' | 'querystring' | 'body';

/**
 * Drops the parts of a route's schema that can refuse nothing, so Fastify runs no validator for
 * them. They stay in the route's declaration, where the handler's types come from
 * (`withSchemaTypes`); only the run-time check goes, and it could never fail:
 *
 * - `params` whose every property is `{ type: 'string' }` and whose required names are the
 *   route's own path parameters (`pathParams`): the router always supplies those, as strings;
 * - `querystring` of `{ type: 'object' }` (`ANY_QUERY`): a parsed query string is always an object;
 * - `body` of `{}` (`ANY_BODY`): any JSON.
 *
 * Why: a validator per request is work for nothing when it cannot fail. On Q5 (one record by
 * `_id`) the service's CPU per request fell from 145 to 142 µs and its p50 from 243 to 229 µs
 * (`bench/alternate.ts`; "Changed in the ninth session" in docs/speed-history.md, which git keeps
 * before a647cf6). Installed as an `onRoute` hook before any route is registered.
 */
export function dropTypeOnlySchemas(route: RouteOptions): void {
  const schema = route.schema as Partial<Record<SchemaPart, unknown>> | undefined;
  if (!schema) return;
  const kept = { ...schema };
  if (refusesNothing('params', schema.params, route.url)) delete kept.params;
  if (refusesNothing('querystring', schema.querystring, route.url)) delete kept.querystring;
  if (refusesNothing('body', schema.body, route.url)) delete kept.body;
  route.schema = kept;
}

/** Whether validating `part` of a request to `url` against `schema` can never refuse it. */
export function refusesNothing(part: SchemaPart, schema: unknown, url: string): boolean {
  if (!isRecord(schema) || Array.isArray(schema)) return false;
  const keys = Object.keys(schema);
  switch (part) {
    case 'body':
      return keys.length === 0;
    case 'querystring':
      return keys.length === 1 && schema.type === 'object';
    case 'params':
      return stringParamsOf(schema, pathParameterNames(url));
  }
}

function stringParamsOf(schema: Readonly<Record<string, unknown>>, inPath: Set<string>): boolean {
  const { type, required = [], properties = {} } = schema;
  if (type !== 'object' || Object.keys(schema).some((k) => !['type', 'required', 'properties'].includes(k))) {
    return false;
  }
  if (!Array.isArray(required) || !required.every((name) => inPath.has(String(name)))) return false;
  if (!isRecord(properties)) return false;
  return Object.values(properties).every(
    (p) => isRecord(p) && Object.keys(p).length === 1 && (p as { type?: unknown }).type === 'string',
  );
}

/** The parameters the router fills for a route URL: `:name` segments and a final `*`. */
export function pathParameterNames(url: string): Set<string> {
  const names = new Set<string>();
  for (const segment of url.split('/')) {
    if (segment.startsWith(':')) names.add(segment.slice(1));
    else if (segment === '*') names.add('*');
  }
  return names;
}
