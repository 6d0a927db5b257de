/**
 * The driver's `pipeline`, `group`, `expand`, `include` and `paths` into references (issue 42).
 * The driver used to ignore `pipeline` and answer unfiltered records; now it aggregates, or
 * refuses by name what it cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let user: TestClient;
const ids: Record<string, string> = {};

const db = (client: TestClient, object: string, op: string, body: unknown = {}, headers?: Record<string, string>) =>
  client.post(`/${object}/db/${op}`, body, headers);

async function ok(res: Promise<{ statusCode: number; body: string; json(): unknown }>) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Record<string, unknown> & { data: Record<string, unknown>[] };
}

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  await ok(
    admin.post('/schemas', {
      name: 'c_pet',
      label: 'Pet',
      properties: [
        { name: 'c_kind', type: 'String', indexed: true },
        { name: 'c_age', type: 'Integer', indexed: true },
        { name: 'c_note', type: 'String' },
        { name: 'c_vet', type: 'Reference', refObject: 'account' },
      ],
    }),
  );
  ids.vet = await createUser(admin, 'vet@example.test');
  const pets = [
    ['cat', 3, 'a'],
    ['cat', 5, 'b'],
    ['dog', 2, 'c'],
  ] as const;
  for (const [kind, age, note] of pets) {
    await ok(
      db(admin, 'c_pets', 'insertOne', { document: { c_kind: kind, c_age: age, c_note: note, c_vet: ids.vet } }),
    );
  }
  await createUser(admin, 'owner@example.test');
  user = new TestClient(h);
  await user.login('owner@example.test', USER_PASSWORD);
}, 60_000);
afterAll(async () => h.close());

describe('driver cursor with pipeline', () => {
  it('aggregates instead of answering the unfiltered records', async () => {
    const res = await ok(
      db(admin, 'c_pets', 'cursor', {
        pipeline: [{ $group: { _id: 'c_kind', n: { $count: '_id' }, oldest: { $max: 'c_age' } } }],
      }),
    );
    expect(res).toEqual({
      object: 'list',
      data: [
        { _id: 'cat', n: 2, oldest: 5, object: 'c_pet' },
        { _id: 'dog', n: 1, oldest: 2, object: 'c_pet' },
      ],
      hasMore: false,
    });
  });

  it('takes group with where and a named sort, skip and limit', async () => {
    const res = await ok(
      db(admin, 'c_pet', 'cursor', {
        group: { _id: 'c_kind', total: { $sum: 'c_age' } },
        where: { c_age: { $gte: 2 } },
        sort: { total: 1 },
        limit: 1,
      }),
    );
    expect(res).toEqual({ object: 'list', data: [{ _id: 'dog', total: 2, object: 'c_pet' }], hasMore: true });
  });

  it('streams a pipeline as NDJSON', async () => {
    const res = await db(
      admin,
      'c_pets',
      'cursor',
      { pipeline: [{ $sort: { c_age: 1 } }, { $project: { c_age: 1 } }], limit: false },
      { accept: 'application/x-ndjson' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.c_age)).toEqual([2, 3, 5]);
  });

  it('refuses nativePipeline, and a pipeline on count and readOne, by name', async () => {
    const native = await db(admin, 'c_pets', 'cursor', { nativePipeline: [{ $sample: { size: 1 } }] });
    expect(native.json()).toMatchObject({ errCode: 'service.unsupportedOperation', path: 'nativePipeline' });
    const count = await db(admin, 'c_pets', 'count', { pipeline: [] });
    expect(count.json()).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'pipeline' });
    const one = await db(admin, 'c_pets', 'readOne', { pipeline: [] });
    expect(one.json()).toMatchObject({ errCode: 'service.invalidArgument.query', path: 'pipeline' });
  });

  it('honours unindexed only for a caller who may skip the ACL', async () => {
    const unindexed = { pipeline: [{ $match: { c_note: 'a' } }, { $count: 'n' }], unindexed: true };
    expect((await ok(db(admin, 'c_pets', 'cursor', unindexed))).data).toEqual([{ n: 1, object: 'c_pet' }]);
    const refused = await db(user, 'c_pets', 'cursor', unindexed);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().reason).toMatch(/not indexed/);
  });
});

describe('driver expand, include and paths into references', () => {
  it('expands a reference on cursor and readOne, read as the caller', async () => {
    const page = await ok(db(admin, 'c_pets', 'cursor', { expand: ['c_vet'], sort: { c_age: 1 }, limit: 1 }));
    expect(page.data[0]!.c_vet).toMatchObject({ _id: ids.vet, object: 'account', email: 'vet@example.test' });
    const one = await ok(db(admin, 'c_pets', 'readOne', { where: { c_age: 5 }, paths: ['c_vet.name.first'] }));
    expect(one.c_vet).toEqual({ _id: ids.vet, object: 'account', name: { first: 'vet' } });
    expect(one).not.toHaveProperty('c_age');
  });

  it('refuses to expand what is not a reference', async () => {
    const res = await db(admin, 'c_pets', 'cursor', { expand: 'c_kind' });
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.illegalExpansion', path: 'expand[0]' });
  });
});

describe('scripts, through the driver', () => {
  const run = (script: string) =>
    admin.post('/sys/script_runner', { script, language: 'javascript', specification: 'es6' });

  it("a cursor's expand() expands, read as the script's caller", async () => {
    const res = await run("return org.objects.c_pets.find().sort({ c_age: 1 }).expand('c_vet').limit(1).toArray()");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0].c_vet).toMatchObject({ _id: ids.vet, email: 'vet@example.test' });
  });

  it("aggregate([stages]) pages through the pipeline's output, as the original's scripts call it", async () => {
    const res = await run(
      "return org.objects.c_pets.aggregate([{ $group: { _id: 'c_kind', n: { $sum: 1 } } }]).toArray()",
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { _id: 'cat', n: 2, object: 'c_pet' },
      { _id: 'dog', n: 1, object: 'c_pet' },
    ]);
  });

  it('aggregate() stage builders append stages in order; count() counts the output; CortexObject.aggregate forwards', async () => {
    const built = await run(
      "return org.objects.c_pets.aggregate().match({ c_kind: 'cat' }).sort({ c_age: -1 }).project({ c_age: 1 }).limit(1).toArray().map(function (d) { return d.c_age })",
    );
    expect(built.statusCode, built.body).toBe(200);
    expect(built.json().data).toEqual([5]);
    const counted = await run("return org.objects.c_pets.aggregate([{ $match: { c_kind: 'cat' } }]).count()");
    expect(counted.json().data).toBe(2);
    const viaClass = await run(
      "class Pet extends CortexObject { static get objectName() { return 'c_pets' } } return Pet.aggregate([{ $group: { _id: 'c_kind', n: { $sum: 1 } } }]).toArray().length",
    );
    expect(viaClass.statusCode, viaClass.body).toBe(200);
    expect(viaClass.json().data).toBe(2);
  });

  it('a returned cursor carrying a pipeline is streamed like cursor', async () => {
    const res = await admin.post(
      '/sys/script_runner',
      {
        script: 'return org.objects.c_pets.aggregate([{ $sort: { c_age: -1 } }, { $project: { c_age: 1 } }])',
        language: 'javascript',
        specification: 'es6',
      },
      { accept: 'application/x-ndjson' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.c_age)).toEqual([5, 3, 2]);
  });
});
