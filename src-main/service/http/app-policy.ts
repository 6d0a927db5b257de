/**
 * The app settings that decide whether a request may go on at all (issue #13 item 4: a setting the
 * console shows is a setting the service applies): `readOnly`, `ipAllow` / `ipDeny` and
 * `corsOrigins`. CIDR matching is ipaddr.js's (the library proxy-addr already relies on).
 */
import ipaddr from 'ipaddr.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { App } from '../apps/apps.js';
import type { HeaderSink, OrgRequest } from './context.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * POSTs a read-only app still answers, matched on the whole path (never the query, which is the
 * caller's to write): session bookkeeping (logging in and out does not change data) and the
 * driver's reads, the way the original's clients read (docs/driver.md). Any other
 * spelling of these paths is refused, which is the safe side: the router would not reach a read.
 */
const READS_BY_POST = /^\/[^/?]+\/v2\/(accounts\/(login|me\/logout)|[^/?]+\/db\/(cursor|count|readOne))\/?$/;

/** Refuses a request its app's settings forbid: a write through a read-only app, or a barred address. */
export function enforceAppPolicy(request: Pick<OrgRequest, 'ip' | 'method' | 'url'>, app: App): void {
  const { readOnly, ipAllow, ipDeny } = app.settings;
  if (ipAllow.length > 0 || ipDeny.length > 0) {
    const address = parseAddress(request.ip);
    const barred =
      address === undefined ||
      ipDeny.some((range) => inRange(address, range)) ||
      (ipAllow.length > 0 && !ipAllow.some((range) => inRange(address, range)));
    if (barred)
      throw fault('accessDenied', 'ipAddress', {
        reason: 'The application does not accept requests from this address.',
      });
  }
  if (
    readOnly &&
    WRITES.has(request.method) &&
    !(request.method === 'POST' && READS_BY_POST.test(pathOf(request.url)))
  ) {
    throw fault('accessDenied', 'appReadOnly', { reason: 'The application is read-only.' });
  }
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 one.
  return ipaddr.isValid(ip) ? ipaddr.process(ip) : undefined;
}

function inRange(address: ipaddr.IPv4 | ipaddr.IPv6, entry: string): boolean {
  const [range, bits] = entry.includes('/')
    ? ipaddr.parseCIDR(entry)
    : ([ipaddr.process(entry), ipaddr.process(entry).kind() === 'ipv4' ? 32 : 128] as const);
  return address.kind() === range.kind() && address.match(range, bits);
}

/**
 * CORS for the org's API: a preflight (OPTIONS) is answered for an origin some enabled app of the
 * org lists (it names no app key yet), a real request gets `Access-Control-Allow-Origin` only
 * when its own app lists the origin; credentials only for session apps. A cross-origin request from
 * an origin its app does not list is refused; same-origin requests (the console) are not CORS.
 */
export function preflight(svc: Service, org: Org, request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  const apps = origin
    ? svc.apps.list(org.id).filter((a) => a.settings.enabled && a.settings.corsOrigins.includes(origin))
    : [];
  if (!origin || apps.length === 0) {
    throw fault('accessDenied', 'cors', { reason: 'No application of this org accepts requests from this origin.' });
  }
  reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
  const asked = request.headers['access-control-request-headers'];
  if (typeof asked === 'string') reply.header('access-control-allow-headers', asked);
  if (apps.some((a) => a.kind === 'session')) reply.header('access-control-allow-credentials', 'true');
  reply.header('access-control-max-age', '600');
}

/** Checks and answers CORS for a real request of `app`. */
export function applyCors(
  request: Pick<OrgRequest, 'headers' | 'protocol' | 'host'>,
  reply: HeaderSink,
  app: App | undefined,
): void {
  const origin = request.headers.origin;
  if (!origin || origin === `${request.protocol}://${request.host}`) return;
  if (!app || !app.settings.corsOrigins.includes(origin)) {
    throw fault('accessDenied', 'cors', { reason: 'The application does not accept requests from this origin.' });
  }
  reply.header('access-control-allow-origin', origin);
  reply.header('vary', 'Origin');
  if (app.kind === 'session') reply.header('access-control-allow-credentials', 'true');
}
