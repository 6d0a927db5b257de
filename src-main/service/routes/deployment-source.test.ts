/**
 * A deployment's source org is read for whoever runs it (a dry run answers its documents, a run
 * copies them), so it must be an org the caller administers — checked again at every run, as
 * rights may be lost after saving.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { twoOrgClients } from '../testing/environment-testing.js';
import { BearerClient, mint } from '../testing/token-testing.js';
import { bootstrapOrg } from '../bootstrap.js';
import { checkDeploymentSource } from '../environment/deployment-rules.js';
import type { Doc } from '../objects/validate.js';

const SECRET = 'VICTIM-SECRET-123';
const manifest = JSON.stringify({
  roles: { includes: ['*'] },
  scripts: { includes: ['*'] },
  settings: { includes: ['*'] },
  c_conversation: { includes: ['*'] },
});

let h: Harness;
let admin: TestClient;
let adminId: string;

beforeEach(async () => {
  h = await createHarness();
  ({ a: admin } = await twoOrgClients(h)); // `other`: administered by the same email as demo
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  // `victim` has an administrator of its own, and holds a record, a script and a role.
  const victim = await bootstrapOrg(h.svc, {
    code: 'victim',
    adminEmail: 'boss@victim.test',
    adminPassword: 'Victim Org Pass-77!',
  });
  const boss = new TestClient({ ...h, org: 'victim' }, victim.consoleAppKey);
  await boss.login('boss@victim.test', 'Victim Org Pass-77!');
  for (const [path, body] of [
    ['/c_conversations', { c_title: `${SECRET} conversation`, c_status: 'open' }],
    ['/scripts', { name: 'c_victim_lib', label: 'lib', type: 'library', script: `return "${SECRET}";` }],
    ['/roles', { name: 'Victim Role', code: 'victim_role' }],
  ] as const) {
    const res = await boss.post(path, body);
    expect(res.statusCode, res.body).toBe(200);
  }
}, 90_000); // three orgs (key pairs, password hashes): slow on a loaded machine
afterEach(async () => h.close());

function orgOf(code: string) {
  return h.svc.orgs.byCode(code)!;
}

/** Stored around the API (whose save check would refuse it), as a record saved before rights changed. */
function storeDeployment(doc: Doc): string {
  const demo = orgOf('demo');
  return h.svc.store.insert(demo.id, h.svc.defs.byName(demo.id, 'deployment')!, doc)._id;
}

/** Everything of `code` visible around the API: its roles, scripts and conversations, as JSON text. */
function contentsOf(code: string): string {
  const org = orgOf(code);
  const docs = ['role', 'script', 'c_conversation'].flatMap((name) => [
    ...h.svc.store.iterate(org.id, h.svc.defs.byName(org.id, name)!, { sort: [], skip: 0, limit: 1 }),
  ]);
  return JSON.stringify(docs.map((r) => r.doc));
}

describe('the source org of a deployment', () => {
  it('refuses a run from an org the caller does not administer, answering and writing nothing of it', async () => {
    const id = storeDeployment({ name: 'pull_from_victim', sourceOrg: 'victim', targetOrg: 'demo', manifest });
    const before = contentsOf('demo');
    for (const dryRun of [true, false]) {
      const res = await admin.post(`/deployments/${id}/run`, { dryRun });
      expect(res.json(), res.body).toMatchObject({
        errCode: 'service.accessDenied.principal',
        reason: `${ADMIN_EMAIL} is not an administrator of victim.`,
      });
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain('victim_role');
    }
    // A token allowed to run exactly this deployment is refused for its account all the same.
    const runner = new BearerClient(
      h,
      await mint(admin, adminId, { app: h.consoleAppKey, scope: [`deployment.execute.${id}`] }),
    );
    const byToken = await runner.post('/deployments/pull_from_victim/run', { dryRun: true });
    expect(byToken.json(), byToken.body).toMatchObject({ errCode: 'service.accessDenied.principal' });
    expect(byToken.body).not.toContain(SECRET);
    expect(contentsOf('demo')).toBe(before);
    expect(contentsOf('demo')).not.toContain(SECRET);
    const runs = (await admin.get(`/deployments/${id}/runs`)).json().data as Record<string, unknown>[];
    expect(runs.map((r) => r.result)).toEqual(['failed', 'failed', 'failed']);
    expect(JSON.stringify(runs)).not.toContain(SECRET);
  });

  it('runs from an org the caller administers, and refuses once that right is lost', async () => {
    const res = await admin.post('/deployments', {
      name: 'pull_from_other',
      sourceOrg: 'other',
      targetOrg: 'demo',
      manifest: JSON.stringify({ roles: { includes: ['administrator'] } }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const dry = await admin.post('/deployments/pull_from_other/run', { dryRun: true });
    expect(dry.json(), dry.body).toMatchObject({ result: 'dry-run', changes: [{ resource: 'role.administrator' }] });
    // The administrator of `other` is one no more (changed there, not through this deployment).
    const other = orgOf('other');
    const accountDef = h.svc.defs.byName(other.id, 'account')!;
    const account = h.svc.credentials.byEmail(other.id, ADMIN_EMAIL)!.account_id;
    h.svc.store.update(other.id, accountDef, account, { roles: [] });
    for (const dryRun of [true, false]) {
      expect((await admin.post('/deployments/pull_from_other/run', { dryRun })).json()).toMatchObject({
        errCode: 'service.accessDenied.principal',
        reason: `${ADMIN_EMAIL} is not an administrator of other.`,
      });
    }
  });

  it('refuses to save a deployment from an org the caller does not administer, by any write path', async () => {
    const body = { name: 'pull_from_victim', sourceOrg: 'victim', targetOrg: 'demo', manifest };
    const refused = {
      errCode: 'service.accessDenied.principal',
      reason: `${ADMIN_EMAIL} is not an administrator of victim.`,
    };
    expect((await admin.post('/deployments', body)).json()).toMatchObject(refused);
    const byDriver = await admin.post('/deployment/db/insertOne', { document: body });
    expect(byDriver.json(), byDriver.body).toMatchObject(refused);
    // Nor turned into one afterwards: a deployment from an org the caller administers, its source changed.
    const saved = await admin.post('/deployments', { ...body, sourceOrg: 'other' });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json()._id as string;
    expect((await admin.patch(`/deployments/${id}`, { sourceOrg: 'victim' })).json()).toMatchObject(refused);
    expect((await admin.get(`/deployments/${id}`)).json()).toMatchObject({ sourceOrg: 'other' });
    const names = (await admin.get('/deployments')).json().data.map((d: { name: string }) => d.name);
    expect(names).toEqual(['pull_from_victim']); // the one from `other`
  });

  it('checks the caller against the source org, never against the org holding the deployment', () => {
    const demo = orgOf('demo');
    const doc = (sourceOrg: string): Doc => ({ name: 'd', sourceOrg, targetOrg: 'demo', manifest });
    expect(() => checkDeploymentSource(h.svc, demo, doc('victim'), ADMIN_EMAIL)).toThrow(
      `${ADMIN_EMAIL} is not an administrator of victim.`,
    );
    expect(() => checkDeploymentSource(h.svc, demo, doc('other'), ADMIN_EMAIL)).not.toThrow();
    // The org holding the deployment is the caller's own: no second check of it.
    const toOther = { name: 'd', targetOrg: 'other', manifest };
    expect(() => checkDeploymentSource(h.svc, demo, toOther, 'nobody@example.test')).not.toThrow();
  });
});
