import Fastify, { type FastifyInstance } from 'fastify';
import {
  createServer,
  type IncomingMessage,
  type ServerOptions as HttpServerOptions,
  type ServerResponse,
} from 'node:http';
import fastifyCookie from '@fastify/cookie';
import type { Service } from './service.js';
import {
  GUARD_HEADERS,
  installFaultHandling,
  MAX_URL_LENGTH,
  SERVER_TIME_HEADER,
  sendFault,
  stampAnswer,
} from './http/faults-plugin.js';
import { stderrSink, type ErrorLogSink } from './http/server-error-log.js';
import { clientErrorHandlerFor, frameworkFault, installStrictJsonParser } from './http/raw-input.js';
import { consoleStatic } from './http/console-static.js';
import { orgScope } from './http/org-scope.js';
import { dropTypeOnlySchemas } from './http/type-only-schemas.js';
import { lazyValidators } from './http/lazy-validators.js';
import { serviceInfoRoutes } from './routes/service-info.js';
import { installApiDescription } from './routes/openapi/install.js';
import { apiReferenceRoutes } from './routes/openapi/reference-routes.js';
import { accountSessionRoutes } from './routes/account-session.js';
import { objectRoutes } from './routes/objects.js';
import { objectPathRoutes } from './routes/object-paths.js';
import { schemaRoutes } from './routes/schemas.js';
import { accountLifecycleRoutes } from './routes/account-lifecycle.js';
import { accountAuthenticatorRoutes } from './routes/account-authenticator.js';
import { accountAdminRoutes } from './routes/account-admin.js';
import { appsRoutes } from './routes/apps.js';
import { certsRoutes } from './routes/certs.js';
import { tokensRoutes } from './routes/tokens.js';
import { demoDataRoutes } from './routes/demo-data.js';
import { viewRoutes } from './routes/views.js';
import { environmentRoutes } from './routes/environment.js';
import { orgsAdminRoutes } from './routes/orgs-admin.js';
import { deploymentRoutes } from './routes/deployments.js';
import { outboxRoutes } from './routes/outbox.js';
import { sessionsRoutes } from './routes/sessions.js';
import { scriptRunnerRoutes } from './routes/script-runner.js';
import { scriptRoutes } from './routes/script-routes.js';
import { policyGate } from './routes/policy-gate.js';
import { recordRules } from './records/rules.js';
import { installTriggers } from './triggers/install.js';
import { driverRoutes } from './routes/driver.js';
import { DirectReads } from './routes/direct-reads.js';
import { Housekeeping } from './housekeeping.js';
import { JobScheduler } from './jobs/scheduler.js';
import { jobRoutes } from './routes/jobs.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's pruning schedule (started when the server is ready, stopped on close). */
    housekeeping: Housekeeping;
    /** The job scheduler (issue 41; started when the server is ready, stopped on close). */
    jobScheduler: JobScheduler;
    /**
     * What the HTTP server calls for each request: direct reads, then Fastify. Tests
     * inject through it (light-my-request), so they see what a client sees.
     */
    dispatch: (req: IncomingMessage, res: ServerResponse) => void;
    /** Compiles every route's request validator now (they are compiled on first use otherwise). */
    compileValidators: () => number;
  }
}

/** Request bodies above this are refused with kRequestTooLarge. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** URLs (query strings included) above this are refused (by the request guard, faults-plugin.ts). */
export { MAX_URL_LENGTH };
/**
 * Node's HTTP parser refuses a request line plus headers above this (default 16 KB, which made
 * MAX_URL_LENGTH unreachable over real HTTP). Room for a maximal URL and ordinary headers; beyond
 * it `clientErrorHandlerFor` answers kRequestTooLarge.
 */
export const MAX_HEADER_BYTES = MAX_URL_LENGTH + 16 * 1024;

/** What Fastify hands its server factory, with its defaults applied (fastify.js). */
interface NodeServerOptions {
  http?: HttpServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
}

/** Fastify's router options; the direct reads' mirror of the router uses the same. */
const routerOptions = { ignoreDuplicateSlashes: true, maxParamLength: 200 };

export interface ServerOptions {
  /** Folder of the built console, served at /console/. */
  consoleDir?: string;
  /** The org code the service was started for (`--org`): first-run setup offers it. */
  defaultOrg?: string;
  logger?: boolean;
  /** Where the cause of every 5xx answer is written (default: stderr). */
  errorLog?: ErrorLogSink;
  /** Pruning of expired and old rows: at start, then every `intervalMs` (default 10 minutes). */
  housekeeping?: { intervalMs?: number };
  /** The job scheduler's tick (default every second); `enabled: false` runs no scheduled job. */
  jobs?: { intervalMs?: number; enabled?: boolean };
}

/**
 * Builds the HTTP server (a Fastify instance) without listening, so tests drive it in-process with `inject` and the CLI,
 * a worker thread or Electron bind it as they need.
 */
export async function buildServer(svc: Service, opts: ServerOptions = {}): Promise<FastifyInstance> {
  const errorLog = opts.errorLog ?? stderrSink;
  // Fastify logs each request itself; with its logger on, every request goes through it.
  const direct = opts.logger
    ? undefined
    : new DirectReads(svc, svc.clock, { routerOptions, errorLog, parseCookie: fastifyCookie.parse });
  let fastifyHandler: (req: IncomingMessage, res: ServerResponse) => void = () => {};
  let closing = false;
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    // A closing server's 503 is written by Fastify's router before any hook (so before the
    // request guard stamps it); docs/faults.md wants Service-Server-Time on every answer.
    if (closing) {
      res.setHeader(SERVER_TIME_HEADER, String(svc.clock.now()));
      for (const [name, value] of GUARD_HEADERS) res.setHeader(name, value);
    }
    if (direct === undefined || !direct.handle(req, res)) fastifyHandler(req, res);
  };
  const validators = lazyValidators();
  const server = Fastify({
    // The server Fastify would make (fastify/lib/server.js: options.http, the timeouts), with
    // direct reads in front of Fastify's handler.
    serverFactory: (handler, options) => {
      fastifyHandler = handler;
      const o = options as NodeServerOptions;
      const http = createServer(o.http ?? {}, dispatch);
      http.keepAliveTimeout = o.keepAliveTimeout ?? 72_000;
      http.requestTimeout = o.requestTimeout ?? 0;
      http.setTimeout(o.connectionTimeout ?? 0);
      return http;
    },
    logger: opts.logger
      ? {
          level: 'info',
          redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["service-client-signature"]'],
        }
      : false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Node answers an HTTP/1.1 request without Host with a bare 400 (no body, no headers of ours);
    // let it through to the request guard, which refuses it with a fault (faults-plugin.ts).
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    clientErrorHandler: clientErrorHandlerFor(svc.clock),
    // Router errors (bad percent-encoding, an over-long path parameter) answer faults too. They
    // come before any hook, so the request guard has not stamped the answer's headers.
    frameworkErrors: (error, _request, reply) => {
      stampAnswer(reply, svc.clock);
      return sendFault(reply, frameworkFault(error));
    },
    trustProxy: false,
    routerOptions,
    rewriteUrl: (req) => withoutApiTrailingSlash(req.url ?? '/'),
    // Closing the service ends every connection, idle keep-alive ones included: a browser's
    // pre-opened socket must not hold a shutdown open.
    forceCloseConnections: true,
    // Fastify's default (removeAdditional: true) silently strips keys a schema declares
    // `additionalProperties: false` for; a body with unknown keys is refused instead (issue #8).
    // Nor are values coerced: `["x"]` or `1` where a string is declared is a fault, not a string.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    // Each route's validator is compiled on its first request, not at start-up (lazy-validators.ts).
    schemaController: { compilersFactory: { buildValidator: validators.buildValidator } },
    // Unknown or hostile JSON keys such as __proto__ are refused by the parser.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  installFaultHandling(server, svc.clock, errorLog);
  server.decorate('dispatch', dispatch);
  server.decorate('compileValidators', validators.compileAll);
  // Fastify's router starts refusing (503) just before the preClose hooks run.
  server.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  if (direct) {
    // Before any route, so every GET route is mirrored in the direct path's router.
    server.addHook('onRoute', (route) => direct.addRoute(route));
    server.addHook('preClose', (done) => {
      direct.stop();
      done();
    });
  }
  // The sandbox's worker threads end with the server (tests must not leak workers).
  server.addHook('onClose', async () => svc.closeScripts());
  // Pruning starts with the server and stops with it; its timer never keeps the process alive.
  const housekeeping = new Housekeeping(svc);
  server.decorate('housekeeping', housekeeping);
  server.addHook('onReady', async () => housekeeping.start(opts.housekeeping?.intervalMs));
  server.addHook('onClose', async () => housekeeping.stop());
  const jobScheduler = new JobScheduler(svc, (err) => errorLog(`job scheduler: ${String(err)}`));
  server.decorate('jobScheduler', jobScheduler);
  if (opts.jobs?.enabled !== false) server.addHook('onReady', async () => jobScheduler.start(opts.jobs?.intervalMs));
  server.addHook('onClose', async () => jobScheduler.stop());
  installStrictJsonParser(server);
  // Before any route: the description's generator sees each one as it is registered.
  await installApiDescription(server);
  // Before any route: checks that can refuse nothing are not run per request (type-only-schemas.ts).
  server.addHook('onRoute', dropTypeOnlySchemas);
  // Record rules (registered at open) are ready before requests: the script checker's engine loads.
  await recordRules(svc).prepare();
  // Triggers run around every caller write (records/write-hooks.ts): installed here, so the write
  // path needs no import of the engine, which runs scripts that write through it.
  installTriggers(svc);
  await server.register(fastifyCookie);
  await server.register(serviceInfoRoutes(svc, opts.defaultOrg));
  await server.register(consoleStatic, { dir: opts.consoleDir });
  await server.register(apiReferenceRoutes(opts.consoleDir));
  // The router prefers static segments over /:collection, so resource routes may come in any order.
  const orgRoutes = [
    accountSessionRoutes(svc),
    accountLifecycleRoutes(svc),
    accountAuthenticatorRoutes(svc),
    accountAdminRoutes(svc),
    outboxRoutes(svc),
    sessionsRoutes(svc),
    appsRoutes(svc),
    certsRoutes(svc),
    tokensRoutes(svc),
    demoDataRoutes(svc),
    viewRoutes(svc),
    environmentRoutes(svc),
    orgsAdminRoutes(svc),
    deploymentRoutes(svc),
    scriptRunnerRoutes(svc),
    jobRoutes(svc, jobScheduler),
    scriptRoutes(svc),
    schemaRoutes(svc),
    driverRoutes(svc),
    objectRoutes(svc),
    objectPathRoutes(svc),
  ];
  await server.register(orgScope(svc, orgRoutes, policyGate(svc)), { prefix: '/:org/v2' });
  return server;
}

const SLASH = 0x2f;

/**
 * `/demo/v2/accounts/me/` is the same resource as `/demo/v2/accounts/me` (the signed command drops
 * trailing slashes too, docs/signing.md). Only API paths are rewritten: `/console/` is a folder.
 */
export function withoutApiTrailingSlash(url: string): string {
  const q = url.indexOf('?');
  // Runs on every request: most paths do not end in a slash, and need no pattern or copy.
  if (url.charCodeAt((q === -1 ? url.length : q) - 1) !== SLASH) return url;
  const path = q === -1 ? url : url.slice(0, q);
  if (!/^\/[a-z0-9-]+\/v2\/.*[^/]\/+$/.test(path)) return url;
  return path.replace(/\/+$/, '') + (q === -1 ? '' : url.slice(q));
}

/** Binds loopback only: the service is for this machine. */
export async function listen(server: FastifyInstance, port: number): Promise<number> {
  await server.listen({ host: '127.0.0.1', port });
  const address = server.server.address();
  return typeof address === 'object' && address ? address.port : port;
}
