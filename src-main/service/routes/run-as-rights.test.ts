/**
 * Who a route or a view runs as, attacked over HTTP (issue 38 medium 4, medium 5, low 3): an
 * anonymous route caller owns nothing and creates nothing; only administrators create and change
 * scripts, views and deployments, and only a caller who could act as a principal may name it; a
 * route's principal must exist when it is saved, by REST and by import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';
import { exportOf, importInto, ndjsonLines, twoOrgClients } from '../testing/environment-testing.js';
import { reference } from '../objects/stored-record.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';

let h: Harness;
let admin: TestClient;
let other: TestClient;
let alice: TestClient;
let aliceId: string;
let adminId: string;

beforeAll(async () => {
  h = await createHarness();
  ({ a: admin, b: other } = await twoOrgClients(h));
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  aliceId = await createUser(admin, 'alice@example.test');
  alice = new TestClient(h);
  await alice.login('alice@example.test', USER_PASSWORD);
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

const demo = () => h.svc.orgs.byCode('demo')!;
const def = (name: string) => h.svc.defs.byName(demo().id, name)!;
const conversations = () => h.svc.store.count(demo().id, def('c_conversation'));

let n = 0;
async function route(config: Record<string, unknown>, script: string): Promise<string> {
  const res = await admin.post('/scripts', {
    label: `r${++n}`,
    type: 'route',
    active: true,
    script,
    configuration: { method: 'get', acl: ['anonymous'], ...config },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

describe('an anonymous route caller (medium 4)', () => {
  it('creates nothing when the route runs as no one, and the refusal is a fault', async () => {
    await route(
      { path: '/anon-insert' },
      `return org.objects.c_conversations.insertOne({ c_title: 'mine' }).execute()`,
    );
    const before = conversations();
    const res = await new TestClient(h).get('/routes/anon-insert');
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.accessDenied' });
    expect(conversations()).toBe(before);
  });

  it('neither reads nor changes records an anonymous caller once made (owner _id "")', async () => {
    const left = h.svc.store.insert(
      demo().id,
      def('c_conversation'),
      { c_title: 'left by an anonymous run', owner: reference('account', '') },
      { updaterId: '' },
    );
    await route(
      { path: '/anon-read' },
      `return org.objects.c_conversations.find({ _id: script.arguments.id || '${left._id}' }).toArray().length`,
    );
    await route(
      { path: '/anon-write' },
      `return org.objects.c_conversations.updateOne({ _id: '${left._id}' }, { $set: { c_title: 'taken' } }).execute()`,
    );
    const stranger = new TestClient(h);
    expect((await stranger.get('/routes/anon-read')).json()).toEqual({ object: 'result', data: 0 });
    const write = await stranger.get('/routes/anon-write');
    expect(write.statusCode, write.body).toBeGreaterThanOrEqual(400);
    expect(write.statusCode).toBeLessThan(500);
    expect(h.svc.store.get(demo().id, def('c_conversation'), left._id)?.doc.c_title).toBe('left by an anonymous run');
  });

  it('writes where the route runs as a named principal, which then owns the record', async () => {
    await route(
      { path: '/as-alice-insert', principal: 'alice@example.test' },
      `return org.objects.c_conversations.insertOne({ c_title: 'by alice' }).execute()`,
    );
    const res = await new TestClient(h).get('/routes/as-alice-insert');
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data as string;
    expect(h.svc.store.get(demo().id, def('c_conversation'), id)?.doc.owner).toMatchObject({ _id: aliceId });
  });
});

describe('scripts, views and deployments are written by administrators (medium 5)', () => {
  it.each(['script', 'view', 'deployment'])('refuses widening the ACLs of %s', async (name) => {
    const create = await admin.patch(`/schemas/${name}`, { createAcl: [{ type: 'account', target: '*' }] });
    expect(create.statusCode, create.body).toBe(400);
    expect(create.json().faults).toEqual([expect.objectContaining({ path: 'createAcl[0]' })]);
    const update = await admin.patch(`/schemas/${name}`, {
      defaultAcl: [{ type: 'account', target: '*', allow: 5 }],
    });
    expect(update.statusCode, update.body).toBe(400);
    expect(update.json().faults).toEqual([expect.objectContaining({ path: 'defaultAcl[0].allow' })]);
    expect((await admin.get(`/schemas/${name}`)).json()).toMatchObject({ createAcl: [], defaultAcl: [] });
  });

  it('refuses the same widening through an import', async () => {
    const view = {
      object: 'object',
      resource: 'object.view',
      name: 'view',
      custom: false,
      properties: [],
      createAcl: [{ type: 'account', target: '*' }],
    };
    const manifest = { object: 'manifest', objects: { includes: ['view'] } };
    const exportsDoc = { object: 'manifest-exports', resources: ['object.view'] };
    const res = await importInto(other, [view, manifest, exportsDoc].map((d) => JSON.stringify(d)).join('\n'));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().reason).toContain('createAcl[0]');
    expect(h.svc.defs.byName(h.svc.orgs.byCode('other')!.id, 'view')).not.toHaveProperty('createAcl');
  });

  it('holds even where a wide ACL is already stored: a non-administrator creates and changes none', async () => {
    const wide = { createAcl: [{ type: 'account', target: '*', allow: 1 }], defaultAcl: [] as unknown[] };
    wide.defaultAcl = [{ type: 'account', target: '*', allow: 7 }];
    const saved = { script: def('script'), view: def('view') };
    const adminRoute = await route({ path: '/admin-owned', acl: ['account.public'] }, 'return 1');
    try {
      for (const d of Object.values(saved)) h.svc.defs.save(demo().id, { ...d, ...wide });
      const script = await alice.post('/scripts', {
        label: 'mine',
        type: 'route',
        active: true,
        script: `return org.objects.accounts.find().skipAcl(true).toArray().length`,
        configuration: { method: 'get', path: '/steal', acl: ['anonymous'], principal: ADMIN_EMAIL },
      });
      expect(script.statusCode, script.body).toBe(403);
      const view = await alice.post('/views', { name: 'steal', sourceObject: 'account', principal: ADMIN_EMAIL });
      expect(view.statusCode, view.body).toBe(403);
      const edit = await alice.patch(`/scripts/${adminRoute}`, { script: 'return 2' });
      expect(edit.statusCode, edit.body).toBe(403);
    } finally {
      for (const d of Object.values(saved)) h.svc.defs.save(demo().id, d);
    }
    expect(await new TestClient(h).get('/routes/steal').then((r) => r.statusCode)).toBe(404);
  });

  it('a connection to a script gives a non-administrator no more than share', async () => {
    const id = await route({ path: '/shared', principal: ADMIN_EMAIL, acl: ['account.public'] }, 'return 1');
    const share = await admin.post('/connections', {
      context: { _id: id, object: 'script' },
      target: { _id: aliceId, object: 'account' },
      access: 7,
    });
    expect(share.statusCode, share.body).toBe(200);
    const edit = await alice.patch(`/scripts/${id}`, { script: 'return org.objects.accounts.find().toArray()' });
    expect(edit.statusCode, edit.body).toBe(403);
    expect((await alice.get('/routes/shared')).json()).toEqual({ object: 'result', data: 1 });
  });
});

describe("a route's principal is checked on save (low 3)", () => {
  it('refuses an account that does not exist, a role, and a change to either, by REST', async () => {
    const base = { label: 'ghostly', type: 'route', active: true, script: 'return 1' };
    for (const principal of ['ghost@example.test', BUILTIN_ROLES.administrator, 'not an account']) {
      const res = await admin.post('/scripts', {
        ...base,
        configuration: { method: 'get', path: '/ghost', acl: ['anonymous'], principal },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        errCode: 'service.validation.invalidReference',
        path: 'configuration.principal',
      });
    }
    const id = await route({ path: '/was-fine', principal: adminId }, 'return 1');
    const res = await admin.patch(`/scripts/${id}`, {
      configuration: { method: 'get', path: '/was-fine', acl: ['anonymous'], principal: 'ghost@example.test' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect((await new TestClient(h).get('/routes/was-fine')).json()).toEqual({ object: 'result', data: 1 });
  });

  it('refuses one by import (an unknown _id, a role, an unknown email), naming the resource, and writes nothing', async () => {
    await route({ path: '/exported', principal: ADMIN_EMAIL }, 'return 1');
    const docs = ndjsonLines(await exportOf(admin, { scripts: { includes: ['*'] } }));
    const doc = docs.find((d) => (d.configuration as { path?: string } | undefined)?.path === '/exported')!;
    for (const principal of ['a'.repeat(24), BUILTIN_ROLES.administrator, 'ghost@example.test']) {
      (doc.configuration as Record<string, unknown>).principal = principal;
      const res = await importInto(other, docs.map((d) => JSON.stringify(d)).join('\n'));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().faults).toContainEqual(
        expect.objectContaining({ path: doc.resource, reason: expect.stringContaining('principal') }),
      );
    }
    expect(h.svc.store.count(h.svc.orgs.byCode('other')!.id, def('script'))).toBe(0);
  });
});
