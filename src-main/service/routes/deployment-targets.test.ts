/**
 * Deployments to another data folder and to another service reached with signed requests
 * (issue #17): diff first, then apply through the import path, every run logged.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { openService } from '../open-service.js';
import { bootstrapOrg } from '../bootstrap.js';
import type { Service } from '../service.js';

let h: Harness;
let admin: TestClient;
const cleanup: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  const role = await admin.post('/roles', { name: 'Auditor', code: 'auditor', scopes: ['object.read'] });
  expect(role.statusCode, role.body).toBe(200);
}, 60_000);
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
  await h.close();
});

const manifest = JSON.stringify({ roles: { includes: ['auditor'] } });

async function createDeployment(body: Record<string, unknown>) {
  const res = await admin.post('/deployments', { manifest, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

function roleCodes(svc: Service, code: string) {
  const org = svc.orgs.byCode(code)!;
  const def = svc.defs.byName(org.id, 'role')!;
  return [...svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 1 })].map((r) => r.doc.code);
}

/** Runs `fn` on a service opened on `dir` for the moment (as another process would). */
function inFolder<T>(dir: string, fn: (svc: Service) => T): T {
  const svc = openService({ dataDir: dir });
  try {
    return fn(svc);
  } finally {
    svc.close();
  }
}

describe('a deployment into another data folder', () => {
  let dir: string;
  /** A signing app of the folder's org `prod`, acting as its administrator: the credential prod issued. */
  let prodApp: { targetAppKey: string; targetSecret: string };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deploy-folder-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const other = openService({ dataDir: dir, clock: h.clock }); // writes the folder's own master.key
    const { org } = await bootstrapOrg(other, { code: 'prod', adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
    const principalId = other.credentials.byEmail(org.id, ADMIN_EMAIL)!.account_id;
    const { app, secret } = await other.apps.create(
      org.id,
      'signing',
      { label: 'Deployer', principalId },
      other.nowIso(),
    );
    prodApp = { targetAppKey: app.key, targetSecret: secret! };
    other.close();
  }, 60_000);

  it('shows the diff on a dry run without writing, then applies it, logging each run', async () => {
    const id = await createDeployment({
      name: 'to_prod',
      targetKind: 'folder',
      targetDataDir: dir,
      targetOrg: 'prod',
      ...prodApp,
    });
    const dry = await admin.post(`/deployments/${id}/run`, { dryRun: true });
    expect(dry.json(), dry.body).toMatchObject({
      result: 'dry-run',
      changes: [{ resource: 'role.auditor', change: 'added', after: { code: 'auditor', scopes: ['object.read'] } }],
    });
    expect(inFolder(dir, (svc) => roleCodes(svc, 'prod'))).not.toContain('auditor');
    const run = await admin.post('/deployments/to_prod/run', {});
    expect(run.json(), run.body).toMatchObject({
      result: 'complete',
      changes: [{ resource: 'role.auditor', change: 'added' }],
    });
    expect(inFolder(dir, (svc) => roleCodes(svc, 'prod'))).toContain('auditor');
    expect((await admin.post(`/deployments/${id}/run`, {})).json().changes).toEqual([
      { resource: 'role.auditor', change: 'unchanged' },
    ]);
    const runs = (await admin.get(`/deployments/${id}/runs`)).json().data as Record<string, unknown>[];
    expect(runs.map((r) => r.result)).toEqual(['complete', 'complete', 'dry-run']);
    expect(runs[2]).toMatchObject({ by: ADMIN_EMAIL, changes: [{ resource: 'role.auditor', change: 'added' }] });
  });

  it('refuses to run triggers in another data folder, where none can run, rather than import without them', async () => {
    await createDeployment({
      name: 'to_prod',
      targetKind: 'folder',
      targetDataDir: dir,
      targetOrg: 'prod',
      ...prodApp,
    });
    const run = await admin.post('/deployments/to_prod/run', { triggers: true });
    expect(run.json(), run.body).toMatchObject({ errCode: 'service.unsupportedOperation.import.triggers' });
    expect(inFolder(dir, (svc) => roleCodes(svc, 'prod'))).not.toContain('auditor');
  });

  it('refuses this very folder on save, and logs a run into a folder without a database as failed', async () => {
    expect(
      (
        await admin.post('/deployments', {
          name: 'self',
          manifest,
          targetKind: 'folder',
          targetDataDir: h.dataDir,
          targetOrg: 'demo',
        })
      ).json(),
    ).toMatchObject({ errCode: 'service.validation.deployment', path: 'targetDataDir' });
    expect(
      (
        await admin.post('/deployments', {
          name: 'rel',
          manifest,
          targetKind: 'folder',
          targetDataDir: 'x/y',
          targetOrg: 'prod',
        })
      ).json(),
    ).toMatchObject({ path: 'targetDataDir' });
    const empty = join(dir, 'nothing-here');
    // Saving opens the folder to check prod's credential: a folder without a database is refused then.
    expect(
      (
        await admin.post('/deployments', {
          name: 'to_void',
          manifest,
          targetKind: 'folder',
          targetDataDir: empty,
          targetOrg: 'prod',
          ...prodApp,
        })
      ).json(),
    ).toMatchObject({ errCode: 'service.notFound.dataFolder' });
    expect(existsSync(empty)).toBe(false); // never created
    // Stored around the API (as if the folder was moved after saving): the run is refused and logged.
    const demo = h.svc.orgs.byCode('demo')!;
    const id = h.svc.store.insert(demo.id, h.svc.defs.byName(demo.id, 'deployment')!, {
      name: 'to_void',
      manifest,
      targetKind: 'folder',
      targetDataDir: empty,
      targetOrg: 'prod',
    })._id;
    expect((await admin.post(`/deployments/${id}/run`, { dryRun: true })).json()).toMatchObject({
      errCode: 'service.notFound.dataFolder',
    });
    expect(existsSync(empty)).toBe(false); // never created
    expect((await admin.get(`/deployments/${id}/runs`)).json().data).toEqual([
      expect.objectContaining({ result: 'failed', reason: expect.stringContaining('holds no service database') }),
    ]);
  });

  it('refuses a link to this very folder, however it is spelled, on save and on run', async () => {
    const link = join(dir, 'link-to-self');
    symlinkSync(h.dataDir, link);
    mkdirSync(join(dir, 'sub'));
    const body = { name: 'self_link', manifest, targetKind: 'folder', targetOrg: 'demo', ...prodApp };
    for (const targetDataDir of [link, `${dir}/sub/../link-to-self`, `${link}/`]) {
      expect((await admin.post('/deployments', { ...body, targetDataDir })).json()).toMatchObject({
        errCode: 'service.validation.deployment',
        path: 'targetDataDir',
        reason: expect.stringContaining('this data folder'),
      });
    }
    // A link made after saving points the stored path at this folder: the run checks again.
    const later = join(dir, 'later');
    symlinkSync(dir, later);
    const id = await createDeployment({ ...body, targetOrg: 'prod', targetDataDir: later });
    unlinkSync(later);
    symlinkSync(h.dataDir, later);
    expect((await admin.post(`/deployments/${id}/run`, { dryRun: true })).json()).toMatchObject({
      errCode: 'service.validation.deployment',
      path: 'targetDataDir',
    });
  });
});

describe('a deployment into another service, by signed requests', () => {
  let remote: Harness;
  let base: string;
  let app: { key: string; secret: string };

  beforeEach(async () => {
    remote = await createHarness(); // its own data folder, org demo; the same frozen clock time
    cleanup.push(() => remote.close());
    const remoteAdmin = new TestClient(remote);
    await remoteAdmin.login();
    const adminId = (await remoteAdmin.get('/accounts/me')).json()._id as string;
    const created = await remoteAdmin.post('/apps', { label: 'Deployer', kind: 'signing', principalId: adminId });
    expect(created.statusCode, created.body).toBe(200);
    app = created.json();
    await remote.server.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(remote.server.server.address() as AddressInfo).port}`;
  }, 60_000);

  const urlTarget = () => ({
    name: 'to_remote',
    targetKind: 'url',
    targetUrl: base,
    targetOrg: 'demo',
    targetAppKey: app.key,
    targetSecret: app.secret,
  });

  it('keeps the secret encrypted and unseen, diffs first, then applies, logging each run', async () => {
    const id = await createDeployment(urlTarget());
    // never shown again, and not stored in clear
    const shown = await admin.get(`/deployments/${id}`);
    expect(shown.json()).toMatchObject({ targetUrl: base, targetAppKey: app.key });
    expect(shown.body).not.toContain(app.secret);
    expect(shown.json().targetSecret).toBeUndefined();
    const demo = h.svc.orgs.byCode('demo')!;
    const stored = h.svc.store.getText(demo.id, h.svc.defs.byName(demo.id, 'deployment')!, id)!;
    expect(stored.text).not.toContain(app.secret);
    expect(String(stored.doc.targetSecret)).toMatch(/^v1\./);

    const dry = await admin.post(`/deployments/${id}/run`, { dryRun: true });
    expect(dry.json(), dry.body).toMatchObject({
      result: 'dry-run',
      changes: [{ resource: 'role.auditor', change: 'added', after: { code: 'auditor' } }],
    });
    expect(roleCodes(remote.svc, 'demo')).not.toContain('auditor');
    const run = await admin.post(`/deployments/${id}/run`, {});
    expect(run.json(), run.body).toMatchObject({
      result: 'complete',
      changes: [{ resource: 'role.auditor', change: 'added' }],
    });
    expect(roleCodes(remote.svc, 'demo')).toContain('auditor');
    expect((await admin.post(`/deployments/${id}/run`, { dryRun: true })).json().changes).toEqual([
      expect.objectContaining({ resource: 'role.auditor', change: 'unchanged' }),
    ]);
    const runs = (await admin.get(`/deployments/${id}/runs`)).json().data as Record<string, unknown>[];
    expect(runs.map((r) => r.result)).toEqual(['dry-run', 'complete', 'dry-run']);
  });

  it("asks a url target for triggers in the signed import: the remote's trigger changes the record", async () => {
    const remoteAdmin = new TestClient(remote);
    await remoteAdmin.login();
    const saved = await remoteAdmin.post('/scripts', {
      label: 'Open by default',
      type: 'trigger',
      active: true,
      script: "script.arguments.new.update('c_status', 'open')",
      configuration: { object: 'c_conversation', event: 'create.before' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const made = await admin.post('/c_conversations', { c_title: 'to remote' });
    const recordId = made.json()._id as string;
    const manifest = JSON.stringify({ c_conversation: { includes: [recordId] } });
    const id = await createDeployment({ ...urlTarget(), manifest });
    const dry = await admin.post(`/deployments/${id}/run`, { dryRun: true, triggers: true });
    expect(dry.json(), dry.body).toMatchObject({ result: 'dry-run' });
    const run = await admin.post(`/deployments/${id}/run`, { triggers: true });
    expect(run.json(), run.body).toMatchObject({ result: 'complete' });
    const demo = remote.svc.orgs.byCode('demo')!;
    const doc = remote.svc.store.get(demo.id, remote.svc.defs.byName(demo.id, 'c_conversation')!, recordId)?.doc;
    expect(doc).toMatchObject({ c_title: 'to remote', c_status: 'open' });
  });

  it('logs the target refusal as a failed run, saying it came from the target and naming its errCode only', async () => {
    const id = await createDeployment({ ...urlTarget(), targetSecret: 'x'.repeat(64) });
    const res = await admin.post(`/deployments/${id}/run`, {});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      object: 'fault',
      name: 'error',
      code: 'kAccessDenied',
      errCode: 'service.accessDenied.deploymentTarget',
      status: 403,
      message: 'Access denied.',
      path: 'targetUrl',
      reason: `The target service at ${base} refused the import (service.accessDenied.invalidRequestSignature).`,
    });
    expect(roleCodes(remote.svc, 'demo')).not.toContain('auditor');
    expect((await admin.get(`/deployments/${id}/runs`)).json().data).toEqual([
      expect.objectContaining({ result: 'failed', reason: expect.stringContaining('refused the import') }),
    ]);
  });

  it('validates url targets on save', async () => {
    for (const [patch, path] of [
      [{ targetUrl: 'ftp://x' }, 'targetUrl'],
      [{ targetUrl: `${base}?q=1` }, 'targetUrl'],
      [{ targetAppKey: undefined }, 'targetAppKey'],
      [{ targetSecret: undefined }, 'targetSecret'],
      [{ targetSecret: 'v1.abc.def.ghi' }, 'targetSecret'],
    ] as const) {
      expect((await admin.post('/deployments', { manifest, ...urlTarget(), ...patch })).json()).toMatchObject({
        errCode: 'service.validation.deployment',
        path,
      });
    }
  });

  it('answers a fault naming the target when it cannot be reached', async () => {
    await remote.server.close();
    const id = await createDeployment(urlTarget());
    expect((await admin.post(`/deployments/${id}/run`, { dryRun: true })).json()).toMatchObject({
      errCode: 'service.error.deploymentTarget',
      reason: expect.stringContaining('could not be reached'),
    });
  });
});
