/** The driver API over HTTP: POST /<org>/v2/<object>/db/<operation> (docs/driver.md). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

const db = (client: TestClient, object: string, op: string, body: unknown = {}, headers?: Record<string, string>) =>
  client.post(`/${object}/db/${op}`, body, headers);

async function seed(titles: string[]): Promise<string[]> {
  const res = await db(admin, 'c_conversations', 'insertMany', {
    documents: titles.map((c_title) => ({ c_title, c_status: 'open' })),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.insertedIds as { _id: string }[]).map((r) => r._id);
}

const lines = (body: string) =>
  body
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('reads', () => {
  it('cursor answers the list envelope with where, sort, skip, limit and paths; singular or plural', async () => {
    await seed(['a', 'b', 'c', 'd']);
    for (const object of ['c_conversations', 'c_conversation']) {
      const res = await db(admin, object, 'cursor', {
        where: { c_title: { $in: ['a', 'b', 'c'] } },
        sort: { c_title: -1 },
        skip: 1,
        limit: 1,
        paths: ['c_title'],
        object: 'ignored',
        maxTimeMs: 10,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ object: 'list', hasMore: true, data: [{ c_title: 'b' }] });
      expect(res.json().data[0]).not.toHaveProperty('c_status');
    }
  });

  it('count and readOne (by where, by id, by "id/path", path, throwNotFound)', async () => {
    const [a] = await seed(['a', 'b', 'c']);
    expect((await db(admin, 'c_conversations', 'count', { where: { c_status: 'open' } })).json()).toEqual({
      object: 'result',
      data: 3,
    });
    expect((await db(admin, 'c_conversations', 'count', { skip: 1, limit: 1 })).json().data).toBe(1);
    const byWhere = (await db(admin, 'c_conversation', 'readOne', { where: { c_title: 'b' } })).json();
    expect(byWhere).toMatchObject({ object: 'c_conversation', c_title: 'b' });
    expect((await db(admin, 'c_conversations', 'readOne', { where: a })).json()).toMatchObject({ _id: a });
    expect((await db(admin, 'c_conversations', 'readOne', { where: `${a}/c_title` })).json()).toEqual({
      object: 'result',
      data: 'a',
    });
    expect((await db(admin, 'c_conversations', 'readOne', { where: a, path: 'c_status' })).json().data).toBe('open');
    const missing = await db(admin, 'c_conversations', 'readOne', { where: { c_title: 'zzz' } });
    expect(missing.json()).toMatchObject({ object: 'fault', errCode: 'service.notFound.instance' });
    const quiet = await db(admin, 'c_conversations', 'readOne', { where: { c_title: 'zzz' }, throwNotFound: false });
    expect(quiet.json()).toEqual({ object: 'result', data: null });
  });

  it('takes a $in of 10,000 strings in the body (no URL limit applies)', async () => {
    await seed(['needle']);
    const many = Array.from({ length: 9_999 }, (_, i) => `t${i}`);
    const res = await db(admin, 'c_conversations', 'cursor', { where: { c_title: { $in: [...many, 'needle'] } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: { c_title: string }) => r.c_title)).toEqual(['needle']);
    const tooMany = await db(admin, 'c_conversations', 'count', { where: { c_title: { $in: [...many, 'x', 'y'] } } });
    expect(tooMany.json()).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.query' });
  });

  it('refuses the REST query limits the same way (limit 1001, an unknown property)', async () => {
    expect((await db(admin, 'c_conversations', 'cursor', { limit: 1001 })).json()).toMatchObject({
      errCode: 'service.invalidArgument.query',
      path: 'limit',
    });
    expect((await db(admin, 'c_conversations', 'cursor', { where: { nope: 1 } })).json()).toMatchObject({
      object: 'fault',
    });
  });

  it('an unknown operation or object is a fault', async () => {
    expect((await db(admin, 'c_conversations', 'explode')).json()).toMatchObject({
      errCode: 'service.invalidArgument.operation',
      status: 400,
    });
    expect((await db(admin, 'c_nothing', 'cursor')).json()).toMatchObject({ errCode: 'service.notFound.object' });
  });
});

describe('NDJSON streaming', () => {
  it('streams one raw record per line; limit:false streams everything', async () => {
    await seed(Array.from({ length: 120 }, (_, i) => `s${String(i).padStart(3, '0')}`));
    const accept = { accept: 'application/x-ndjson' };
    const all = await db(admin, 'c_conversations', 'cursor', { limit: false, sort: { c_title: 1 } }, accept);
    expect(all.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const records = lines(all.body);
    expect(records).toHaveLength(120);
    expect(records[0]).toMatchObject({ object: 'c_conversation', c_title: 's000' });
    expect(records[119]).toMatchObject({ c_title: 's119' });
    // Without limit: the default page size (100).
    expect(lines((await db(admin, 'c_conversations', 'cursor', {}, accept)).body)).toHaveLength(100);
    // A refused query is an ordinary fault, not a stream.
    const bad = await db(admin, 'c_conversations', 'cursor', { limit: 0 }, accept);
    expect(bad.statusCode).toBe(400);
  });

  it('an error mid-stream ends the stream with one fault line', async () => {
    await seed(['x1', 'x2']);
    const res = await db(
      admin,
      'c_conversations',
      'bulk',
      {
        ops: [
          { operation: 'cursor', object: 'c_conversations', wrap: false },
          { operation: 'readOne', object: 'c_conversations', where: { c_title: 'absent' } },
          { operation: 'count', object: 'c_conversations' },
        ],
      },
      { accept: 'application/x-ndjson' },
    );
    const out = lines(res.body);
    expect(out).toHaveLength(3);
    expect(out[0]).toMatchObject({ object: 'c_conversation' });
    expect(out[2]).toMatchObject({ object: 'fault', errCode: 'service.notFound.instance' });
  });
});

describe('writes', () => {
  it('insertOne answers by lean: _id, modified paths, or the record', async () => {
    const id = (await db(admin, 'c_conversations', 'insertOne', { document: { c_title: 'i' }, lean: true })).json();
    expect(id).toEqual({ object: 'result', data: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const modified = (
      await db(admin, 'c_conversations', 'insertOne', { document: { c_title: 'm' }, lean: 'modified' })
    ).json();
    expect(Object.keys(modified).sort()).toEqual(['_id', 'c_title', 'object']);
    const whole = (await db(admin, 'c_conversations', 'insertOne', { document: { c_title: 'w' } })).json();
    expect(whole).toMatchObject({ object: 'c_conversation', c_title: 'w', access: 8, created: expect.any(String) });
    const dry = await db(admin, 'c_conversations', 'insertOne', { document: { c_title: 'dry' }, dryRun: true });
    expect(dry.json()).toMatchObject({ c_title: 'dry' });
    expect((await db(admin, 'c_conversations', 'count', { where: { c_title: 'dry' } })).json().data).toBe(0);
    const invalid = await db(admin, 'c_conversations', 'insertOne', { document: { c_status: 'weird' } });
    expect(invalid.json()).toMatchObject({ errCode: 'service.validation', status: 400 });
  });

  it('insertMany reports inserted ids and write errors with their index', async () => {
    const res = await db(admin, 'c_conversations', 'insertMany', {
      documents: [{ c_title: 'ok' }, { c_status: 'bad' }, { c_title: 'ok2' }],
    });
    const data = res.json().data;
    expect(data.insertedCount).toBe(2);
    expect(data.insertedIds.map((r: { index: number }) => r.index)).toEqual([0, 2]);
    expect(data.writeErrors).toEqual([expect.objectContaining({ object: 'fault', index: 1 })]);
  });

  it('updateOne/updateMany with $set $unset $push $pull $remove; patchOne/patchMany with ops', async () => {
    const [a, b] = await seed(['u1', 'u2']);
    const p = '5f0000000000000000000001';
    const upd = await db(admin, 'c_conversations', 'updateOne', {
      match: { c_title: 'u1' },
      update: { $set: { c_status: 'closed' }, $push: { c_participants: { $each: [p, p.replace('1', '2')] } } },
    });
    expect(upd.json()).toMatchObject({ _id: a, c_status: 'closed', c_participants: [p, p.replace('1', '2')] });
    const pulled = await db(admin, 'c_conversations', 'updateOne', {
      match: a,
      update: { $pull: { c_participants: p }, $unset: { c_status: 1 } },
      lean: 'modified',
    });
    expect(pulled.json()).toEqual({ _id: a, object: 'c_conversation', c_participants: [p.replace('1', '2')] });
    const removed = await db(admin, 'c_conversations', 'updateOne', {
      match: a,
      update: { $remove: { c_participants: p.replace('1', '2') } },
      lean: true,
    });
    expect(removed.json()).toEqual({ object: 'result', data: a });
    expect((await admin.get(`/c_conversations/${a}`)).json().c_participants).toEqual([]);

    const many = await db(admin, 'c_conversations', 'updateMany', {
      match: { c_title: { $in: ['u1', 'u2'] } },
      update: { $set: { c_status: 'open' } },
    });
    expect(many.json().data.updatedIds.sort()).toEqual([a, b].sort());

    const patched = await db(admin, 'c_conversations', 'patchOne', {
      match: `${b}`,
      ops: [{ op: 'set', path: 'c_title', value: 'p2' }],
    });
    expect(patched.json()).toMatchObject({ _id: b, c_title: 'p2' });
    const viaPath = await db(admin, 'c_conversations', 'patchOne', {
      match: `${b}.c_participants`,
      ops: [{ op: 'push', value: p }],
      lean: true,
    });
    expect(viaPath.json().data).toBe(b);
    expect((await admin.get(`/c_conversations/${b}`)).json().c_participants).toEqual([p]);
    const pm = await db(admin, 'c_conversations', 'patchMany', {
      match: { c_status: 'open' },
      ops: [{ op: 'set', value: { c_status: 'closed' } }],
      limit: 1,
    });
    expect(pm.json().data.updatedIds).toHaveLength(1);
    const unsupported = await db(admin, 'c_conversations', 'patchOne', { match: b, ops: [{ op: 'copy' }] });
    expect(unsupported.json()).toMatchObject({ errCode: 'service.unsupportedOperation.patchOp' });
    const invalid = await db(admin, 'c_conversations', 'updateOne', { match: b, update: { $set: { c_status: 'x' } } });
    expect(invalid.json()).toMatchObject({ errCode: 'service.validation' });
    const system = await db(admin, 'c_conversations', 'updateOne', { match: b, update: { $set: { owner: 'x' } } });
    expect(system.json()).toMatchObject({ errCode: 'service.validation' });
  });

  it('deleteOne and deleteMany', async () => {
    const [a] = await seed(['d1', 'd2', 'd3']);
    expect((await db(admin, 'c_conversations', 'deleteOne', { match: a })).json()).toEqual({
      object: 'result',
      data: true,
    });
    expect(
      (await db(admin, 'c_conversations', 'deleteMany', { match: { c_title: { $in: ['d2', 'd3'] } } })).json(),
    ).toEqual({ object: 'result', data: 2 });
    expect((await db(admin, 'c_conversations', 'count')).json().data).toBe(0);
  });
});

describe('bulk', () => {
  it('runs ops in order, wraps results, honours output/halt, nests at most 3 deep', async () => {
    const res = await db(admin, 'c_conversations', 'bulk', {
      ops: [
        { operation: 'insertOne', object: 'c_conversations', document: { c_title: 'b1' }, lean: true },
        { operation: 'insertOne', object: 'c_conversations', document: { c_title: 'b2' }, output: false },
        { operation: 'readOne', object: 'c_conversations', where: { c_title: 'none' }, halt: false },
        { operation: 'bulk', ops: [{ operation: 'count', object: 'c_conversations', name: 'n' }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({ object: 'operationResult', path: '0', data: expect.any(String) });
    expect(items[0]!.timestamp).toBe('2026-01-15T12:00:00.000Z');
    expect(items[1]).toMatchObject({ object: 'fault', errCode: 'service.notFound.instance' });
    expect(items[2]).toMatchObject({ object: 'operationResult', path: '3.n', data: 2 });

    const bare = await db(admin, 'c_conversations', 'bulk', [{ operation: 'count', wrap: false }]);
    expect(bare.json().data).toEqual([2]);

    const deep = { operation: 'bulk', ops: [{ operation: 'bulk', ops: [{ operation: 'bulk', ops: [] }] }] };
    const tooDeep = await db(admin, 'c_conversations', 'bulk', { ops: [deep] });
    expect(tooDeep.json()).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.bulk' });
  });
});

describe('access', () => {
  it('a plain account reads and writes through the driver only what REST allows; privileged options are dropped', async () => {
    const [a] = await seed(['admins']);
    await createUser(admin, 'plain@example.test');
    const user = new TestClient(h);
    await user.login('plain@example.test', USER_PASSWORD);
    // REST hides the admin's record from this account; so does the driver, skipAcl/grant or not.
    expect((await user.get(`/c_conversations/${a}`)).statusCode).toBe(404);
    for (const extra of [{}, { skipAcl: true, grant: 7, roles: ['000000000000000000000004'] }]) {
      expect((await db(user, 'c_conversations', 'cursor', extra)).json()).toEqual({
        object: 'list',
        data: [],
        hasMore: false,
      });
      expect((await db(user, 'c_conversations', 'count', extra)).json().data).toBe(0);
      expect((await db(user, 'c_conversations', 'readOne', { where: a, ...extra })).json()).toMatchObject({
        errCode: 'service.notFound.instance',
      });
      const upd = await db(user, 'c_conversations', 'updateOne', {
        match: a,
        update: { $set: { c_title: 'mine' } },
        ...extra,
      });
      expect(upd.json()).toMatchObject({ errCode: 'service.notFound.instance' });
      expect(
        (await db(user, 'c_conversations', 'updateMany', { update: { $set: { c_title: 'x' } }, ...extra })).json().data,
      ).toEqual({ updatedIds: [] });
      expect((await db(user, 'c_conversations', 'deleteMany', extra)).json().data).toBe(0);
    }
    // Account properties only administrators set stay refused.
    const me = (await user.get('/accounts/me')).json()._id as string;
    const roles = await db(user, 'accounts', 'updateOne', {
      match: me,
      update: { $set: { roles: ['000000000000000000000004'] } },
    });
    expect(roles.json()).toMatchObject({ object: 'fault', errCode: 'service.accessDenied.property' });
    // Its own records work as usual.
    const own = await db(user, 'c_conversation', 'insertOne', { document: { c_title: 'own' }, lean: true });
    expect((await db(user, 'c_conversations', 'readOne', { where: own.json().data })).json()).toMatchObject({
      c_title: 'own',
      access: 6,
    });
    expect((await admin.get(`/c_conversations/${a}`)).json().c_title).toBe('admins');
  });

  it('requires a logged-in caller', async () => {
    const anon = new TestClient(h);
    expect((await db(anon, 'c_conversations', 'cursor')).json()).toMatchObject({
      errCode: 'service.accessDenied.notLoggedIn',
    });
  });
});
