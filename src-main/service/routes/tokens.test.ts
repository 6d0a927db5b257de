/** Minting, listing and revoking tokens: POST/GET/DELETE /accounts/:id/tokens (docs/tokens.md). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import type { App } from '../apps/apps.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';
import { currentAppKey } from '../auth/tokens/token-keys.js';

let h: Harness;
let admin: TestClient;
let app: App;
let aliceId: string;
const T = Date.parse('2026-01-15T12:00:00.000Z') / 1000;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  app = h.svc.apps.byKey(h.consoleAppKey)!;
  aliceId = await createUser(admin, 'alice@example.test');
});
afterEach(async () => h.close());

const create = (body: Record<string, unknown>, id = aliceId, client: TestClient | BearerClient = admin) =>
  client.post(`/accounts/${id}/tokens`, body);
const list = (id = aliceId) => admin.get(`/accounts/${id}/tokens?app=${app.key}`);

describe('POST /accounts/:id/tokens', () => {
  it('mints an ephemeral token with every claim of the spec and the key header', async () => {
    const jwt = await mint(admin, aliceId, {
      app: app.key,
      scope: ['object.read.account.*.name'],
      roles: [BUILTIN_ROLES.support],
      grant: 5,
      skipAcl: true,
      bypassCreateAcl: true,
      expiresIn: 300,
    });
    expect(decodeProtectedHeader(jwt)).toEqual({
      alg: 'PS512',
      kid: currentAppKey(h.svc.apps, app.id)!.kid,
      typ: 'JWT',
    });
    expect(decodeJwt(jwt)).toEqual({
      iss: app.key,
      sub: aliceId,
      aud: 'http://127.0.0.1:7788/demo/v2',
      iat: T,
      exp: T + 300,
      'service/scp': ['object.read.account.*.name'],
      'service/rls': [BUILTIN_ROLES.support],
      'service/skp': true,
      'service/skc': true,
      'service/gnt': 5,
    });
    expect(h.svc.db.prepare('SELECT count(*) AS n FROM tokens').get()).toEqual({ n: 0 });
  });

  it('computes nbf and exp: activatesIn, validAt (seconds or ISO), exp from nbf', async () => {
    const a = decodeJwt(await mint(admin, aliceId, { app: app.key, scope: [], activatesIn: 30, expiresIn: 60 }));
    expect(a).toMatchObject({ iat: T, nbf: T + 30, exp: T + 90 });
    const b = decodeJwt(await mint(admin, aliceId, { app: app.key, scope: [], validAt: T + 3600 }));
    expect(b).toMatchObject({ nbf: T + 3600, exp: T + 3600 + app.settings.authDuration });
    const c = decodeJwt(await mint(admin, aliceId, { app: app.key, scope: [], validAt: '2026-01-15T13:00:00Z' }));
    expect(c.nbf).toBe(T + 3600);
  });

  it('gives permanent tokens no exp and a jti, limited-use tokens a jti and service/cnt, and stores both', async () => {
    const permanent = decodeJwt(await mint(admin, aliceId, { app: app.key, scope: ['*'], permanent: true }));
    expect(permanent.exp).toBeUndefined();
    expect(permanent.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const limited = decodeJwt(await mint(admin, aliceId, { app: app.key, scope: ['*'], maxUses: 4 }));
    expect(limited).toMatchObject({ 'service/cnt': 4, exp: T + app.settings.authDuration });
    expect(limited.jti).toBeDefined();
    const items = (await list()).json();
    expect(items).toMatchObject({ object: 'list', hasMore: false });
    // Newest first.
    expect(items.data).toEqual([
      {
        jti: limited.jti,
        times_authorized: 0,
        last_authorized: null,
        uses_remaining: 4,
        expires_at: new Date((T + app.settings.authDuration) * 1000).toISOString(),
      },
      { jti: permanent.jti, times_authorized: 0, last_authorized: null, uses_remaining: null, expires_at: null },
    ]);
  });

  it('refuses contradictory or out-of-range options with invalidArgument naming the option', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ activatesIn: 5, validAt: T + 5 }, 'validAt'],
      [{ permanent: true, activatesIn: 5 }, 'permanent'],
      [{ permanent: true, validAt: T + 5 }, 'permanent'],
      [{ permanent: true, expiresIn: 60 }, 'expiresIn'],
      [{ expiresIn: 0 }, 'expiresIn'],
      [{ expiresIn: '60' }, 'expiresIn'],
      [{ maxUses: 0 }, 'maxUses'],
      [{ grant: 8 }, 'grant'],
      [{ grant: 0 }, 'grant'],
      [{ skipAcl: 'yes' }, 'skipAcl'],
      [{ validAt: 'tomorrow' }, 'validAt'],
      [{ validAt: T - 10_000 }, 'validAt'],
      [{ roles: ['admin'] }, 'roles[0]'],
      [{ roles: ['0000000000000000000000ff'] }, 'roles[0]'],
      [{ expiresAt: 5 }, 'expiresAt'],
    ];
    for (const [extra, path] of cases) {
      const res = await create({ app: app.key, scope: ['*'], ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json(), JSON.stringify(extra)).toMatchObject({ code: 'kInvalidArgument', path });
    }
  });

  it('refuses invalid scope chains with invalidArgument.authScope naming the entry', async () => {
    const res = await create({ app: app.key, scope: ['object.read.account', 'object.read.account.name'] });
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.authScope', path: 'scope[1]' });
    expect((await create({ app: app.key, scope: ['deployment.create'] })).json()).toMatchObject({
      errCode: 'service.invalidArgument.authScope',
    });
    expect((await create({ app: app.key })).json()).toMatchObject({ errCode: 'service.invalidArgument.authScope' });
    // Chains for routes, views and deployments parse, though those resources have no routes yet.
    await mint(admin, aliceId, {
      app: app.key,
      scope: ['script.execute.route.c_report', 'view.execute.c_weekly', 'deployment.execute', 'admin.read'],
    });
  });

  it('refuses unknown and disabled apps, and unknown accounts', async () => {
    expect((await create({ app: 'NoSuchKey', scope: [] })).json()).toMatchObject({ errCode: 'service.notFound.app' });
    const { app: spare } = await h.svc.apps.create(
      app.orgId,
      'signing',
      { label: 'spare', enabled: false },
      h.svc.nowIso(),
    );
    expect((await create({ app: spare.key, scope: [] })).json()).toMatchObject({ errCode: 'service.accessDenied.app' });
    expect((await create({ app: app.key, scope: [] }, 'f'.repeat(24))).json()).toMatchObject({
      errCode: 'service.notFound.instance',
    });
  });

  it('is for org administrators: a plain session is refused, and so is a token without admin.update', async () => {
    const alice = new TestClient(h);
    await alice.login('alice@example.test', USER_PASSWORD);
    expect((await create({ app: app.key, scope: ['*'] }, aliceId, alice)).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const readOnly = new BearerClient(h, await mint(admin, adminId, { app: app.key, scope: ['object.read.account'] }));
    expect((await create({ app: app.key, scope: ['*'] }, aliceId, readOnly)).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
    });
    const provisioner = new BearerClient(h, await mint(admin, adminId, { app: app.key, scope: ['admin.update'] }));
    expect((await create({ app: app.key, scope: ['admin.update'] }, aliceId, provisioner)).statusCode).toBe(200);
    // Scopes only narrow: admin.update on a non-administrator's token grants nothing.
    const aliceToken = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: ['admin.update'] }));
    expect((await create({ app: app.key, scope: ['*'] }, aliceId, aliceToken)).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
  });

  it('lets a token mint only within its own rights (issue #13 item 5); a session keeps full rights', async () => {
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const provisioner = new BearerClient(
      h,
      await mint(admin, adminId, { app: app.key, scope: ['admin.update', 'object.read.account'], expiresIn: 600 }),
    );
    const refused = async (body: Record<string, unknown>, path: string) => {
      const res = await create({ app: app.key, scope: ['admin.update'], expiresIn: 60, ...body }, aliceId, provisioner);
      expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.scope', path });
    };
    await refused({ scope: ['*'] }, 'scope[0]');
    await refused({ scope: ['object.update.account'] }, 'scope[0]');
    await refused({ scope: ['object'] }, 'scope[0]');
    await refused({ skipAcl: true }, 'skipAcl');
    await refused({ bypassCreateAcl: true }, 'bypassCreateAcl');
    await refused({ grant: 7 }, 'grant');
    await refused({ roles: [BUILTIN_ROLES.support] }, 'roles[0]');
    await refused({ permanent: true, expiresIn: undefined }, 'permanent');
    await refused({ expiresIn: 601 }, 'expiresIn');
    // Within its rights: narrower scopes, a shorter life.
    const ok = await create(
      { app: app.key, scope: ['object.read.account.*.name', 'admin.update'], expiresIn: 600 },
      aliceId,
      provisioner,
    );
    expect(ok.statusCode).toBe(200);
    // The administrator's session keeps full rights.
    await mint(admin, aliceId, { app: app.key, scope: ['*'], skipAcl: true, grant: 7, permanent: true });
  });

  it('stops at maxTokensPerPrincipal live stored tokens, and ephemeral tokens do not count', async () => {
    h.svc.apps.update(app, { maxTokensPerPrincipal: 2 });
    await mint(admin, aliceId, { app: app.key, scope: [], permanent: true });
    await mint(admin, aliceId, { app: app.key, scope: [], maxUses: 1 });
    await mint(admin, aliceId, { app: app.key, scope: [] });
    const over = await create({ app: app.key, scope: [], permanent: true });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ errCode: 'service.accessDenied.maxJwtPerSubject' });
    // A used-up token no longer counts; nor does a revoked one.
    const bobId = await createUser(admin, 'bob@example.test');
    await mint(admin, bobId, { app: app.key, scope: [], permanent: true });
    expect((await create({ app: app.key, scope: [], permanent: true }, bobId)).statusCode).toBe(200);
    expect((await create({ app: app.key, scope: [], permanent: true }, bobId)).statusCode).toBe(403);
    expect((await admin.delete(`/accounts/${bobId}/tokens?app=${app.key}`)).json()).toEqual({
      object: 'result',
      data: 2,
    });
    expect((await create({ app: app.key, scope: [], permanent: true }, bobId)).statusCode).toBe(200);
  });

  it('never passes the limit under 15 concurrent creations', async () => {
    const results = await Promise.all(
      Array.from({ length: 15 }, () => create({ app: app.key, scope: ['*'], permanent: true })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.json()).toMatchObject({ errCode: 'service.accessDenied.maxJwtPerSubject' });
    }
    expect((await list()).json().data).toHaveLength(10);
  });

  it('makes the effective scopes the union of scp, the subject roles and rls, includes resolved', async () => {
    const roles = h.svc.defs.byName(1, 'role')!;
    const reader = h.svc.store.insert(1, roles, { name: 'Reader', scopes: ['object.read.c_conversation'] });
    const wrapper = h.svc.store.insert(1, roles, { name: 'Wrapper', scopes: [], include: [reader._id] });
    const bobId = await createUser(admin, 'bob@example.test');
    expect((await admin.patch(`/accounts/${bobId}`, { roles: [wrapper._id] })).statusCode).toBe(200);
    const token = await mint(admin, bobId, { app: app.key, scope: [] });
    const bob = new BearerClient(h, token);
    expect((await bob.get('/c_conversations')).statusCode).toBe(200);
    expect((await bob.get('/c_patientfiles')).json()).toMatchObject({ errCode: 'service.accessDenied.scope' });
    const withRole = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: [], roles: [wrapper._id] }));
    expect((await withRole.get('/c_conversations')).statusCode).toBe(200);
    const bare = new BearerClient(h, await mint(admin, aliceId, { app: app.key, scope: [] }));
    expect((await bare.get('/c_conversations')).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
      reason: 'no scopes: nothing allowed',
    });
  });
});

describe('listing and revoking', () => {
  it('counts uses in the list, revokes one by jti and all by app, and answers notFound for unknown jtis', async () => {
    const token = await mint(admin, aliceId, { app: app.key, scope: ['*'], maxUses: 5 });
    await mint(admin, aliceId, { app: app.key, scope: ['*'], permanent: true });
    h.clock.advance(1000);
    expect((await new BearerClient(h, token).get('/accounts')).statusCode).toBe(200);
    const used = (await list()).json().data.find((t: { uses_remaining: number | null }) => t.uses_remaining !== null);
    expect(used).toMatchObject({ times_authorized: 1, uses_remaining: 4, last_authorized: '2026-01-15T12:00:01.000Z' });
    expect((await admin.delete(`/accounts/${aliceId}/tokens/${used.jti}`)).statusCode).toBe(200);
    expect((await admin.delete(`/accounts/${aliceId}/tokens/${used.jti}`)).json()).toMatchObject({
      errCode: 'service.notFound.instance',
    });
    expect((await list()).json().data).toHaveLength(1);
    expect((await admin.delete(`/accounts/${aliceId}/tokens?app=${app.key}`)).json()).toEqual({
      object: 'result',
      data: 1,
    });
    expect((await list()).json().data).toHaveLength(0);
    expect((await admin.get(`/accounts/${aliceId}/tokens`)).json()).toMatchObject({
      code: 'kInvalidArgument',
      path: 'app',
    });
  });

  it('lets an account list and revoke its own tokens (as me), but not mint or touch others', async () => {
    const jwt = await mint(admin, aliceId, { app: app.key, scope: ['*'], permanent: true });
    const bobId = await createUser(admin, 'bob@example.test');
    const alice = new TestClient(h);
    await alice.login('alice@example.test', USER_PASSWORD);
    const own = (await alice.get(`/accounts/me/tokens?app=${app.key}`)).json();
    expect(own.data).toHaveLength(1);
    expect((await alice.get(`/accounts/${bobId}/tokens?app=${app.key}`)).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
    expect((await alice.delete(`/accounts/me/tokens/${own.data[0].jti}`)).statusCode).toBe(200);
    expect((await new BearerClient(h, jwt).get('/accounts')).json()).toMatchObject({
      errCode: 'service.accessDenied.invalidJwt',
    });
  });
});
