/** Object definitions' default and create ACLs through environment export and import, by name. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';
import {
  exportOf as exportFrom,
  importInto,
  ndjsonLines as lines,
  twoOrgClients,
} from '../testing/environment-testing.js';

let h: Harness;
let a: TestClient;
let b: TestClient;

beforeEach(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
}, 60_000); // two orgs (key pairs, password hashes): slow on a loaded machine
afterEach(async () => h.close());

const manifest = { objects: { includes: ['*'] }, roles: { includes: ['*'] } };
const exportOf = (client: TestClient) => exportFrom(client, manifest);

async function ok(p: Promise<{ statusCode: number; body: string }>) {
  const res = await p;
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function roleId(client: TestClient, code: string): Promise<string> {
  return (await client.get(`/roles?where=${encodeURIComponent(JSON.stringify({ code }))}`)).json().data[0]._id;
}

/** Org A: a role, an account, a custom type whose ACLs name both, and a built-in type's create ACL. */
async function configureA() {
  await ok(a.post('/roles', { name: 'Curator', code: 'curator', scopes: [] }));
  const curator = await roleId(a, 'curator');
  const editorId = await createUser(a, 'editor@example.test');
  await ok(
    a.post('/schemas', {
      name: 'c_thing',
      label: 'Thing',
      properties: [{ name: 'c_size', type: 'Integer', indexed: true }],
      defaultAcl: [
        { type: 'role', target: curator, allow: 5 },
        { type: 'account', target: editorId, allow: 3 },
        { type: 'owner', allow: 6 },
      ],
      createAcl: [{ type: 'role', target: curator }],
    }),
  );
  await ok(a.patch('/schemas/connection', { createAcl: [{ type: 'role', target: curator }] }));
}

describe('object ACLs in environment export and import', () => {
  it('exports ACL targets by role key and email, and names the roles as dependencies', async () => {
    await configureA();
    const docs = lines(await exportOf(a));
    expect(docs.find((d) => d.resource === 'object.c_thing')).toMatchObject({
      defaultAcl: [
        { type: 'role', target: 'curator', allow: 5 },
        { type: 'account', target: 'editor@example.test', allow: 3 },
        { type: 'owner', allow: 6 },
      ],
      createAcl: [{ type: 'role', target: 'curator', allow: 1 }],
    });
    // A built-in type with no custom property is exported for its ACL alone.
    expect(docs.find((d) => d.resource === 'object.connection')).toMatchObject({
      custom: false,
      properties: [],
      createAcl: [{ type: 'role', target: 'curator', allow: 1 }],
    });
    const deps = docs.find((d) => d.object === 'manifest-dependencies') as Record<string, unknown>;
    expect(JSON.stringify(deps)).toContain('role.curator');
  });

  it('round trip into another org: ids resolved by name, enforced there, and a second export equal', async () => {
    await configureA();
    await createUser(b, 'editor@example.test');
    const fromA = await exportOf(a);
    const res = await importInto(b, fromA);
    expect(lines(res.body).at(-1), res.body).toMatchObject({ stage: 'complete' });
    expect(lines(await exportOf(b))).toEqual(lines(fromA));

    // Stored in B under B's ids, and enforced: only a curator may create a thing.
    const bCurator = await roleId(b, 'curator');
    const schema = (await b.get('/schemas/c_thing')).json();
    expect(schema.createAcl).toEqual([{ type: 'role', target: bCurator, allow: 1 }]);
    expect(schema.defaultAcl[0]).toEqual({ type: 'role', target: bCurator, allow: 5 });
    const editor = new TestClient({ ...h, org: 'other' }, h.svc.orgs.byCode('other')!.settings.consoleAppKey);
    await editor.login('editor@example.test', USER_PASSWORD);
    expect((await editor.post('/c_things', { c_size: 1 })).statusCode).toBe(403);
  });

  it('writes nothing when an ACL names a role or an account the target org does not have', async () => {
    await configureA();
    const docs = lines(await exportOf(a));
    const thing = docs.find((d) => d.resource === 'object.c_thing') as { defaultAcl: { target?: string }[] };
    thing.defaultAcl[0]!.target = 'ghost';
    // B has no editor@example.test either.
    const before = await exportOf(b);
    const res = await importInto(b, docs.map((d) => JSON.stringify(d)).join('\n'));
    expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.validation.import' });
    expect(res.json().faults).toEqual([expect.objectContaining({ path: 'object.c_thing' })]);
    expect(res.json().reason).toContain('No role ghost');
    expect(res.json().reason).toContain('No account editor@example.test');
    expect(await exportOf(b)).toEqual(before);
    expect(h.svc.defs.byName(h.svc.orgs.byCode('other')!.id, 'c_thing')).toBeUndefined();
  });
});
