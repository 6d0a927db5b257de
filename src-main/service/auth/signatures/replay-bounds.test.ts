/**
 * The replay store's bounds across apps and orgs, over HTTP (issue 38 low 7): an org's apps share
 * one bound, the service another; a full share refuses new signed requests with a fault and
 * still refuses every replay; another org keeps its own share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createHarness, injectAsClient, type Harness } from '../../testing/harness.js';
import { bootstrapOrg } from '../../bootstrap.js';
import { signRequest } from './signature.js';

const WINDOW = 15 * 60_000;
const LIMITS = { perApp: 4, perOrg: 6, total: 9 };

let h: Harness;
interface SigningApp {
  org: string;
  key: string;
  secret: string;
}
const apps: Record<'a' | 'b' | 'c' | 'd', SigningApp> = {} as never;

beforeAll(async () => {
  h = await createHarness({ replayLimits: LIMITS });
  const other = await bootstrapOrg(h.svc, {
    code: 'other',
    adminEmail: 'x@example.test',
    adminPassword: 'pw pw pw pw pw',
  });
  const make = async (orgId: number, org: string, label: string) => {
    const { app, secret } = await h.svc.apps.create(orgId, 'signing', { label }, h.svc.nowIso());
    return { org, key: app.key, secret: secret! };
  };
  const demo = h.svc.orgs.byCode('demo')!;
  apps.a = await make(demo.id, 'demo', 'a');
  apps.b = await make(demo.id, 'demo', 'b');
  apps.c = await make(other.org.id, 'other', 'c');
  apps.d = await make(other.org.id, 'other', 'd');
}, 60_000);
afterAll(async () => h.close());

let counter = 0;
interface Sent {
  res: LightMyRequestResponse;
  again: () => Promise<LightMyRequestResponse>;
}

/** One signed GET; `again` sends exactly the same request (a replay). */
async function send(app: SigningApp): Promise<Sent> {
  const url = `/${app.org}/v2/accounts/status`;
  const ts = h.clock.now();
  const nonce = `bound${String(++counter).padStart(11, '0')}`;
  const signature = signRequest({ apiKey: app.key, apiSecret: app.secret, url, method: 'GET', timestampMs: ts });
  const request = () =>
    injectAsClient(h.server, {
      method: 'GET',
      url,
      headers: {
        host: '127.0.0.1',
        'service-client-key': app.key,
        'service-client-signature': signature,
        'service-client-timestamp': String(ts),
        'service-client-nonce': nonce,
      },
    });
  return { res: await request(), again: request };
}

function expectThrottled(res: LightMyRequestResponse, who: RegExp) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.throttled.policy', code: 'kThrottled' });
  expect(res.json().reason).toMatch(who);
}

describe('replay nonces bounded across apps (issue 38 low 7)', () => {
  it("bounds an org's apps together and the service in all, and still refuses every replay", async () => {
    const first = await send(apps.a);
    expect(first.res.statusCode).toBe(200);
    for (let i = 0; i < LIMITS.perApp - 1; i++) expect((await send(apps.a)).res.statusCode).toBe(200);
    expectThrottled((await send(apps.a)).res, /^This application has/);
    // Another app of the same org: room up to the org's share, then refused.
    for (let i = 0; i < LIMITS.perOrg - LIMITS.perApp; i++) expect((await send(apps.b)).res.statusCode).toBe(200);
    expectThrottled((await send(apps.b)).res, /^This org's applications have/);
    // Another org is not held to the first org's share...
    for (let i = 0; i < LIMITS.total - LIMITS.perOrg; i++) expect((await send(apps.c)).res.statusCode).toBe(200);
    // ...but the service's bound holds for everyone.
    expectThrottled((await send(apps.d)).res, /^The service has/);
    // Full or not, a replay is a replay: refused, never accepted.
    const replay = await first.again();
    expect(replay.statusCode, replay.body).toBe(403);
    expect(replay.json()).toMatchObject({ errCode: 'service.accessDenied.invalidRequestSignature' });
    expect(h.svc.replays.liveRows()).toBe(LIMITS.total);

    // Once the remembered nonces are past their window, everyone is served again.
    h.clock.advance(WINDOW + 1);
    for (const app of [apps.d, apps.b, apps.a]) expect((await send(app)).res.statusCode).toBe(200);
    expect(h.svc.replays.liveRows()).toBeLessThanOrEqual(LIMITS.total);
  });
});
