/** Deployments: stored exports run into another org of the same data folder, with a dry-run diff and a run log. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, mint } from '../testing/token-testing.js';
import { deployCredential } from '../testing/deployment-testing.js';

let h: Harness;
let admin: TestClient;
let adminId: string;
let stagingAdmin: TestClient;
let stagingToken: string;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  const staging = await admin.post('/developer/orgs', {
    code: 'staging',
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
  });
  expect(staging.statusCode, staging.body).toBe(200);
  // staging's administrator (an account of staging's own) issues the credential demo's deployments write with.
  stagingAdmin = new TestClient({ ...h, org: 'staging' }, staging.json().consoleAppKey as string);
  await stagingAdmin.login();
  stagingToken = (await deployCredential(stagingAdmin, staging.json().consoleAppKey as string)).token;
  expect((await admin.post('/roles', { name: 'Auditor', code: 'auditor', scopes: ['object.read'] })).statusCode).toBe(
    200,
  );
}, 60_000); // two orgs (key pairs, password hashes): slow on a loaded machine
afterEach(async () => h.close());

const deployment = {
  name: 'to_staging',
  targetOrg: 'staging',
  manifest: JSON.stringify({ roles: { includes: ['auditor'] } }),
};

async function createDeployment(body: Record<string, unknown> = deployment) {
  const res = await admin.post('/deployments', { targetToken: stagingToken, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

function stagingRoleCodes() {
  const org = h.svc.orgs.byCode('staging')!;
  const def = h.svc.defs.byName(org.id, 'role')!;
  return [...h.svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 1 })].map((r) => r.doc.code);
}

describe('deployments', () => {
  it('shows the diff on a dry run without writing, then applies it, logging each run', async () => {
    const id = await createDeployment();
    const dry = await admin.post(`/deployments/${id}/run`, { dryRun: true });
    expect(dry.json()).toMatchObject({
      object: 'deploymentRun',
      dryRun: true,
      result: 'dry-run',
      by: ADMIN_EMAIL,
      changes: [{ resource: 'role.auditor', change: 'added' }],
    });
    expect(stagingRoleCodes()).not.toContain('auditor');
    const run = await admin.post(`/deployments/to_staging/run`, {});
    expect(run.json()).toMatchObject({ result: 'complete', changes: [{ resource: 'role.auditor', change: 'added' }] });
    expect(stagingRoleCodes()).toContain('auditor');
    const again = await admin.post(`/deployments/${id}/run`, {});
    expect(again.json().changes).toEqual([{ resource: 'role.auditor', change: 'unchanged' }]);
    const runs = (await admin.get(`/deployments/${id}/runs`)).json().data as { result: string }[];
    expect(runs.map((r) => r.result)).toEqual(['complete', 'complete', 'dry-run']);
    // staging logs the same runs, as the account its token names, saying where they came from.
    const seen = (await stagingAdmin.get('/developer/deployment-runs')).json().data as Record<string, unknown>[];
    expect(seen.map((r) => r.result)).toEqual(['complete', 'complete', 'dry-run']);
    expect(seen[0]).toMatchObject({
      by: ADMIN_EMAIL,
      from: { side: 'target', org: 'demo', deployment: 'to_staging', deploymentId: id, by: ADMIN_EMAIL },
    });
    // The role was written as staging's administrator, not as demo's.
    const staging = h.svc.orgs.byCode('staging')!;
    const stagingAdminId = (await stagingAdmin.get('/accounts/me')).json()._id as string;
    const role = [
      ...h.svc.store.iterate(staging.id, h.svc.defs.byName(staging.id, 'role')!, { sort: [], skip: 0, limit: 1 }),
    ].find((r) => r.doc.code === 'auditor')!;
    expect(JSON.stringify(role.doc.updater)).toContain(stagingAdminId);
    expect(JSON.stringify(role.doc.updater)).not.toContain(adminId);
  });

  it('refuses a run whose body is not an object, running nothing', async () => {
    const id = await createDeployment();
    for (const body of ['[]', '[{"dryRun":false}]', '"run"', '1', 'null', 'true']) {
      const res = await admin.request('POST', `/deployments/${id}/run`, body, { 'content-type': 'application/json' });
      expect(res.statusCode, `${body}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({
        object: 'fault',
        errCode: expect.stringMatching(/^service\.invalidArgument/),
      });
    }
    expect(stagingRoleCodes()).not.toContain('auditor');
    expect((await admin.get(`/deployments/${id}/runs`)).json().data).toEqual([]);
  });

  it('logs a failed run with its reason and writes nothing', async () => {
    const id = await createDeployment();
    // the role's scopes became invalid at the source (written around the API, which would refuse it)
    const demo = h.svc.orgs.byCode('demo')!;
    const roleDef = h.svc.defs.byName(demo.id, 'role')!;
    const role = [...h.svc.store.iterate(demo.id, roleDef, { sort: [], skip: 0, limit: 1 })].find(
      (r) => r.doc.code === 'auditor',
    )!;
    h.svc.store.update(demo.id, roleDef, role._id, { scopes: ['object.nonsense.x'] });
    expect((await admin.post(`/deployments/${id}/run`, {})).json()).toMatchObject({ object: 'fault' });
    expect(stagingRoleCodes()).not.toContain('auditor');
    const runs = (await admin.get(`/deployments/${id}/runs`)).json().data;
    expect(runs).toEqual([
      expect.objectContaining({ result: 'failed', reason: expect.stringContaining('role.auditor') }),
    ]);
  });

  it('validates deployments on save', async () => {
    expect((await admin.post('/deployments', { ...deployment, targetOrg: 'nowhere' })).json()).toMatchObject({
      errCode: 'service.validation.deployment',
      path: 'targetOrg',
    });
    expect((await admin.post('/deployments', { ...deployment, targetOrg: 'demo' })).json()).toMatchObject({
      path: 'targetOrg',
    });
    expect((await admin.post('/deployments', { ...deployment, manifest: '{"nope": {}}' })).json()).toMatchObject({
      path: 'manifest',
    });
  });

  it('deployment.execute.<id> runs a stored deployment; object.create.deployment creates one', async () => {
    const id = await createDeployment();
    const runner = new BearerClient(
      h,
      await mint(admin, adminId, { app: h.consoleAppKey, scope: [`deployment.execute.${id}`] }),
    );
    expect((await runner.post(`/deployments/${id}/run`, { dryRun: true })).json()).toMatchObject({ result: 'dry-run' });
    expect((await runner.post('/deployments', { ...deployment, name: 'other' })).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
    });
    const reader = new BearerClient(h, await mint(admin, adminId, { app: h.consoleAppKey, scope: ['object.read'] }));
    expect((await reader.post(`/deployments/${id}/run`, { dryRun: true })).json()).toMatchObject({
      errCode: 'service.accessDenied.scope',
    });
    const creator = new BearerClient(
      h,
      await mint(admin, adminId, { app: h.consoleAppKey, scope: ['object.create.deployment'] }),
    );
    // created; the answer shows only what the token may read (its identity)
    const made = await creator.post('/deployments', {
      ...deployment,
      name: 'made_by_token',
      targetToken: stagingToken,
    });
    expect(made.json(), made.body).toMatchObject({
      object: 'deployment',
      _id: expect.any(String),
    });
    const names = (await admin.get('/deployments')).json().data.map((d: { name: string }) => d.name);
    expect(names).toEqual(expect.arrayContaining(['to_staging', 'made_by_token']));
  });
});

describe('a deployment with triggers (issue 41)', () => {
  it("runs the target's triggers on the records it imports only when asked", async () => {
    const saved = await stagingAdmin.post('/scripts', {
      label: 'Open by default',
      type: 'trigger',
      active: true,
      script: "script.arguments.new.update('c_status', 'open')",
      configuration: { object: 'c_conversation', event: 'create.before' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const made = async (title: string) => {
      const res = await admin.post('/c_conversations', { c_title: title });
      expect(res.statusCode, res.body).toBe(200);
      return res.json()._id as string;
    };
    const stagingRecord = (id: string) => {
      const org = h.svc.orgs.byCode('staging')!;
      return h.svc.store.get(org.id, h.svc.defs.byName(org.id, 'c_conversation')!, id)?.doc;
    };
    for (const [triggers, status] of [
      [false, undefined],
      [true, 'open'],
    ] as const) {
      const id = await made(`deployed ${triggers}`);
      const name = `records_${triggers}`;
      await createDeployment({ ...deployment, name, manifest: JSON.stringify({ c_conversation: { includes: [id] } }) });
      const run = await admin.post(`/deployments/${name}/run`, { triggers });
      expect(run.json(), run.body).toMatchObject({ result: 'complete' });
      expect(stagingRecord(id)).toMatchObject({ c_title: `deployed ${triggers}` });
      expect(stagingRecord(id)?.c_status).toBe(status);
    }
    const bad = await admin.post(`/deployments/records_true/run`, { triggers: 'yes' });
    expect(bad.json()).toMatchObject({ errCode: 'service.invalidArgument.triggers', path: 'triggers' });
  });
});
