/**
 * The direct read's routing memo (direct-reads.ts `route`): the router's decision is kept
 * per `/<org>/v2/<collection>/` prefix only while no GET route could tell two `_id`s apart, and
 * every kept decision is the one find-my-way gives for the very target.
 */
import FindMyWay from 'find-my-way';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { DIRECT_LIST_ROUTE, DIRECT_ROUTE, DirectReads, idBlind } from './direct-reads.js';
import type { Service } from '../service.js';
import { ManualClock } from '../clock.js';
import { createUser } from '../testing/token-testing.js';

const ROUTER_OPTIONS = { ignoreDuplicateSlashes: true, maxParamLength: 200 };
const ID_A = '0123456789abcdef01234567';
const ID_B = '89abcdef0123456789ABCDEF';
const DIGITS = '012345678901234567890123';

function directReads(urls: string[]): DirectReads {
  const reads = new DirectReads({} as Service, new ManualClock(0), {
    routerOptions: ROUTER_OPTIONS,
    errorLog: () => {},
    parseCookie: () => ({}),
  });
  for (const url of urls) reads.addRoute({ method: 'GET', url } as RouteOptions);
  return reads;
}

/** What the router alone decides for a target: the direct route's parameters and query, or undefined. */
function routerDecision(urls: string[], target: string) {
  const router = FindMyWay(ROUTER_OPTIONS);
  const kindOf = (url: string) => (url === DIRECT_ROUTE ? 'instance' : url === DIRECT_LIST_ROUTE ? 'list' : undefined);
  for (const url of urls) router.on('GET', url, () => {}, { kind: kindOf(url) });
  const found = router.find('GET', target);
  const kind = (found?.store as { kind?: string } | undefined)?.kind;
  if (found === null || kind === undefined) return undefined;
  const { org = '', collection = '', id = '' } = found.params;
  return { kind, org, collection, id, query: target.includes('?') ? { ...found.searchParams } : undefined };
}

const SERVICE_LIKE = [
  DIRECT_ROUTE,
  DIRECT_LIST_ROUTE,
  '/:org/v2/accounts/me',
  '/:org/v2/accounts/:id/tokens',
  '/:org/v2/views/:name',
  '/console/*',
  '/_service/info',
];

describe('the prefix memo of the direct read', () => {
  it('tells route patterns that route every _id alike from those that may not', () => {
    for (const url of SERVICE_LIKE) expect(idBlind(url)).toBe(true);
    for (const url of [
      '/:org/v2/accounts/:id(^[0-9]+$)',
      '/:org/v2/files/:name.:ext',
      '/:org/v2/files/:from-:to',
      '/:org/v2/things/:id?',
      '/:org/v2/accounts/0123456789abcdef01234567',
      '/:org/v2/accounts/x::y',
    ]) {
      expect(idBlind(url)).toBe(false);
    }
  });

  it("gives the router's own decision for every target, first sight or remembered", () => {
    const reads = directReads(SERVICE_LIKE);
    const targets = ['accounts', 'views', 'c_things', 'accounts/x/y'].flatMap((c) =>
      [ID_A, ID_B, ID_A, 'me', DIGITS].map((id) => `/demo/v2/${c}/${id}`),
    );
    const lists = ['accounts', 'views', 'c_things'].flatMap((c) => [
      `/demo/v2/${c}`,
      `/demo/v2/${c}?limit=1&paths[]=a`,
    ]);
    const queried = [`/demo/v2/accounts/${ID_A}?paths[]=email`, '/demo/v2/accounts/me?x=1', '/_service/info?x'];
    for (const target of [...targets, ...lists, ...queried]) {
      const decided = reads.route(target);
      expect(decided && { ...decided, query: decided.query && { ...decided.query } }).toEqual(
        routerDecision(SERVICE_LIKE, target),
      );
    }
    expect(reads.route(`/demo/v2/accounts/${ID_B}`)).toEqual({
      kind: 'instance',
      org: 'demo',
      collection: 'accounts',
      id: ID_B,
      query: undefined,
    });
    expect(reads.route('/demo/v2/accounts?limit=1')).toMatchObject({ kind: 'list', collection: 'accounts' });
    expect({ ...reads.route(`/demo/v2/accounts/${ID_A}?paths[]=a&paths[]=b`)!.query }).toEqual({
      'paths[]': ['a', 'b'],
    });
    expect(reads.route('/demo/v2/accounts/me?x=1')).toBeUndefined();
    expect(reads.route(`/demo/v2/views/${ID_A}`)).toBeUndefined();
  });

  it('asks the router every time once a route could tell two _ids apart', () => {
    const urls = [...SERVICE_LIKE, '/:org/v2/accounts/:id(^[0-9]+$)'];
    const reads = directReads(urls);
    // Remembered from ID_A, the decision would wrongly send the all-digit _id to the direct route.
    for (const id of [ID_A, DIGITS, ID_B, DIGITS]) {
      const target = `/demo/v2/accounts/${id}`;
      expect(reads.route(target)).toEqual(routerDecision(urls, target));
    }
    expect(reads.route(`/demo/v2/accounts/${DIGITS}`)).toBeUndefined();
  });

  it('forgets what it remembered when a route is added', () => {
    const reads = directReads(SERVICE_LIKE);
    expect(reads.route(`/demo/v2/c_things/${ID_A}`)).toBeDefined();
    reads.addRoute({ method: 'GET', url: '/:org/v2/c_things/:thing' } as RouteOptions);
    expect(reads.route(`/demo/v2/c_things/${ID_B}`)).toBeUndefined();
  });
});

describe("the service's own routes", () => {
  let h: Harness;
  let admin: TestClient;
  beforeAll(async () => {
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
  });
  afterAll(async () => h.close());

  it('route every _id alike, so reads under one prefix ask the router once', async () => {
    const ids = [(await admin.get('/accounts/me')).json()._id as string];
    for (const email of ['memo.one@example.test', 'memo.two@example.test']) ids.push(await createUser(admin, email));
    const route = vi.spyOn(DirectReads.prototype, 'route');
    const find = vi.spyOn(FindMyWay.prototype as unknown as { find: (method: string, url: string) => unknown }, 'find');
    try {
      for (const id of ids) expect((await admin.get(`/accounts/${id}`)).json()._id).toBe(id);
      expect(route).toHaveBeenCalledTimes(3);
      expect(find.mock.calls.filter(([, url]) => String(url).startsWith('/demo/v2/accounts/'))).toHaveLength(1);
    } finally {
      route.mockRestore();
      find.mockRestore();
    }
  });
});
