import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import FindMyWay from 'find-my-way';
import type { RouteOptions } from 'fastify';
import type { Clock } from '../clock.js';
import type { Service } from '../service.js';
import type { ErrorLogSink } from '../http/server-error-log.js';
import type { OrgRequest, RequestContext } from '../http/context.js';
import { enterOrg } from '../http/enter-org.js';
import { orgPolicies } from '../policies/policy-table.js';
import { faultAnswering, hostIsLoopback, MAX_URL_LENGTH } from '../http/faults-plugin.js';
import { hasRepeatedHost } from '../http/single-host.js';
import { listRecords, readInstance } from './objects.js';
import { ResponseHeaders } from './direct-answer.js';

/** The routes whose requests are answered directly: objects.ts's `GET /:collection/:id` and `GET /:collection`. */
export const DIRECT_ROUTE = '/:org/v2/:collection/:id';
export const DIRECT_LIST_ROUTE = '/:org/v2/:collection';

/** Longer paths go through Fastify (which refuses what is too long); ids and names are short. */
const MAX_DIRECT_PATH = 1024;
/** Routing decisions kept by prefix (`/<org>/v2/<collection>/`); past this many the memo starts over. */
const MAX_REMEMBERED_PREFIXES = 1000;
/** A last segment shaped like an `_id` in either case (objects/ids.ts lower-cases it later). */
const ID_SEGMENT = /^[0-9a-fA-F]{24}$/;

type Kind = 'instance' | 'list';
/** What the router decided for a target: a direct route's parameters and parsed query string. */
interface Target {
  kind: Kind;
  org: string;
  collection: string;
  id: string;
  query: Record<string, unknown> | undefined;
}

export interface DirectReadOptions {
  /** Options of Fastify's router, so the mirror routes exactly as it does. */
  routerOptions: { ignoreDuplicateSlashes: boolean; maxParamLength: number };
  errorLog: ErrorLogSink;
  /** The cookie parser Fastify's requests are given (`server.parseCookie`, @fastify/cookie). */
  parseCookie: (header: string) => { [name: string]: string | undefined };
}

/**
 * `GET /<org>/v2/<collection>/<_id>` and `GET /<org>/v2/<collection>` (with or without a query
 * string), answered straight from node:http.
 *
 * Reading records is the commonest request: Fastify's per-request machinery (request and reply
 * objects, the hook chain, the cookie plugin's hooks, the send path) cost about a sixth of a
 * one-record read and about 30 µs of a 100-record page (docs/performance.md, "Where a request's
 * time goes"; docs/SPEED.md). This path runs the *same steps* as the Fastify routes — `enterOrg`
 * (org, authentication, app policy), `readInstance` or `listRecords`, and `faultAnswering` — and
 * writes the answer itself. Anything it is not sure of goes to Fastify untouched: another method,
 * percent-encoding in the path, a URL over the guard's bound, a refused Host, a body, a server that
 * is closing, an org with request policies, and every target that Fastify's router would send to
 * another route. That decision, and the query string's parse, are find-my-way's, fed every GET
 * route Fastify registers, with Fastify's options. `direct-reads.test.ts` compares both paths'
 * answers.
 */
export class DirectReads {
  private readonly router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  private stopped = false;
  /**
   * The router's decision for each prefix `/<org>/v2/<collection>/` of a target ending in an
   * `_id`-shaped segment, without a query string: the org and collection it routed to the instance
   * route, or null. Finding a route walks the whole tree with backtracking (2.5–4.5 µs of a
   * one-record read, the largest step of the direct path:
   * docs/SPEED.md#q5-the-cost-of-one-authenticated-request). While every GET route is `idBlind`,
   * the router's answer for such a target does not depend on which `_id` it ends in, so the first
   * answer for a prefix is the answer for all of them.
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
    const direct: Kind | undefined =
      route.url === DIRECT_ROUTE ? 'instance' : route.url === DIRECT_LIST_ROUTE ? 'list' : undefined;
    this.router.on('GET', route.url, noop, { direct });
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
    // An org with request policies: Fastify's path applies them (policy-gate.ts) before any read.
    const known = this.svc.orgs.byCode(target.org);
    if (known && orgPolicies(this.svc, known).length > 0) return false;
    this.answer(req, res, target);
    return true;
  }

  /** The direct route a plain target goes to, or undefined when the router sends it elsewhere. */
  route(url: string): Target | undefined {
    if (url.includes('?')) return this.find(url);
    const slash = url.lastIndexOf('/');
    const id = url.slice(slash + 1);
    if (!this.idBlind || !ID_SEGMENT.test(id)) return this.find(url);
    const prefix = url.slice(0, slash + 1);
    let decision = this.decisions.get(prefix);
    if (decision === undefined) {
      const found = this.find(url);
      decision = found?.kind === 'instance' ? { org: found.org, collection: found.collection } : null;
      if (this.decisions.size >= MAX_REMEMBERED_PREFIXES) this.decisions.clear();
      this.decisions.set(prefix, decision);
    }
    return decision === null ? undefined : { kind: 'instance', ...decision, id, query: undefined };
  }

  private find(url: string): Target | undefined {
    const found = this.router.find('GET', url);
    const kind = (found?.store as { direct?: Kind } | undefined)?.direct;
    if (found === null || kind === undefined) return undefined;
    const { org = '', collection = '', id = '' } = found.params;
    // The parse Fastify gives its handlers as `request.query` (the router's querystringParser).
    const query = url.includes('?') ? (found.searchParams as Record<string, unknown>) : undefined;
    return { kind, org, collection, id, query };
  }

  private answer(req: IncomingMessage, res: ServerResponse, target: Target): void {
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
      // Fastify's handlers get `{}` for a target without a query string.
      const query = target.query ?? {};
      const body =
        target.kind === 'instance'
          ? readInstance(this.svc, request, target.collection, target.id, query)
          : listRecords(this.svc, request, target.collection, query);
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
      const entered = enterOrg(this.svc, target.org, request, out);
      if (entered instanceof Promise) entered.then(read).catch(fail);
      else read();
    } catch (error) {
      fail(error);
    }
  }
}

/**
 * A target with nothing in its path that Fastify would rewrite, decode or split: no escapes, no
 * empty segment, no trailing slash. The query string is the router's to parse, as Fastify's is.
 */
function plainTarget(url: string): boolean {
  // Over the guard's bound, Fastify's request guard answers (414).
  if (url.length > MAX_URL_LENGTH) return false;
  const q = url.indexOf('?');
  const end = q === -1 ? url.length : q;
  if (end > MAX_DIRECT_PATH || url.charCodeAt(end - 1) === 0x2f || url.includes('#')) return false;
  const path = q === -1 ? url : url.slice(0, q);
  return !path.includes('%') && !path.includes('//') && !path.includes(';');
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
