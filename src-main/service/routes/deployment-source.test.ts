/**
 * A deployment's source org is read for whoever runs it (a dry run answers its documents, a run
 * copies them). Another org than the one holding the deployment lets it read only with a
 * credential that org issued (docs/orgs-and-apps.md) — never because an account there has the caller's
 * email — checked on save by any write path and again at every run, and logged in that org too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { twoOrgClients } from '../testing/environment-testing.js';
import { deployCredential, revokeCredential } from '../testing/deployment-testing.js';
import { bootstrapOrg } from '../bootstrap.js';
import type { Doc } from '../objects/validate.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';

const SECRET = 'VICTIM-SECRET-123';
const manifest = JSON.stringify({
  roles: { includes: ['*'] },
  scripts: { includes: ['*'] },
  settings: { includes: ['*'] },
  c_conversation: { includes: ['*'] },
});

let h: Harness;
let admin: TestClient;
/** The administrator of `other`: an account of its own there, though with demo's administrator's email. */
let otherAdmin: TestClient;
let otherAppKey: string;

beforeEach(async () => {
  h = await createHarness();
  ({ a: admin, b: otherAdmin } = await twoOrgClients(h));
  otherAppKey = h.svc.orgs.byCode('other')!.settings.consoleAppKey!;
  for (const [path, body] of [
    ['/c_conversations', { c_title: `${SECRET} conversation`, c_status: 'open' }],
    ['/scripts', { name: 'c_victim_lib', label: 'lib', type: 'library', script: `return "${SECRET}";` }],
    ['/roles', { name: 'Victim Role', code: 'victim_role' }],
  ] as const) {
    const res = await otherAdmin.post(path, body);
    expect(res.statusCode, res.body).toBe(200);
  }
}, 90_000); // two orgs (key pairs, password hashes): slow on a loaded machine
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

const needsCredential = { errCode: 'service.accessDenied.deploymentCredential', path: 'sourceToken' };

describe('the source org of a deployment', () => {
  it('is never read without its credential, though an administrator there has the caller’s email', async () => {
    const id = storeDeployment({ name: 'pull_from_other', sourceOrg: 'other', targetOrg: 'demo', manifest });
    const before = contentsOf('demo');
    for (const dryRun of [true, false]) {
      const res = await admin.post(`/deployments/${id}/run`, { dryRun });
      expect(res.json(), res.body).toMatchObject(needsCredential);
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain('victim_role');
    }
    expect(contentsOf('demo')).toBe(before);
    const runs = (await admin.get(`/deployments/${id}/runs`)).json().data as Record<string, unknown>[];
    expect(runs.map((r) => r.result)).toEqual(['failed', 'failed']);
    expect(JSON.stringify(runs)).not.toContain(SECRET);
    // `other` logs nothing: nothing was read there.
    expect((await otherAdmin.get('/developer/deployment-runs')).json().data).toEqual([]);
  });

  it('refuses to save a deployment from another org without its credential, by any write path', async () => {
    const body = { name: 'pull_from_other', sourceOrg: 'other', targetOrg: 'demo', manifest };
    expect((await admin.post('/deployments', body)).json()).toMatchObject(needsCredential);
    const byDriver = await admin.post('/deployment/db/insertOne', { document: body });
    expect(byDriver.json(), byDriver.body).toMatchObject(needsCredential);
    // Nor turned into one afterwards: a deployment of the org's own configuration, its source changed.
    const saved = await admin.post('/deployments', {
      ...body,
      sourceOrg: undefined,
      targetOrg: 'other',
      targetToken: (await deployCredential(otherAdmin, otherAppKey)).token,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json()._id as string;
    const patched = await admin.patch(`/deployments/${id}`, { sourceOrg: 'other', targetOrg: 'demo' });
    expect(patched.json(), patched.body).toMatchObject(needsCredential);
    expect((await admin.get(`/deployments/${id}`)).json().sourceOrg).toBeUndefined();
  });

  it('reads another org with a token it minted, logs the run there, and stops once the token is revoked', async () => {
    const credential = await deployCredential(otherAdmin, otherAppKey);
    const saved = await admin.post('/deployments', {
      name: 'pull_from_other',
      sourceOrg: 'other',
      targetOrg: 'demo',
      sourceToken: credential.token,
      manifest: JSON.stringify({ roles: { includes: ['victim_role'] } }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Sealed, never shown.
    expect(saved.body).not.toContain(credential.token);
    expect((await admin.get('/deployments/pull_from_other')).json().sourceToken).toBeUndefined();
    const dry = await admin.post('/deployments/pull_from_other/run', { dryRun: true });
    expect(dry.json(), dry.body).toMatchObject({ result: 'dry-run', changes: [{ resource: 'role.victim_role' }] });
    const seen = (await otherAdmin.get('/developer/deployment-runs')).json().data;
    expect(seen).toEqual([
      expect.objectContaining({
        result: 'dry-run',
        by: 'admin@example.test', // the account the token names in `other`
        from: expect.objectContaining({
          side: 'source',
          org: 'demo',
          deployment: 'pull_from_other',
          credential: `token ${credential.jti}`,
        }),
      }),
    ]);
    await revokeCredential(otherAdmin, credential);
    for (const dryRun of [true, false]) {
      const res = await admin.post('/deployments/pull_from_other/run', { dryRun });
      expect(res.json(), res.body).toMatchObject({
        ...needsCredential,
        reason: expect.stringContaining('revoked'),
      });
    }
    expect(contentsOf('demo')).not.toContain('victim_role');
  });

  it('takes only a token of that org, for one of its administrators, granting deployment.execute', async () => {
    const third = await bootstrapOrg(h.svc, {
      code: 'third',
      adminEmail: 'boss@third.test',
      adminPassword: 'Third Org Pass-77!',
    });
    const thirdAdmin = new TestClient({ ...h, org: 'third' }, third.consoleAppKey);
    await thirdAdmin.login('boss@third.test', 'Third Org Pass-77!');
    const user = await otherAdmin.post('/accounts', {
      email: 'user@other.test',
      password: 'a long user password',
      name: { first: 'U', last: 'Ser' },
      state: 'verified',
    });
    expect(user.statusCode, user.body).toBe(200);
    const userToken = (
      await otherAdmin.post(`/accounts/${user.json()._id}/tokens`, { app: otherAppKey, scope: ['deployment.execute'] })
    ).json().data as string;
    const cases: [string, string][] = [
      [(await deployCredential(admin, h.consoleAppKey)).token, 'not issued by an application of this org'],
      [(await deployCredential(thirdAdmin, third.consoleAppKey)).token, 'not issued by an application of this org'],
      [userToken, 'not an administrator of other'],
      [(await deployCredential(otherAdmin, otherAppKey, ['object.read'])).token, 'deployment.execute'],
      [
        (await deployCredential(otherAdmin, otherAppKey, ['deployment.execute.another_one'])).token,
        'deployment.execute',
      ],
      ['x.y.z', 'well-formed'],
    ];
    for (const [sourceToken, reason] of cases) {
      const res = await admin.post('/deployments', {
        name: 'pull',
        sourceOrg: 'other',
        targetOrg: 'demo',
        manifest,
        sourceToken,
      });
      expect(res.json(), `${reason}: ${res.body}`).toMatchObject({
        ...needsCredential,
        reason: expect.stringContaining(reason),
      });
    }
    const named = await deployCredential(otherAdmin, otherAppKey, ['deployment.execute.pull']);
    const ok = await admin.post('/deployments', {
      name: 'pull',
      sourceOrg: 'other',
      targetOrg: 'demo',
      manifest,
      sourceToken: named.token,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses the run once the credential’s account is locked or no longer an administrator there', async () => {
    const credential = await deployCredential(otherAdmin, otherAppKey);
    const saved = await admin.post('/deployments', {
      name: 'pull',
      sourceOrg: 'other',
      targetOrg: 'demo',
      sourceToken: credential.token,
      manifest,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const other = orgOf('other');
    const accountDef = h.svc.defs.byName(other.id, 'account')!;
    h.svc.store.update(other.id, accountDef, credential.accountId, { roles: [] });
    expect((await admin.post('/deployments/pull/run', { dryRun: true })).json()).toMatchObject({
      ...needsCredential,
      reason: expect.stringContaining('not an administrator of other'),
    });
    h.svc.store.update(other.id, accountDef, credential.accountId, { roles: [BUILTIN_ROLES.administrator] });
    expect((await admin.post('/deployments/pull/run', { dryRun: true })).json()).toMatchObject({ result: 'dry-run' });
    h.svc.store.update(other.id, accountDef, credential.accountId, { locked: true });
    expect((await admin.post('/deployments/pull/run', { dryRun: true })).json()).toMatchObject({
      ...needsCredential,
      reason: expect.stringContaining('locked'),
    });
  });
});
