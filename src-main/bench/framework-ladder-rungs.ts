/** The rungs of the framework ladder, each adding one piece of the service's request path. */
export const RUNGS = {
  fastify: 'a bare Fastify route, no hooks, no schema',
  guard: "+ the service's request guard and fault handling (Host check, response headers, URL length)",
  cookie: '+ @fastify/cookie (an onRequest and an onSend hook)',
  prehandler: "+ a preHandler where the org scope's is",
  validators: "+ the route's type-only schemas (pathParams, ANY_QUERY) run as validators",
  'type-only': '+ those schemas dropped from validation (type-only-schemas.ts, the service now)',
} as const;
export type Rung = keyof typeof RUNGS;
export const RUNG_NAMES = Object.keys(RUNGS) as Rung[];
