/**
 * Compatibility suite (issue #15): the original system's published client, `@medable/mdctl-api`
 * with its `-secrets` signer, drives a real listening service. The client's code is untouched
 * except for the vendor word, rewritten in a temporary copy (see mdctl-client.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { loadRewrittenMdctl, type MdctlClient, type MdctlFault, type MdctlModule } from './mdctl-client.js';
import { LIVE_ADMIN_EMAIL, LIVE_ADMIN_PASSWORD, startLiveService, type LiveService } from './live-service.js';

let mdctl: MdctlModule;
let live: LiveService;
let signing: { key: string; secret: string };
let adminId: string;

interface Rec {
  _id: string;
  object: string;
  c_title?: string;
  c_status?: string;
  c_participants?: string[];
}
interface List<T> {
  object: 'list';
  data: T[];
  hasMore: boolean;
}

function sessionClient(apiKey = live.consoleAppKey): MdctlClient {
  return new mdctl.Client({
    environment: { endpoint: live.endpoint, env: live.org },
    credentials: { type: 'password', apiKey, username: LIVE_ADMIN_EMAIL, password: LIVE_ADMIN_PASSWORD },
  });
}

function signingClient(secret = signing.secret): MdctlClient {
  return new mdctl.Client({
    environment: { endpoint: live.endpoint, env: live.org },
    credentials: { type: 'signature', apiKey: signing.key, apiSecret: secret },
  });
}

async function login(client: MdctlClient): Promise<{ _id: string; email: string }> {
  return (await client.post('accounts/login', { email: LIVE_ADMIN_EMAIL, password: LIVE_ADMIN_PASSWORD })) as {
    _id: string;
    email: string;
  };
}

/** The fault a client call rejected with (the client turns fault bodies into its own Fault). */
async function faultOf(call: Promise<unknown>): Promise<MdctlFault> {
  try {
    await call;
  } catch (err) {
    return err as MdctlFault;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  const lines: string[] = [];
  mdctl = loadRewrittenMdctl((line) => lines.push(line));
  console.log(lines.join('\n'));
  live = await startLiveService();
  const org = live.svc.orgs.byCode(live.org)!;
  const made = await live.svc.apps.create(
    org.id,
    'signing',
    { label: 'mdctl signing', principalOverride: true },
    live.svc.nowIso(),
  );
  signing = { key: made.app.key, secret: made.secret! };
}, 60_000);

afterAll(async () => {
  await live?.close();
  mdctl?.cleanup();
});

describe('the rewritten client', () => {
  it('rewrote every vendor name it uses and nothing else', () => {
    const files = new Set(mdctl.rewritten.map((r) => r.file));
    expect([...files].sort()).toEqual([
      'mdctl-api/client.js',
      'mdctl-secrets/secrets/base.js',
      'mdctl-secrets/secrets/signature.js',
      'mdctl-secrets/secrets/token.js',
    ]);
  });
});

describe('session credentials', () => {
  it('logs in, keeps the session cookie and CSRF token, reads and creates', async () => {
    const client = sessionClient();
    const me = await login(client);
    expect(me).toMatchObject({ object: 'account', email: LIVE_ADMIN_EMAIL });
    adminId = me._id;
    expect(await client.get('accounts/me')).toMatchObject({ _id: adminId });

    const made = (await client.post('c_conversations', { c_title: 'From mdctl', c_status: 'open' })) as Rec;
    expect(made).toMatchObject({ object: 'c_conversation', c_title: 'From mdctl' });
    expect(await client.get(`c_conversations/${made._id}`)).toMatchObject({ _id: made._id, c_title: 'From mdctl' });
  });

  it('lists with where, sort and paths, and walks keyset pages ordered by _id', async () => {
    const client = sessionClient();
    await login(client);
    const titles = ['k1', 'k2', 'k3', 'k4', 'k5'];
    for (const c_title of titles) await client.post('c_conversations', { c_title, c_status: 'open' });
    const mine = { c_title: { $in: titles } };

    const sorted = (await client.get('c_conversations', {
      query: { where: JSON.stringify(mine), sort: JSON.stringify({ c_title: -1 }), paths: ['c_title'] },
    })) as List<Rec>;
    expect(sorted.data.map((r) => r.c_title)).toEqual([...titles].reverse());
    expect(sorted.data[0]).not.toHaveProperty('c_status');

    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const where = after ? { ...mine, _id: { $gt: after } } : mine;
      const res = (await client.get('c_conversations', {
        query: { where: JSON.stringify(where), sort: JSON.stringify({ _id: 1 }), limit: 2 },
      })) as List<Rec>;
      seen.push(...res.data.map((r) => r.c_title!));
      if (!res.hasMore) break;
      after = res.data[res.data.length - 1]!._id;
    }
    expect(seen).toEqual(titles);
  });

  it('deletes (the client sends Content-Type: application/json with no body)', async () => {
    const client = sessionClient();
    await login(client);
    const made = (await client.post('c_conversations', { c_title: 'to delete' })) as Rec;
    expect(await client.delete(`c_conversations/${made._id}`)).toBe(true);
    expect(await faultOf(client.get(`c_conversations/${made._id}`))).toMatchObject({ code: 'kNotFound' });
  });

  it('patches with a plain object (a merge set)', async () => {
    const client = sessionClient();
    await login(client);
    const made = (await client.post('c_conversations', { c_title: 'before', c_status: 'open' })) as Rec;
    expect(await client.patch(`c_conversations/${made._id}`, { c_title: 'after' })).toMatchObject({
      c_title: 'after',
      c_status: 'open',
    });
  });

  it('answers a call without a session with kNotLoggedIn, which the client switches on', async () => {
    const client = sessionClient();
    expect(await faultOf(client.get('accounts/me'))).toMatchObject({
      code: 'kNotLoggedIn',
      errCode: 'service.accessDenied.notLoggedIn',
    });
  });

  it('answers an expired session with kSessionExpired, and logging in again works', async () => {
    const client = sessionClient();
    await login(client);
    const app = live.svc.apps.byKey(live.consoleAppKey)!;
    live.clock.advance(app.settings.authDuration * 1000 + 1000);
    try {
      expect(await faultOf(client.get('accounts/me'))).toMatchObject({ code: 'kSessionExpired' });
      await login(client);
      expect(await client.get('accounts/me')).toMatchObject({ email: LIVE_ADMIN_EMAIL });
    } finally {
      // Signed requests compare the client's clock with the service's.
      live.clock.set(Date.now());
    }
  });

  it('PATCH with operation arrays applies set, push, pull and unset in order (§F)', async () => {
    const client = sessionClient();
    const me = await login(client);
    const made = (await client.post('c_conversations', { c_title: 'ops', c_status: 'open' })) as Rec;
    const patched = (await client.patch(`c_conversations/${made._id}`, [
      { op: 'set', path: 'c_title', value: 'ops done' },
      { op: 'push', path: 'c_participants', value: [me._id] },
      { op: 'unset', value: { c_status: 1 } },
    ])) as Rec;
    expect(patched).toMatchObject({ c_title: 'ops done', c_participants: [me._id] });
    expect(patched.c_status).toBeUndefined();
    const pulled = (await client.patch(`c_conversations/${made._id}`, [
      { op: 'pull', path: 'c_participants', value: me._id },
    ])) as Rec;
    expect(pulled.c_participants).toEqual([]);
    expect(
      await faultOf(client.patch(`c_conversations/${made._id}`, [{ op: 'rename', path: 'c_title' }])),
    ).toMatchObject({ errCode: 'service.unsupportedOperation.patchOp' });
  });

  it('PUT /<object>/<_id> sets only the given properties instead of replacing the record (§F)', async () => {
    const client = sessionClient();
    await login(client);
    const made = (await client.post('c_conversations', { c_title: 'put', c_status: 'open' })) as Rec;
    expect(await client.put(`c_conversations/${made._id}`, { c_title: 'put again' })).toMatchObject({
      c_title: 'put again',
      c_status: 'open',
    });
  });
});

describe('signature credentials', () => {
  it('signs requests the service verifies, and overrides the principal', async () => {
    const client = signingClient();
    const anon = await faultOf(client.get('accounts/me'));
    expect(anon.errCode).toMatch(/^service\.accessDenied/);
    expect(await client.get('accounts/me', { principal: adminId })).toMatchObject({ _id: adminId });
    expect(await client.get('accounts/me', { principal: LIVE_ADMIN_EMAIL })).toMatchObject({ _id: adminId });
    const list = (await client.get('c_conversations', {
      principal: adminId,
      query: { where: JSON.stringify({ c_title: 'From mdctl' }) },
    })) as List<Rec>;
    expect(list.data).toHaveLength(1);
  });

  it('answers a wrong secret with kInvalidRequestSignature', async () => {
    const client = signingClient('x'.repeat(64));
    expect(await faultOf(client.get('accounts/me', { principal: adminId }))).toMatchObject({
      code: 'kInvalidRequestSignature',
    });
  });
});

describe("driver API (§A) through the client's post", () => {
  it('runs cursor, count, readOne, insertOne, updateOne, deleteOne and an NDJSON cursor', async () => {
    const client = sessionClient();
    await login(client);
    // The client sends lean:true and keys that mean nothing here; both are fine.
    const id = (await client.post('c_conversation/db/insertOne', {
      object: 'c_conversation',
      operation: 'insertOne',
      document: { c_title: 'driver', c_status: 'open' },
      lean: true,
    })) as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    const where = { c_title: 'driver' };
    expect(await client.post('c_conversations/db/count', { where })).toBe(1);
    expect(await client.post('c_conversations/db/cursor', { where, paths: ['c_title'] })).toMatchObject({
      object: 'list',
      data: [{ _id: id, c_title: 'driver' }],
    });
    expect(await client.post('c_conversations/db/readOne', { where: `${id}/c_status` })).toBe('open');
    expect(
      await client.post('c_conversations/db/updateOne', { match: id, update: { $set: { c_status: 'closed' } } }),
    ).toMatchObject({ _id: id, c_status: 'closed' });
    const streamed = (await client.post(
      'c_conversations/db/cursor',
      { where, limit: false },
      { json: false, requestOptions: { headers: { Accept: 'application/x-ndjson' } } },
    )) as List<Rec>;
    expect(streamed.data.map((r) => r._id)).toEqual([id]);
    expect(await client.post('c_conversations/db/deleteOne', { match: id })).toBe(true);
  });
});

describe("aggregation through the client's post (what mdctl's driver aggregate() sends)", () => {
  it('a cursor with a pipeline answers grouped results; an NDJSON one streams them', async () => {
    const client = sessionClient();
    await login(client);
    for (const c_status of ['open', 'open', 'closed']) {
      await client.post('c_conversation/db/insertOne', { document: { c_title: 'agg', c_status } });
    }
    const pipeline = [
      { $match: { c_title: 'agg' } },
      { $group: { _id: 'c_status', n: { $count: '_id' } } },
      { $sort: { _id: 1 } },
    ];
    expect(await client.post('c_conversations/db/cursor', { pipeline })).toMatchObject({
      object: 'list',
      data: [
        { _id: 'closed', n: 1 },
        { _id: 'open', n: 2 },
      ],
      hasMore: false,
    });
    const streamed = (await client.post(
      'c_conversations/db/cursor',
      { pipeline, limit: false },
      { json: false, requestOptions: { headers: { Accept: 'application/x-ndjson' } } },
    )) as List<{ _id: string; n: number }>;
    expect(streamed.data.map((d) => [d._id, d.n])).toEqual([
      ['closed', 1],
      ['open', 2],
    ]);
    await client.post('c_conversations/db/deleteMany', { match: { c_title: 'agg' } });
  });
});

describe('token credentials', () => {
  /** Minted through the REST route for now (the runner's token functions belong to the scripts work). */
  async function mintWithEmail(app = live.consoleAppKey): Promise<string> {
    const client = sessionClient();
    const me = await login(client);
    const answer = await client.post(`accounts/${me._id}/tokens`, {
      app,
      scope: ['*'],
      includeEmail: true,
    });
    return typeof answer === 'string' ? answer : (answer as { data: string }).data;
  }

  it('includeEmail gives the service/eml claim the client needs; Bearer + Service-Client-Key = iss works', async () => {
    const token = await mintWithEmail();
    const client = new mdctl.Client({
      environment: { endpoint: live.endpoint, env: live.org },
      credentials: { type: 'token', token },
    });
    expect(await client.get('accounts/me')).toMatchObject({ email: LIVE_ADMIN_EMAIL });
  });

  it('JWKS: jose verifies a minted token with audience = the base URL with its port', async () => {
    const org = live.svc.orgs.byCode(live.org)!;
    const made = await live.svc.apps.create(org.id, 'session', { label: 'jwks', expose: true }, live.svc.nowIso());
    const token = await mintWithEmail(made.app.key);
    const base = `${live.endpoint}/${live.org}/v2`;
    const jwks = (await (await fetch(`${base}/auth/certs/jwk`)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      audience: base,
      issuer: made.app.key,
    });
    expect(payload['service/eml']).toBe(LIVE_ADMIN_EMAIL);
  });
});
