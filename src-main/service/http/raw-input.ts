import type { Socket } from 'node:net';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { Clock } from '../clock.js';
import { SERVER_TIME_HEADER, toFault } from './faults-plugin.js';

/** The body bytes as received, for version-2 request signatures (which sign their SHA-256). */
const rawBodies = new WeakMap<object, Buffer>();

/** The request body exactly as sent: the JSON bytes, a text body's UTF-8, or undefined. */
export function rawBodyOf(request: { readonly body?: unknown }): Buffer | string | undefined {
  // Bodies read as bytes (an environment import's NDJSON or gzip) are their own raw form.
  const body = request.body;
  return rawBodies.get(request) ?? (typeof body === 'string' || Buffer.isBuffer(body) ? body : undefined);
}

/**
 * Trust boundary: the bytes of a request before Fastify has a request object for them.
 *
 * JSON bodies are decoded as strict UTF-8. Fastify's own parser decodes leniently, so an invalid
 * byte sequence became U+FFFD and was stored: a client sending Latin-1 silently corrupted its
 * records. RFC 8259 requires UTF-8; anything else is refused with a fault.
 */
export function installStrictJsonParser(server: FastifyInstance): void {
  const parseJson: FastifyBodyParser<string> = server.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    rawBodies.set(request, body);
    // The original's clients send `Content-Type: application/json` on every call, DELETE included
    // (docs/compatibility.md#requests-cookies-and-fault-codes): an empty body under that header is a request with no body.
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = decoder.decode(body);
    } catch {
      done(fault('invalidArgument', 'json', { reason: 'The request body is not valid UTF-8.' }), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/**
 * Errors Node's HTTP parser raises before Fastify routes anything (a request line or headers over
 * `maxHeaderSize`, malformed framing). Fastify's default answers these with its own JSON shape;
 * this one answers with a fault of docs/faults.md, so even these refusals read like every other,
 * `Service-Server-Time` included (clients sync their signing clock from it on any answer).
 */
export function clientErrorHandlerFor(clock: Clock): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => clientErrorHandler(err, socket, clock);
}

function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket, clock: Clock): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const body = JSON.stringify(
    err.code === 'HPE_HEADER_OVERFLOW'
      ? makeFault('tooLarge', 'headers', { reason: 'The request line or headers are too large.' })
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? makeFault('timeout', undefined, { reason: 'The request was not received in time.' })
        : makeFault('invalidArgument', 'http', { reason: 'The request is not valid HTTP.' }),
  );
  const status = (JSON.parse(body) as { status: number }).status;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} Error\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `${SERVER_TIME_HEADER}: ${clock.now()}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * Errors the router raises before any hook runs: a path that is not valid percent-encoding, or a
 * path parameter over `maxParamLength` (Fastify answered both with its own JSON shape, 400/414).
 */
export function frameworkFault(error: { code?: string }): FaultBody {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return makeFault('tooLarge', 'url', { reason: 'A path segment of the request URL is too long.' });
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return makeFault('invalidArgument', 'url', { reason: 'The request path is not valid percent-encoding.' });
  }
  return toFault(error);
}
