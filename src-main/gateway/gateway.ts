/**
 * The connection gateway: a reverse proxy on 127.0.0.1 that the desktop console is served through.
 * The console keeps using relative URLs; the gateway sends its own assets (`/console/…`) to the
 * local service always, and every API call to the active connection — the local service, or a
 * remote instance with the credentials attached here, in main. So a token or an app secret never
 * reaches the renderer, and a remote's cookies live in the gateway's jar, never in the browser
 * (where they would collide with the local service's: cookies ignore ports).
 *
 * Only the window the shell opened may use it: every request must carry the per-launch key the
 * shell adds to the window's requests (`GATEWAY_KEY_HEADER`) and name the gateway itself as Host
 * (DNS rebinding). A page in the user's own browser has neither, so it cannot borrow the
 * credentials.
 *
 * Plain Node: no Electron, no service internals (import boundaries in eslint.config.js).
 */
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { makeFault, type FaultBody } from '../../src-shared/faults.js';
import {
  ACCOUNT_HEADER,
  CLIENT_KEY_HEADER,
  CSRF_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../src-shared/contracts/http.js';
import {
  canonicalQuery,
  commandFromUrlPath,
  signatureKey,
  signatureMessageV2,
} from '../../src-shared/contracts/signing.js';
import { CookieJar } from './cookie-jar.js';

/** Added by the shell to every request of its window (session.webRequest); never seen by the page. */
export const GATEWAY_KEY_HEADER = 'Service-Gateway-Key';

/** Where API calls go and how they are authenticated. Secrets live only in these objects, in main. */
export type GatewayTarget =
  | { kind: 'local' }
  | { kind: 'session'; origin: string }
  | { kind: 'token'; origin: string; token: string }
  | { kind: 'signing'; origin: string; appKey: string; secret: string; principal?: string };

export interface GatewayOptions {
  /** The local service, e.g. `http://127.0.0.1:7788`; it serves the console's assets. */
  localOrigin: string;
  /** The per-launch key (random, 32+ bytes as hex) the shell attaches to its window's requests. */
  key: string;
  /** Signature timestamps (tests pass the remote's clock). */
  now?: () => number;
  /** One line per request: method, path, status. Never headers, queries or bodies. */
  log?: (line: string) => void;
  fetchImpl?: typeof fetch;
}

export interface Gateway {
  /** Listens on 127.0.0.1 (`port` 0: any free port); resolves with the gateway's origin. */
  listen(port?: number): Promise<string>;
  setTarget(target: GatewayTarget): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'host',
  'content-length',
  'accept-encoding',
]);
const NONCE_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function createGateway(options: GatewayOptions): Gateway {
  const now = options.now ?? (() => Date.now());
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  const expectedKey = Buffer.from(options.key);
  let target: GatewayTarget = { kind: 'local' };
  let jar = new CookieJar();
  let ownHost = '';

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log?.(`gateway ${request.method ?? '?'} ${pathOf(request.url)} failed: ${(error as Error).name}`);
      if (!response.headersSent) sendFault(response, gatewayFault('The gateway could not forward the request.'));
      else response.destroy();
    });
  });

  function keyMatches(value: string | string[] | undefined): boolean {
    if (typeof value !== 'string') return false;
    const presented = Buffer.from(value);
    return presented.length === expectedKey.length && timingSafeEqual(presented, expectedKey);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    if (request.headers.host !== ownHost) {
      return sendFault(response, makeFault('accessDenied', 'gateway', { reason: 'Unexpected Host header.' }));
    }
    if (!keyMatches(request.headers[GATEWAY_KEY_HEADER.toLowerCase()])) {
      return sendFault(
        response,
        makeFault('accessDenied', 'gateway', { reason: 'Only the desktop window may use the gateway.' }),
      );
    }
    // Read once per request: an activation while this request is in flight does not mix targets.
    const current = target;
    const currentJar = jar;
    const pathname = pathOf(path);
    const toLocal =
      current.kind === 'local' || pathname === '/' || pathname === '/console' || pathname.startsWith('/console/');
    const origin = toLocal ? options.localOrigin : (current as Exclude<GatewayTarget, { kind: 'local' }>).origin;

    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower) || lower === GATEWAY_KEY_HEADER.toLowerCase()) continue;
      // The gateway is the client of the remote: the page's origin would read as a foreign one.
      if (lower === 'origin' || lower === 'referer') continue;
      if (value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(request);

    if (!toLocal) {
      // The local service's cookies stay here. A request that brings its own token or signature
      // (the token lab's "Try it", the signed requests screen) must answer as that credential, so
      // it goes untouched; every other one gets the connection's credentials and only those.
      headers.delete('cookie');
      if (!carriesOwnCredentials(headers)) {
        headers.delete('authorization');
        if (current.kind === 'session') {
          const cookie = currentJar.header();
          if (cookie !== undefined) headers.set('cookie', cookie);
        } else if (current.kind === 'token') {
          // The token and nothing else: no session app key, no CSRF token (BearerClient in tests).
          headers.delete(CLIENT_KEY_HEADER);
          headers.delete(CSRF_HEADER);
          headers.set('authorization', `Bearer ${current.token}`);
        } else if (current.kind === 'signing') {
          headers.delete(CSRF_HEADER);
          signInto(headers, current, method, path, body);
        }
      }
    }

    let upstream: Response;
    try {
      const init: RequestInit = { method, headers, redirect: 'manual' };
      // A Buffer is a Uint8Array; the cast only bridges Node's and the DOM's BodyInit typings.
      if (body !== undefined) init.body = body as unknown as Uint8Array<ArrayBuffer>;
      upstream = await fetchImpl(origin + path, init);
    } catch (error) {
      options.log?.(`gateway ${method} ${pathname} → unreachable (${(error as Error).name})`);
      return sendFault(response, gatewayFault(`The service at ${origin} could not be reached.`));
    }
    options.log?.(`gateway ${method} ${pathname} → ${upstream.status}`);

    const setCookies = upstream.headers.getSetCookie();
    if (!toLocal && current.kind === 'session') currentJar.store(setCookies, now());
    response.statusCode = upstream.status;
    upstream.headers.forEach((value, name) => {
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower) || lower === 'set-cookie' || lower === 'content-encoding') return;
      if (lower === 'location' && value.startsWith(origin)) value = value.slice(origin.length) || '/';
      response.setHeader(name, value);
    });
    // Only the local service's cookies reach the browser; a remote's stay in the jar.
    if (toLocal && setCookies.length > 0) response.setHeader('set-cookie', setCookies);
    if (upstream.body === null || method === 'HEAD') {
      response.end();
      return;
    }
    Readable.fromWeb(upstream.body as WebReadableStream).pipe(response);
  }

  function signInto(
    headers: Headers,
    signing: Extract<GatewayTarget, { kind: 'signing' }>,
    method: string,
    path: string,
    body: Buffer | undefined,
  ): void {
    headers.set(CLIENT_KEY_HEADER, signing.appKey);
    const url = new URL(path, 'http://gateway.invalid');
    const command = commandFromUrlPath(url.pathname);
    const query = canonicalQuery(url.pathname + url.search);
    // Outside /<org>/v2 (e.g. /_service/info) there is nothing to sign; the remote decides.
    if (command === null || query === null) return;
    const timestampMs = now();
    const nonce = makeNonce();
    const message = signatureMessageV2({
      command,
      method,
      timestampMs,
      nonce,
      query,
      bodySha256: createHash('sha256')
        .update(body ?? Buffer.alloc(0))
        .digest('hex'),
    });
    const signature = createHmac('sha256', signatureKey(signing.appKey, signing.secret)).update(message).digest('hex');
    headers.set(SIGNATURE_HEADER, signature);
    headers.set(TIMESTAMP_HEADER, String(timestampMs));
    headers.set(NONCE_HEADER, nonce);
    headers.set(SIGNATURE_VERSION_HEADER, '2');
    if (signing.principal) headers.set(ACCOUNT_HEADER, signing.principal);
    else headers.delete(ACCOUNT_HEADER);
  }

  return {
    listen: (port = 0) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          const address = server.address() as AddressInfo;
          ownHost = `127.0.0.1:${address.port}`;
          resolve(`http://${ownHost}`);
        });
      }),
    setTarget(next) {
      target = next;
      // A new connection starts signed out; the old jar's session is dropped with it.
      jar = new CookieJar();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Bearer token or a request signature the page itself attached. */
function carriesOwnCredentials(headers: Headers): boolean {
  return /^bearer\s/i.test(headers.get('authorization') ?? '') || headers.has(SIGNATURE_HEADER);
}

function makeNonce(): string {
  let nonce = '';
  for (let i = 0; i < 16; i++) nonce += NONCE_ALPHABET[randomInt(NONCE_ALPHABET.length)];
  return nonce;
}

function pathOf(url: string | undefined): string {
  const path = url ?? '/';
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks);
}

function gatewayFault(reason: string): FaultBody {
  return { ...makeFault('error', 'gateway', { message: 'The connection failed.', reason }), status: 502 };
}

function sendFault(response: ServerResponse, fault: FaultBody): void {
  response.statusCode = fault.status;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.end(JSON.stringify(fault));
}
