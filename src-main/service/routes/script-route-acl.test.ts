/**
 * Issue 40: route records accept the original's acl entries `{type, target}` (numeric principal
 * types included) as well as strings, from every writer — REST, scripts' org.objects, environment
 * import — and store this service's string form (src-shared/schema/acl-entry.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let alice: TestClient;
let aliceId: string;
let bob: TestClient;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  aliceId = await createUser(admin, 'alice@example.test');
  await createUser(admin, 'bob@example.test');
  alice = new TestClient(h);
  await alice.login('alice@example.test', USER_PASSWORD);
  bob = new TestClient(h);
  await bob.login('bob@example.test', USER_PASSWORD);
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

const saveRoute = (path: string, acl: unknown[]) =>
  admin.post('/scripts', {
    label: path,
    type: 'route',
    active: true,
    script: 'return "in"',
    configuration: { method: 'get', path, acl },
  });

describe("route acl entries as the original's objects", () => {
  it('are stored as strings and checked as such (REST)', async () => {
    const res = await saveRoute('acl-objects', [
      { type: 1, target: aliceId },
      { type: 'role', target: 'administrator' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().configuration.acl).toEqual([`account.${aliceId}`, 'role.administrator']);
    expect((await alice.get('/routes/acl-objects')).json()).toEqual({ object: 'result', data: 'in' });
    expect((await admin.get('/routes/acl-objects')).json()).toEqual({ object: 'result', data: 'in' });
    expect((await bob.get('/routes/acl-objects')).json()).toMatchObject({ errCode: 'service.accessDenied.route' });

    const patched = await admin.patch(`/scripts/${res.json()._id}`, {
      configuration: { method: 'get', path: 'acl-objects', acl: [{ type: 'account', target: '*' }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().configuration.acl).toEqual(['account.public']);
    expect((await bob.get('/routes/acl-objects')).json()).toEqual({ object: 'result', data: 'in' });
  });

  it('refuses an entry a route cannot check (owner, self), naming it', async () => {
    const res = await saveRoute('acl-owner', [{ type: 4 }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().faults).toEqual([
      expect.objectContaining({ path: 'configuration.acl[0]', reason: expect.stringContaining('type 4') }),
    ]);
  });

  it("from scripts' org.objects and from an environment import", async () => {
    const fromScript = await admin.post('/sys/script_runner', {
      script: `return org.objects.scripts.insertOne({ label: 'acl-script', type: 'route', active: true, script: 'return 1',
        configuration: { method: 'get', path: 'acl-script', acl: [{ type: consts.accessTargets.role, target: 'administrator' }] } }).lean(false).execute().configuration.acl`,
    });
    expect(fromScript.json().data, fromScript.body).toEqual(['role.administrator']);

    const doc = {
      object: 'script',
      resource: 'script.c_acl_imported',
      name: 'c_acl_imported',
      label: 'c_acl_imported',
      type: 'route',
      active: true,
      script: 'return 2',
      configuration: { method: 'get', path: 'acl-imported', acl: [{ type: 3, target: 'administrator' }] },
    };
    const imported = await admin.post('/sys/script_runner', {
      script: 'return require("developer").environment.import(script.arguments.docs).toArray().length',
      arguments: {
        docs: [
          doc,
          { object: 'manifest', scripts: { includes: ['c_acl_imported'] } },
          { object: 'manifest-exports', resources: ['script.c_acl_imported'] },
        ],
      },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect((await admin.get('/routes/acl-imported')).json()).toEqual({ object: 'result', data: 2 });
    expect((await bob.get('/routes/acl-imported')).json()).toMatchObject({ errCode: 'service.accessDenied.route' });
  });
});
