import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FaultError, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { logServerError, stderrSink, type ErrorLogSink } from './server-error-log.js';
import { hasRepeatedHost } from './single-host.js';

export const SERVER_TIME_HEADER = 'Service-Server-Time';

/** URLs (query strings included) above this are refused with kRequestTooLarge. */
export const MAX_URL_LENGTH = 64 * 1024;

/** Host names a browser on this machine uses for us; anything else may be a DNS-rebinding page. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function hostIsLoopback(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const end = hostHeader.startsWith('[') ? hostHeader.indexOf(']') + 1 : hostHeader.indexOf(':');
  const host = end === -1 ? hostHeader : hostHeader.slice(0, end);
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/** Headers every answer carries, set by the request guard (and by the direct reads). */
export const GUARD_HEADERS = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
] as const;

/**
 * Sets the headers every answer carries (docs/faults.md: clients sync their signing clock from
 * `Service-Server-Time` on any answer, faults included). Shared by the request guard and the
 * answers Fastify gives before any hook runs (router errors, server.ts), so no path forgets one.
 */
export function stampAnswer(reply: FastifyReply, clock: Clock): void {
  reply.header(SERVER_TIME_HEADER, String(clock.now()));
  for (const [name, value] of GUARD_HEADERS) reply.header(name, value);
}

export function sendFault(reply: FastifyReply, body: FaultBody): FastifyReply {
  return reply.code(body.status).type('application/json; charset=utf-8').send(body);
}

/**
 * Makes every answer of the service either a success or a fault of docs/faults.md: unknown routes,
 * malformed bodies, oversized bodies and unexpected exceptions included. Stack traces and internal
 * messages never leave the process.
 */
export function installFaultHandling(server: FastifyInstance, clock: Clock, errorLog: ErrorLogSink = stderrSink): void {
  // The request guard. Callback style, not async: it runs on every request, and a promise per hook
  // costs measurably.
  server.addHook('onRequest', (request, reply, done) => {
    stampAnswer(reply, clock);
    // A request without Host (Node's parser lets it through: requireHostHeader is off, server.ts)
    // is refused here too, with a fault rather than the parser's bare 400.
    if (!hostIsLoopback(request.headers.host)) {
      // Answering without calling done() ends the hook chain (Fastify "Respond from a hook").
      sendFault(
        reply,
        makeFault('accessDenied', 'host', {
          reason: 'Requests must address the service by a loopback name (127.0.0.1, localhost or [::1]).',
        }),
      );
      return;
    }
    if (hasRepeatedHost(request.raw.rawHeaders)) {
      sendFault(
        reply,
        makeFault('invalidArgument', 'host', { reason: 'A request must carry exactly one Host header.' }),
      );
      return;
    }
    // In this hook rather than one of its own: every hook costs each request a step of Fastify's chain.
    // The direct reads (routes/direct-reads.ts) leave longer URLs here.
    if (request.url.length > MAX_URL_LENGTH) {
      done(Object.assign(new Error('URI too long'), { statusCode: 414, code: 'FST_ERR_REQUEST_URI_TOO_LONG' }));
      return;
    }
    done();
  });

  server.setNotFoundHandler((request, reply) =>
    sendFault(
      reply,
      makeFault('notFound', 'route', { reason: `No route for ${request.method} ${request.url.split('?')[0]}.` }),
    ),
  );

  server.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    sendFault(reply, faultAnswering(error, request, clock, errorLog)),
  );
}

/**
 * The fault that answers an error thrown while handling `request`. The cause of a 5xx answer is
 * logged under a request id the answer carries, so a user's report finds the log line.
 */
export function faultAnswering(
  error: unknown,
  request: { readonly method: string; readonly url: string },
  clock: Clock,
  errorLog: ErrorLogSink,
): FaultBody {
  const body = toFault(error);
  if (body.status < 500) return body;
  const requestId = randomBytes(8).toString('hex');
  logServerError(errorLog, clock.now(), request, requestId, error);
  return { ...body, requestId };
}

export function toFault(error: unknown): FaultBody {
  if (error instanceof FaultError) return error.fault;
  const e = error as Partial<FastifyError> & { validation?: unknown[]; validationContext?: string };
  if (e.validation) {
    return makeFault('validation', undefined, { reason: e.message ?? 'The request is not valid.' });
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return makeFault('tooLarge', 'body', { reason: 'The request body is too large.' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return makeFault('invalidArgument', 'contentType', { reason: 'Send request bodies as application/json.' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return makeFault('invalidArgument', 'json', { reason: `The request body is not valid JSON: ${e.message ?? ''}` });
  }
  if (e.statusCode === 400 && (error instanceof SyntaxError || e.name === 'SyntaxError')) {
    return makeFault('invalidArgument', 'json', { reason: `The request body is not valid JSON: ${e.message ?? ''}` });
  }
  if (e.statusCode === 414 || e.code === 'FST_ERR_REQUEST_URI_TOO_LONG') {
    return makeFault('tooLarge', 'url', { reason: 'The request URL is too long.' });
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return makeFault('invalidArgument', undefined, { reason: e.message ?? 'Bad request.' });
  }
  return makeFault('error', undefined, { message: 'An unexpected error occurred.' });
}
