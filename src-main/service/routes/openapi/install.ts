import type { FastifyInstance, RouteOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { SERVICE_VERSION } from '../service-info.js';
import { SCHEMAS, SECURITY_SCHEMES, TAGS } from './components.js';
import { completeDocument, type Document } from './complete-document.js';
import { OPERATIONS } from './operations.js';

/** A route as registered: one method and the router's URL (`/:org/v2/:collection`). */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered on `server` since `installApiDescription` (HEAD routes included). */
export function registeredRoutes(server: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(server) ?? [];
}

/**
 * Makes `server.swagger()` answer the service's OpenAPI 3.1 description. @fastify/swagger builds
 * it from every route's own JSON schemas (path parameters, query, body, as Fastify checks them);
 * `completeDocument` adds the operation tables. Installed before any route, as its `onRoute` hook
 * must see them all. Nothing is added to the routes themselves: no response schema (it would
 * compile a serializer and change answers), no validation.
 */
export async function installApiDescription(server: FastifyInstance): Promise<void> {
  const routes: RegisteredRoute[] = [];
  registered.set(server, routes);
  server.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  await server.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Typed-object service',
        version: SERVICE_VERSION,
        description:
          'The HTTP API of the typed-object service: records of typed collections, their definitions, ' +
          'sessions, applications, tokens, views, scripts and configuration. Every error is a Fault. ' +
          'Rules in the repository: docs/API.md and docs/query-semantics.md.',
      },
      tags: [...TAGS],
      components: { schemas: SCHEMAS as never, securitySchemes: SECURITY_SCHEMES },
    },
    convertConstToEnum: false,
    // The router's wildcard becomes a named path parameter (OpenAPI has no `*`).
    transform: ({ schema, url }) => ({ schema, url: url.replace(/\*$/, ':path') }),
    // Only the OpenAPI form is generated here (`openapi` above), never Swagger 2's.
    transformObject: (generated) =>
      completeDocument(('openapiObject' in generated ? generated.openapiObject : {}) as Document, OPERATIONS),
  });
}

/** The URL of a registered route as the description spells it: `/{org}/v2/{collection}`. */
export function describedPath(url: string): string {
  return url.replace(/\*$/, ':path').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
