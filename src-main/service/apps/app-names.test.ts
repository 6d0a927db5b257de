/**
 * Issue 40: apps addressed by name (the original's `allowNameMapping`): a name unique in the org,
 * accepted where clients send the key (`Service-Client-Key`, `createAuthToken(name, …)`, a token's
 * header check) only when the app allows it; kept by environment export and import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let named: { key: string };

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  await h.svc.scripts.run({ source: 'return 1' });
  const res = await admin.post('/apps', {
    label: 'Patient App',
    kind: 'session',
    csrf: false,
    name: 'c_patient_app',
    allowNameMapping: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ name: 'c_patient_app', allowNameMapping: true });
  named = res.json();
}, 60_000);
afterAll(async () => h.close());

describe('app names', () => {
  it('are unique in the org and never shaped like a key', async () => {
    const twice = await admin.post('/apps', { label: 'Other', kind: 'session', name: 'c_patient_app' });
    expect(twice.json()).toMatchObject({ errCode: 'service.validation.conflict', path: 'name' });
    const keyShaped = await admin.post('/apps', { label: 'Other', kind: 'session', name: 'A'.repeat(22) });
    expect(keyShaped.json()).toMatchObject({ status: 400 });
    expect(JSON.stringify(keyShaped.json())).toContain('not key-shaped');
  });

  it('address the app in Service-Client-Key when it allows name mapping, not otherwise', async () => {
    // A user of its own: an account has one session, and the admin's is the test's console.
    await createUser(admin, 'patient@example.test');
    const byName = new TestClient(h, 'c_patient_app');
    expect((await byName.login('patient@example.test', USER_PASSWORD)).statusCode).toBe(200);
    const me = await byName.get('/accounts/me');
    expect(me.statusCode, me.body).toBe(200);
    // The session belongs to the app the name maps to: the key works with the same cookie.
    expect((await byName.get('/accounts/me', { 'service-client-key': named.key })).statusCode).toBe(200);

    const off = await admin.patch(`/apps/${named.key}`, { allowNameMapping: false });
    expect(off.statusCode, off.body).toBe(200);
    const refused = await new TestClient(h, 'c_patient_app').get('/accounts/me');
    expect(refused.json(), refused.body).toMatchObject({ errCode: 'service.notFound.app' });
    expect((await admin.patch(`/apps/${named.key}`, { allowNameMapping: true })).statusCode).toBe(200);
  });

  it("createAuthToken takes the app's name; the token works with its name or key in the header", async () => {
    const minted = await admin.post('/sys/script_runner', {
      script: "return org.objects.accounts.createAuthToken('c_patient_app', script.principal._id, { scope: ['*'] })",
    });
    expect(minted.statusCode, minted.body).toBe(200);
    const jwt = minted.json().data as string;
    const iss = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).iss;
    expect(iss).toBe(named.key);
    const bearer = (key: string) =>
      new TestClient(h, '').get('/accounts/me', { authorization: `Bearer ${jwt}`, 'service-client-key': key });
    expect((await bearer('c_patient_app')).statusCode).toBe(200);
    expect((await bearer(named.key)).statusCode).toBe(200);
    expect((await bearer('c_other_name')).json()).toMatchObject({ errCode: 'service.notFound.app' });
  });

  it('travel through environment export and import (the original’s app documents carry name and label)', async () => {
    const exported = await admin.post('/sys/script_runner', {
      script:
        "return require('developer').environment.export({ manifest: { object: 'manifest', apps: { includes: ['Patient App'] } } }).toArray().filter(d => d.object === 'app')",
    });
    expect(exported.json().data).toEqual([expect.objectContaining({ name: 'c_patient_app', label: 'Patient App' })]);
    const doc = { ...exported.json().data[0], label: 'Study App', resource: 'app.Study App', name: 'c_study_app' };
    const imported = await admin.post('/sys/script_runner', {
      script: 'return require("developer").environment.import(script.arguments.docs).toArray()',
      arguments: {
        docs: [
          doc,
          { object: 'manifest', apps: { includes: ['Study App'] } },
          { object: 'manifest-exports', resources: ['app.Study App'] },
        ],
      },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const study = h.svc.apps.list(h.svc.orgs.byCode('demo')!.id).find((a) => a.settings.label === 'Study App');
    expect(study?.settings, imported.body).toMatchObject({ name: 'c_study_app', allowNameMapping: true });
  });
});
