import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import FindMyWay from 'find-my-way';
import type { RouteOptions } from 'fastify';
import type { Clock } from '../clock.js';
import type { Service } from '../service.js';
import type { ErrorLogSink } from '../http/server-error-log.js';
import type { HeaderSink, OrgRequest, RequestContext } from '../http/context.js';
import { enterOrg } from '../http/enter-org.js';
import { orgPolicies } from '../policies/policy-table.js';
import { faultAnswering, GUARD_HEADERS, hostIsLoopback, SERVER_TIME_HEADER } from '../http/faults-plugin.js';
import { hasRepeatedHost } from '../http/single-host.js';
import { readInstance } from './objects.js';

/** The route whose requests are answered directly: objects.ts's `GET /:collection/:id`. */
export const DIRECT_ROUTE = '/:org/v2/:collection/:id';

/** Longer targets go through Fastify (which refuses what is too long); ids and names are short. */
const MAX_DIRECT_URL = 1024;
/** Routing decisions kept by prefix (`/<org>/v2/<collection>/`); past this many the memo starts over. */
const MAX_REMEMBERED_PREFIXES = 1000;
/** A last segment shaped like an `_id` in either case (objects/ids.ts lower-cases it later). */
const ID_SEGMENT = /^[0-9a-fA-F]{24}$/;

const JSON_TYPE = 'application/json; charset=utf-8';
const SERVER_TIME_HEADER_NAME = SERVER_TIME_HEADER.toLowerCase();

export interface DirectReadOptions {
  /** Options of Fastify's router, so the mirror routes exactly as it does. */
  routerOptions: { ignoreDuplicateSlashes: boolean; maxParamLength: number };
  errorLog: ErrorLogSink;
  /** The cookie parser Fastify's requests are given (`server.parseCookie`, @fastify/cookie). */
  parseCookie: (header: string) => { [name: string]: string | undefined };
}

/**
 * `GET /<org>/v2/<collection>/<_id>` without a query string, answered straight from node:http.
 *
 * Reading one record is the commonest request and the cheapest work: Fastify's per-request
 * machinery (request and reply objects, the hook chain, the cookie plugin's hooks, the send path)
 * cost about a sixth of it (docs/speed-history.md, "one-record reads are answered without
 * Fastify"). This path runs the *same steps* as the Fastify route — `enterOrg` (org,
 * authentication, app policy), `readInstance` and `faultAnswering` — and writes the answer itself.
 * Anything it is not sure of goes to Fastify untouched: another method, a query string,
 * percent-encoding, a refused Host, a body, a server that is closing, and every target that
 * Fastify's router would send to another route. That last decision is find-my-way's, fed every GET
 * route Fastify registers, with Fastify's options.
 * `direct-instance-read.test.ts` compares both paths' answers.
 */
export class DirectInstanceReads {
  private readonly router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  private stopped = false;
  /**
   * The router's decision for each prefix `/<org>/v2/<collection>/` of a target ending in an
   * `_id`-shaped segment: the org and collection it routed to the direct route, or null. Finding a
   * route walks the whole tree with backtracking (2.5–4.5 µs of a one-record read, the largest
   * step of the direct path: docs/SPEED.md#q5-the-cost-of-one-authenticated-request). While every
   * GET route is `idBlind`, the router's answer for such a target does not depend on which `_id`
   * it ends in, so the first answer for a prefix is the answer for all of them.
   */
  private readonly decisions = new Map<string, { org: string; collection: string } | null>();
  private idBlind = true;

  constructor(
    private readonly svc: Service,
    private readonly clock: Clock,
    private readonly opts: DirectReadOptions,
  ) {
    this.router = FindMyWay(opts.routerOptions);
  }

  /** Mirrors one route Fastify registers (its `onRoute` hook), so targets route the same. */
  addRoute(route: RouteOptions): void {
    const methods = [route.method].flat();
    if (!methods.includes('GET')) return;
    this.router.on('GET', route.url, noop, { direct: route.url === DIRECT_ROUTE });
    this.decisions.clear();
    if (!idBlind(route.url)) this.idBlind = false;
  }

  /** From Fastify's `preClose`: a closing server's answers (503) are Fastify's. */
  stop(): void {
    this.stopped = true;
  }

  /** Answers `req` and returns true, or returns false having touched nothing. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (req.method !== 'GET' || this.stopped || !plainTarget(url)) return false;
    const target = this.route(url);
    if (target === undefined) return false;
    const { headers } = req;
    if (!hostIsLoopback(headers.host) || hasRepeatedHost(req.rawHeaders) || hasBody(req)) return false;
    const { org, collection, id } = target;
    // An org with request policies: Fastify's path applies them (policy-gate.ts) before any read.
    const known = this.svc.orgs.byCode(org);
    if (known && orgPolicies(this.svc, known).length > 0) return false;
    this.answer(req, res, org, collection, id);
    return true;
  }

  /** The direct route's parameters of a plain target, or undefined when the router sends it elsewhere. */
  route(url: string): { org: string; collection: string; id: string } | undefined {
    const slash = url.lastIndexOf('/');
    const id = url.slice(slash + 1);
    if (!this.idBlind || !ID_SEGMENT.test(id)) return this.find(url);
    const prefix = url.slice(0, slash + 1);
    let decision = this.decisions.get(prefix);
    if (decision === undefined) {
      decision = this.find(url) ?? null;
      if (this.decisions.size >= MAX_REMEMBERED_PREFIXES) this.decisions.clear();
      this.decisions.set(prefix, decision);
    }
    return decision === null ? undefined : { org: decision.org, collection: decision.collection, id };
  }

  private find(url: string): { org: string; collection: string; id: string } | undefined {
    const found = this.router.find('GET', url);
    if (found === null || (found.store as { direct: boolean }).direct !== true) return undefined;
    const { org = '', collection = '', id = '' } = found.params;
    return { org, collection, id };
  }

  private answer(req: IncomingMessage, res: ServerResponse, code: string, collection: string, id: string): void {
    const { headers } = req;
    const out = new ResponseHeaders(this.clock);
    const request: OrgRequest = {
      method: 'GET',
      url: req.url ?? '',
      headers,
      cookies: headers.cookie === undefined ? {} : this.opts.parseCookie(headers.cookie),
      ip: req.socket.remoteAddress ?? '',
      protocol: (req.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http',
      host: headers.host ?? '',
      ctx: undefined as unknown as RequestContext,
    };
    const read = () => {
      const body = readInstance(this.svc, request, collection, id, {});
      out.send(res, 200, typeof body === 'string' ? body : JSON.stringify(body));
    };
    const fail = (error: unknown) => {
      const fault = faultAnswering(error, request, this.clock, this.opts.errorLog);
      // An answer already on its way cannot be replaced by a fault: the connection is ended instead.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      out.send(res, fault.status, JSON.stringify(fault));
    };
    try {
      const entered = enterOrg(this.svc, code, request, out);
      if (entered instanceof Promise) entered.then(read).catch(fail);
      else read();
    } catch (error) {
      fail(error);
    }
  }
}

/** The headers of a direct answer, in the order Fastify's would come: the guard's, the steps', the body's. */
class ResponseHeaders implements HeaderSink {
  /** Names and values alternating, as `writeHead` takes them: no object with per-request keys. */
  private readonly fields: string[];

  constructor(clock: Clock) {
    this.fields = [SERVER_TIME_HEADER_NAME, String(clock.now())];
    for (const [name, value] of GUARD_HEADERS) this.fields.push(name, value);
  }

  header(name: string, value: string): void {
    // Fastify's reply keeps header names in lower case, and a repeated one replaces the earlier.
    const key = name.toLowerCase();
    for (let i = 0; i < this.fields.length; i += 2) {
      if (this.fields[i] === key) {
        this.fields[i + 1] = value;
        return;
      }
    }
    this.fields.push(key, value);
  }

  send(res: ServerResponse, status: number, body: string): void {
    const length = String(Buffer.byteLength(body));
    // A copy: a fault answered after a failed send starts from the same headers.
    res.writeHead(status, [...this.fields, 'content-type', JSON_TYPE, 'content-length', length]);
    res.end(body);
  }
}

/** A target with nothing Fastify would rewrite, decode or split: no query, no escapes, no empty segment. */
function plainTarget(url: string): boolean {
  return (
    url.length <= MAX_DIRECT_URL &&
    url.charCodeAt(url.length - 1) !== 0x2f &&
    !url.includes('?') &&
    !url.includes('%') &&
    !url.includes('//') &&
    !url.includes('#') &&
    !url.includes(';')
  );
}

/**
 * Whether a route's pattern routes every `_id`-shaped segment alike: each segment is a whole
 * parameter (`:name`), a wildcard, or static text that no `_id` spells. Regular expressions, several
 * parameters or text and a parameter in one segment, optional parameters and escaped colons could
 * tell two `_id`s apart, so one such route turns the prefix memo off.
 */
export function idBlind(pattern: string): boolean {
  return pattern
    .split('/')
    .every((segment) =>
      segment === '*' || /^:\w+$/.test(segment) ? true : !/[:*(]/.test(segment) && !ID_SEGMENT.test(segment),
    );
}

/** A GET with a body goes to Fastify, which decides what such a body means. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function noop(): void {}
