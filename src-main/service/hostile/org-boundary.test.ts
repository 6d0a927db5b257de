/**
 * Issue 38, critical finding, as the attack was made: over HTTP, against a listening service with
 * two orgs (and a second service on another data folder). The administrator of `other` makes an
 * account there with the email of `demo`'s administrator and tries to read demo (step 1), to plant
 * an anonymous route script in demo running as demo's administrator (step 2), and to read and
 * write another service's data folder (step 3), and to create orgs. Being an administrator of one
 * org says nothing about another (docs/orgs-and-apps.md): every attempt is refused and leaves no trace of
 * the other side in any answer. Then the legitimate way: demo issues a credential, the deployment
 * runs, both orgs log it, and once demo revokes it the next run is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, OrgClient, myId, type ListeningService } from './listening-service.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import type { Doc } from '../objects/validate.js';

const DEMO_ADMIN = { email: 'admin@example.test', password: 'Demo Admin Pass-42!' };
const OTHER_ADMIN = { email: 'boss@other.test', password: 'Other Boss Pass-42!' };
const PROD_ADMIN = { email: 'ops@prod.test', password: 'Prod Ops Pass-42!' };
const DEMO_SECRET = 'DEMO-SECRET-RECORD';
const PROD_SECRET = 'PROD-SECRET-RECORD';
const everything = JSON.stringify({
  roles: { includes: ['*'] },
  scripts: { includes: ['*'] },
  c_conversation: { includes: ['*'] },
});
const credentialRefused = { status: 403, errCode: 'service.accessDenied.deploymentCredential' };
const operatorOnly = { status: 403, errCode: 'service.accessDenied.operator' };

let main: ListeningService;
let second: ListeningService;
/** demo's administrator: the operator of `main` (demo is the org created at first start). */
let operator: OrgClient;
/** `other`'s administrator, and the account they make in `other` with demo's administrator's email. */
let attacker: OrgClient;
let impostor: OrgClient;
let prodAdmin: OrgClient;

beforeAll(async () => {
  main = await startService({ code: 'demo', ...DEMO_ADMIN });
  second = await startService({ code: 'prod', ...PROD_ADMIN });
  operator = await new OrgClient(main.base, 'demo', main.appKeys.get('demo')!).login(
    DEMO_ADMIN.email,
    DEMO_ADMIN.password,
  );
  const created = await operator.post('/developer/orgs', {
    code: 'other',
    adminEmail: OTHER_ADMIN.email,
    adminPassword: OTHER_ADMIN.password,
  });
  expect(created.status, created.body).toBe(200);
  attacker = await new OrgClient(main.base, 'other', created.json.consoleAppKey).login(
    OTHER_ADMIN.email,
    OTHER_ADMIN.password,
  );
  prodAdmin = await new OrgClient(second.base, 'prod', second.appKeys.get('prod')!).login(
    PROD_ADMIN.email,
    PROD_ADMIN.password,
  );
  expect((await operator.post('/c_conversations', { c_title: DEMO_SECRET, c_status: 'open' })).status).toBe(200);
  expect((await prodAdmin.post('/c_conversations', { c_title: PROD_SECRET, c_status: 'open' })).status).toBe(200);
  // The impostor: an administrator of `other` with demo's administrator's email.
  const made = await attacker.post('/accounts', {
    ...DEMO_ADMIN,
    name: { first: 'Not', last: 'Demo' },
    roles: [BUILTIN_ROLES.administrator],
  });
  expect(made.status, made.body).toBe(200);
  impostor = await new OrgClient(main.base, 'other', attacker.appKey).login(DEMO_ADMIN.email, DEMO_ADMIN.password);
}, 180_000);
afterAll(async () => {
  await main?.close();
  await second?.close();
});

/** A deployment saved around the API, as if saved before rights changed: the run must check again. */
function storedInOther(doc: Doc): string {
  const org = main.svc.orgs.byCode('other')!;
  return main.svc.store.insert(org.id, main.svc.defs.byName(org.id, 'deployment')!, doc)._id;
}

async function mintIn(client: OrgClient, scope: string[]) {
  const res = await client.post(`/accounts/${await myId(client)}/tokens`, {
    app: client.appKey,
    scope,
    permanent: true,
  });
  expect(res.status, res.body).toBe(200);
  return res.json.data as string;
}

describe('an administrator of one org, against another org of the same service', () => {
  it('step 1: cannot read demo through a deployment, by its email or with its own org’s token', async () => {
    const body = { name: 'steal', sourceOrg: 'demo', targetOrg: 'other', manifest: everything };
    const ownToken = await mintIn(impostor, ['deployment.execute']);
    for (const attempt of [
      impostor.post('/deployments', body),
      impostor.post('/deployment/db/insertOne', { document: body }),
      impostor.post('/deployments', { ...body, sourceToken: ownToken }),
    ]) {
      const res = await attempt;
      expect(res).toMatchObject({ status: 403, json: { errCode: credentialRefused.errCode } });
      expect(res.body).not.toContain(DEMO_SECRET);
    }
    const id = storedInOther(body);
    for (const dryRun of [true, false]) {
      const res = await impostor.post(`/deployments/${id}/run`, { dryRun });
      expect(res).toMatchObject({ status: 403, json: { errCode: credentialRefused.errCode, path: 'sourceToken' } });
      expect(res.body).not.toContain(DEMO_SECRET);
    }
    expect((await impostor.get('/c_conversations')).body).not.toContain(DEMO_SECRET);
  });

  it('step 2: cannot plant an anonymous route script in demo, nor make demo’s administrator its owner', async () => {
    const script = await impostor.post('/scripts', {
      name: 'c_plant',
      label: 'plant',
      type: 'route',
      active: true,
      script: 'return org.objects.accounts.find().toArray()',
      configuration: { method: 'get', path: '/plant', acl: ['anonymous'], principal: DEMO_ADMIN.email },
    });
    expect(script.status, script.body).toBe(200);
    const manifest = JSON.stringify({ scripts: { includes: ['c_plant'] } });
    const body = { name: 'plant', targetOrg: 'demo', manifest };
    const signing = await attacker.post('/apps', { label: 'mine', kind: 'signing', principalId: await myId(attacker) });
    for (const credential of [
      {},
      { targetToken: await mintIn(impostor, ['deployment.execute']) },
      { targetAppKey: signing.json.key, targetSecret: signing.json.secret },
    ]) {
      const res = await impostor.post('/deployments', { ...body, ...credential });
      expect(res, res.body).toMatchObject({ status: 403, json: { errCode: credentialRefused.errCode } });
    }
    const id = storedInOther(body);
    expect(await impostor.post(`/deployments/${id}/run`, {})).toMatchObject({ status: 403, json: credentialRefused });
    const anonymous = await fetch(`${main.base}/demo/v2/routes/plant`, {
      headers: { 'service-client-key': main.appKeys.get('demo')! },
    });
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).not.toContain(DEMO_ADMIN.email);
    expect((await operator.get('/scripts')).body).not.toContain('c_plant');
    expect((await operator.get('/developer/deployment-runs')).json.data).toEqual([]);
  });

  it('cannot create orgs (the operator’s power), nor list the others', async () => {
    const res = await attacker.post('/developer/orgs', {
      code: 'evil',
      adminEmail: DEMO_ADMIN.email,
      adminPassword: 'Evil Org Pass-42!',
    });
    expect(res).toMatchObject({ status: 403, json: { errCode: operatorOnly.errCode } });
    expect(main.svc.orgs.byCode('evil')).toBeUndefined();
    expect((await attacker.get('/developer/orgs')).json.data.map((o: { code: string }) => o.code)).toEqual(['other']);
    expect((await operator.get('/developer/orgs')).json.data.map((o: { code: string }) => o.code)).toEqual([
      'demo',
      'other',
    ]);
  });
});

describe('another service’s data folder', () => {
  const folderTarget = () => ({
    targetKind: 'folder',
    targetDataDir: second.dataDir,
    targetOrg: 'prod',
    manifest: everything,
  });

  it('step 3: is the operator’s, not any org administrator’s, even with a credential of its org', async () => {
    const prodToken = await mintIn(prodAdmin, ['deployment.execute']);
    for (const extra of [{}, { targetToken: prodToken }]) {
      const res = await attacker.post('/deployments', { name: 'raid', ...folderTarget(), ...extra });
      expect(res).toMatchObject({ status: 403, json: { errCode: operatorOnly.errCode } });
    }
    const id = storedInOther({ name: 'raid', ...folderTarget(), targetToken: main.svc.cipher.encrypt(prodToken) });
    for (const dryRun of [true, false]) {
      const res = await attacker.post(`/deployments/${id}/run`, { dryRun });
      expect(res).toMatchObject({ status: 403, json: { errCode: operatorOnly.errCode } });
      expect(res.body).not.toContain(PROD_SECRET);
    }
    expect((await prodAdmin.get('/developer/deployment-runs')).json.data).toEqual([]);
  });

  it('needs a credential of its org even for the operator, and logs the operator’s run there', async () => {
    const refused = await operator.post('/deployments', { name: 'to_prod', ...folderTarget() });
    expect(refused).toMatchObject({ status: 403, json: { errCode: credentialRefused.errCode, path: 'targetToken' } });
    const saved = await operator.post('/deployments', {
      name: 'to_prod',
      ...folderTarget(),
      targetToken: await mintIn(prodAdmin, ['deployment.execute.to_prod']),
    });
    expect(saved.status, saved.body).toBe(200);
    const dry = await operator.post('/deployments/to_prod/run', { dryRun: true });
    expect(dry.status, dry.body).toBe(200);
    expect(dry.json.result).toBe('dry-run');
    const seen = (await prodAdmin.get('/developer/deployment-runs')).json.data;
    expect(seen).toEqual([
      expect.objectContaining({
        by: PROD_ADMIN.email,
        result: 'dry-run',
        from: expect.objectContaining({ side: 'target', org: 'demo', otherFolder: true, by: DEMO_ADMIN.email }),
      }),
    ]);
  });
});

describe('a credential the other org issued', () => {
  it('lets a deployment write that org, logged in both orgs, until it is revoked', async () => {
    const token = await mintIn(operator, ['deployment.execute.ship_to_demo']);
    const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;
    expect((await attacker.post('/roles', { name: 'Partner', code: 'partner_role' })).status).toBe(200);
    const saved = await attacker.post('/deployments', {
      name: 'ship_to_demo',
      targetOrg: 'demo',
      targetToken: token,
      manifest: JSON.stringify({ roles: { includes: ['partner_role'] } }),
    });
    expect(saved.status, saved.body).toBe(200);
    expect(saved.body).not.toContain(token);
    expect((await attacker.post('/deployments/ship_to_demo/run', { dryRun: true })).json).toMatchObject({
      result: 'dry-run',
    });
    expect((await attacker.post('/deployments/ship_to_demo/run', {})).json).toMatchObject({ result: 'complete' });
    const roles = (await operator.get('/roles')).json.data as { code: string; updater?: { _id: string } }[];
    expect(roles.find((r) => r.code === 'partner_role')?.updater?._id).toBe(await myId(operator));
    const own = (await attacker.get('/deployments/ship_to_demo/runs')).json.data as { result: string; by: string }[];
    expect(own.map((r) => [r.result, r.by])).toEqual([
      ['complete', OTHER_ADMIN.email],
      ['dry-run', OTHER_ADMIN.email],
    ]);
    const seen = (await operator.get('/developer/deployment-runs')).json.data as Record<string, unknown>[];
    expect(seen).toEqual([
      expect.objectContaining({
        result: 'complete',
        by: DEMO_ADMIN.email,
        from: expect.objectContaining({
          org: 'other',
          deployment: 'ship_to_demo',
          by: OTHER_ADMIN.email,
          credential: `token ${jti}`,
        }),
      }),
      expect.objectContaining({ result: 'dry-run' }),
    ]);
    // demo revokes it: the next run is refused, and demo's log gains nothing.
    expect((await operator.delete(`/accounts/${await myId(operator)}/tokens/${jti}`)).status).toBe(200);
    const after = await attacker.post('/deployments/ship_to_demo/run', { dryRun: true });
    expect(after).toMatchObject({
      status: 403,
      json: { errCode: credentialRefused.errCode, reason: expect.stringContaining('revoked') },
    });
    expect((await operator.get('/developer/deployment-runs')).json.data).toHaveLength(2);
    expect((await attacker.get('/deployments/ship_to_demo/runs')).json.data[0]).toMatchObject({ result: 'failed' });
  });
});
