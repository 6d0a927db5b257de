import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';

/**
 * A Fastify instance whose handlers get `request.body`, `.query` and `.params` typed from the
 * route's own JSON schema (json-schema-to-ts): one declaration, so the type and the check cannot
 * drift. Schemas are written `as const` so their literal shape is visible to the types.
 */
export type TypedServer = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  JsonSchemaToTsProvider
>;

/** A route module: registered with a typed instance (see `withSchemaTypes`). */
export type RoutePlugin = (server: TypedServer) => Promise<void>;

/** The same instance, its routes typed from their schemas (`withTypeProvider` changes only types). */
export const withSchemaTypes = (server: FastifyInstance): TypedServer =>
  server.withTypeProvider<JsonSchemaToTsProvider>();

const STRING = { type: 'string' } as const;

interface ParamsSchema<K extends string> {
  readonly type: 'object';
  readonly required: readonly K[];
  readonly properties: { readonly [P in K]: { readonly type: 'string' } };
}

/**
 * The schema of a route's path parameters, all strings (the router's own values, so the check
 * never refuses one; it is there so the handler's type comes from the route's declaration).
 */
export function pathParams<const K extends string>(...names: K[]): ParamsSchema<K> {
  const properties: Partial<Record<K, { readonly type: 'string' }>> = {};
  for (const name of names) properties[name] = STRING;
  return { type: 'object', required: names, properties: properties as Record<K, typeof STRING> };
}

/**
 * A query string read by the domain's own parser (list arguments, view arguments): any keys, each
 * a string or, when repeated, an array of strings. Checked only for being an object, which a
 * parsed query string always is, so the parser's faults stay the ones the caller sees.
 */
export const ANY_QUERY = { type: 'object' } as const;

/**
 * A body the domain checks itself (its faults name the field, which a schema's generic
 * `validation` fault would not): accepted as any JSON, typed `unknown`, never cast.
 */
export const ANY_BODY = {} as const;

/** A JSON object or array, whose members may be read (a type guard, not a cast). */
export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null;

/** One member of a body the domain checks itself, or undefined when the body is not an object. */
export const memberOf = (body: unknown, name: string): unknown =>
  isRecord(body) && !Array.isArray(body) ? body[name] : undefined;

/** The TypeScript type a JSON schema admits: for helpers that take a route's checked body. */
export type { FromSchema } from 'json-schema-to-ts';
