/**
 * Every way of writing a `/scripts` record runs the same pre-write check (issue 16): REST POST,
 * PATCH (merge and operation arrays), PUT, sub-path routes, the driver API and scripts' own
 * `org.objects.scripts`. A script that does not compile, or a route clashing with another, is
 * refused with the same fault whichever way it came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
let admin: TestClient;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

const BROKEN = 'var a = 1;\nvar = ;';

let n = 0;
async function libraryScript(): Promise<string> {
  const res = await admin.post('/scripts', { label: `v${++n}`, type: 'library', script: 'return 1' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

function expectSyntaxFault(body: Record<string, unknown>): void {
  expect(body).toMatchObject({ object: 'fault', errCode: 'service.validation.script', path: 'script' });
  expect(body.reason).toMatch(/^Line 2, column \d+:/);
}

async function storedScript(id: string): Promise<string> {
  return (await admin.get(`/scripts/${id}`)).json().script as string;
}

describe('script validation on every write path', () => {
  it('REST: PATCH operation arrays, PUT and sub-path writes', async () => {
    const id = await libraryScript();
    const ops = await admin.patch(`/scripts/${id}`, [{ op: 'set', path: 'script', value: BROKEN }]);
    expect(ops.statusCode).toBe(400);
    expectSyntaxFault(ops.json());
    const put = await admin.put(`/scripts/${id}`, { script: BROKEN });
    expectSyntaxFault(put.json());
    const sub = await admin.put(`/scripts/${id}/script`, BROKEN);
    expect(sub.statusCode).toBe(400);
    expect(await storedScript(id)).toBe('return 1');
  });

  it('driver API: insertOne, insertMany, updateOne and patchOne', async () => {
    const insert = await admin.post('/scripts/db/insertOne', {
      document: { label: 'd1', type: 'library', script: BROKEN },
    });
    expect(insert.statusCode).toBe(400);
    expectSyntaxFault(insert.json());

    const many = await admin.post('/scripts/db/insertMany', {
      documents: [
        { label: 'ok', type: 'library', script: 'return 1' },
        { label: 'd2', type: 'library', script: BROKEN },
      ],
    });
    expect(many.statusCode, many.body).toBe(200);
    const outcome = many.json().data;
    expect(outcome.insertedCount).toBe(1);
    expect(outcome.writeErrors).toHaveLength(1);
    expectSyntaxFault(outcome.writeErrors[0]);
    expect(outcome.writeErrors[0].index).toBe(1);

    const id = await libraryScript();
    const update = await admin.post('/scripts/db/updateOne', {
      match: { _id: id },
      update: { $set: { script: BROKEN } },
    });
    expectSyntaxFault(update.json());
    const patch = await admin.post('/scripts/db/patchOne', {
      match: id,
      ops: [{ op: 'set', path: 'script', value: BROKEN }],
    });
    expectSyntaxFault(patch.json());
    expect(await storedScript(id)).toBe('return 1');
  });

  it("scripts' own org.objects.scripts writes", async () => {
    const id = await libraryScript();
    const res = await admin.post('/sys/script_runner', {
      script: `
        const out = {};
        try { org.objects.scripts.insertOne({ label: 's1', type: 'library', script: script.arguments.bad }).execute() }
        catch (e) { out.insert = [e.errCode, e.path] }
        try { org.objects.scripts.patchOne(script.arguments.id, [{ op: 'set', path: 'script', value: script.arguments.bad }]).execute() }
        catch (e) { out.patch = [e.errCode, e.path] }
        return out;`,
      arguments: { bad: BROKEN, id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      insert: ['service.validation.script', 'script'],
      patch: ['service.validation.script', 'script'],
    });
    expect(await storedScript(id)).toBe('return 1');
  });

  it('route clashes are refused through the driver API as through REST', async () => {
    const config = { method: 'get', path: '/clash' };
    const first = await admin.post('/scripts/db/insertOne', {
      document: { label: 'c1', type: 'route', script: 'return 1', configuration: config },
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await admin.post('/scripts/db/insertOne', {
      document: { label: 'c2', type: 'route', script: 'return 2', configuration: config },
    });
    expect(second.json()).toMatchObject({ errCode: 'service.validation.conflict', path: 'configuration.path' });
    // Editing the route itself is not a clash with itself.
    const id = first.json()._id as string;
    const self = await admin.post('/scripts/db/patchOne', {
      match: id,
      ops: [{ op: 'set', path: 'script', value: 'return 3' }],
    });
    expect(self.statusCode, self.body).toBe(200);
  });
});
