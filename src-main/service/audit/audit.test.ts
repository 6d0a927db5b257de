/**
 * Issue 41, audit: administrative actions leave an entry — who (account, how they came, app, token
 * jti or script, address), what, on which target, what changed — never a secret; administrators
 * read them at `GET /audits` with the list arguments; nobody writes or removes one; retention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint } from '../testing/token-testing.js';
import { DAY_MS, pruneOnce } from '../housekeeping.js';
import { auditCategoryOf, auditRecordWrite } from './record-writes.js';
import { auditDocument, recordAudit } from './record.js';

let h: Harness;
let admin: TestClient;
let adminId: string;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
}, 60_000);
afterAll(async () => h.close());

async function audits(where: unknown) {
  const res = await admin.get(`/audits?${listQuery({ where, sort: { _id: -1 } })}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Record<string, unknown>[];
}

describe('administrative actions over HTTP', () => {
  it('apps: created, changed, secret rotated, keys regenerated, deleted — with the actor and no secret', async () => {
    const made = await admin.post('/apps', { label: 'Audited', kind: 'signing' });
    expect(made.statusCode, made.body).toBe(200);
    const { key, secret } = made.json() as { key: string; secret: string };
    await admin.patch(`/apps/${key}`, { label: 'Audited 2', authDuration: 600 });
    const rotated = (await admin.post(`/apps/${key}/secret`)).json().secret as string;
    expect((await admin.post(`/apps/${key}/rsa`, {})).statusCode).toBe(200);
    expect((await admin.delete(`/apps/${key}`)).statusCode).toBe(200);
    const entries = await audits({ cat: 'app', 'context._id': key });
    expect(entries.map((e) => e.sub)).toEqual(['delete', 'regenerateKeys', 'rotateSecret', 'update', 'create']);
    expect(entries[3]).toMatchObject({ changes: ['label', 'authDuration'], context: { object: 'app', _id: key } });
    expect(entries[0]).toMatchObject({
      object: 'audit',
      principal: adminId,
      actor: { type: 'session', account: adminId, app: h.consoleAppKey, email: 'admin@example.test' },
    });
    expect((entries[0]!.actor as { address: string }).address).toBeTruthy();
    const text = JSON.stringify(entries);
    for (const s of [secret, rotated]) expect(text).not.toContain(s);
  });

  it('tokens: minted and revoked, by jti, never the token', async () => {
    const alice = await createUser(admin, 'alice@example.test');
    const token = await mint(admin, alice, { app: h.consoleAppKey, scope: ['object.read.account'], permanent: true });
    const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;
    expect((await admin.delete(`/accounts/${alice}/tokens/${jti}`)).statusCode).toBe(200);
    const entries = await audits({ cat: 'token', 'context._id': alice });
    expect(entries.map((e) => e.sub)).toEqual(['revoke', 'mint']);
    expect(String(entries[1]!.summary)).toContain(jti);
    expect(JSON.stringify(entries)).not.toContain(token);
  });

  it('a token caller is named by its jti; account tools, definitions and sessions are audited', async () => {
    const token = await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'], permanent: true });
    const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;
    const bob = await createUser(admin, 'bob@example.test');
    const bearer = new BearerClient(h, token);
    expect((await bearer.post(`/accounts/${bob}/unlock`, {})).statusCode).toBe(200);
    expect((await admin.post('/schemas', { name: 'c_audited', label: 'Audited', properties: [] })).statusCode).toBe(
      200,
    );
    const [unlock] = await audits({ cat: 'account', sub: 'unlock' });
    expect(unlock).toMatchObject({ actor: { type: 'token', jti, account: adminId }, context: { _id: bob } });
    const [schema] = await audits({ cat: 'object' });
    expect(schema).toMatchObject({ sub: 'create', context: { object: 'object', _id: 'c_audited' } });
  });

  it('a script minting a token is named as the script that did', async () => {
    const res = await admin.post('/sys/script_runner', {
      script: `return org.objects.accounts.createAuthToken('${h.consoleAppKey}', '${adminId}', { scope: ['object.read.account'] })`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = await audits({ cat: 'token', sub: 'mint' });
    expect(entry).toMatchObject({ actor: { type: 'script', scriptType: 'runner', account: adminId } });
  });

  it('an entry leaves the caches warm: it does not move the data version they follow', () => {
    const org = h.svc.orgs.byCode(h.org)!;
    const version = h.svc.versions.current();
    const entry = recordAudit(h.svc, org, { type: 'system' }, { cat: 'settings', sub: 'set', summary: 'warm' });
    expect(entry?._id).toBeDefined();
    expect(h.svc.versions.current()).toBe(version);
  });

  it('nobody writes, changes or removes an entry', async () => {
    const [entry] = await audits({});
    for (const res of [
      await admin.post('/audits', { cat: 'app' }),
      await admin.patch(`/audits/${String(entry!._id)}`, { summary: 'x' }),
      await admin.delete(`/audits/${String(entry!._id)}`),
    ]) {
      expect(res.json()).toMatchObject({ errCode: 'service.accessDenied.serviceWritten' });
    }
  });
});

describe('record writes', () => {
  it('of configuration and privileges always, of other records when the org asks', () => {
    const org = h.svc.orgs.byCode('demo')!;
    const def = (name: string) => h.svc.defs.byName(org.id, name)!;
    expect(auditCategoryOf({ org, def: def('script'), changed: ['script'] })).toBe('script');
    expect(auditCategoryOf({ org, def: def('role'), changed: ['scopes'] })).toBe('role');
    expect(auditCategoryOf({ org, def: def('account'), changed: ['name'] })).toBeUndefined();
    expect(auditCategoryOf({ org, def: def('account'), changed: ['locked'] })).toBe('account');
    expect(auditCategoryOf({ org, def: def('c_conversation'), changed: ['c_title'] })).toBeUndefined();
    const on = { ...org, settings: { ...org.settings, auditRecordWrites: true } };
    expect(auditCategoryOf({ org: on, def: def('c_conversation'), changed: ['c_title'] })).toBe('record');
    expect(auditCategoryOf({ org: on, def: def('log'), changed: ['lvl'] })).toBeUndefined();
  });

  it('name the record and the changed properties', async () => {
    const org = h.svc.orgs.byCode('demo')!;
    auditRecordWrite(h.svc, {
      org,
      def: h.svc.defs.byName(org.id, 'role')!,
      op: 'update',
      id: 'c'.repeat(24),
      changed: ['scopes'],
      label: 'Nurse',
      actorId: adminId,
    });
    const [entry] = await audits({ cat: 'role' });
    expect(entry).toMatchObject({
      sub: 'update',
      summary: 'Changed role Nurse (scopes).',
      context: { object: 'role', _id: 'c'.repeat(24), label: 'Nurse' },
      changes: ['scopes'],
      actor: { type: 'system', account: adminId },
    });
  });

  it('bounds what an entry holds', () => {
    const doc = auditDocument(
      { type: 'cli', account: 'not an id', address: 'x'.repeat(500) },
      {
        cat: 'record',
        sub: 'update',
        summary: 's'.repeat(5000),
        changes: Array.from({ length: 500 }, (_, i) => `p${i}`),
      },
    );
    expect((doc.summary as string).length).toBe(1000);
    expect(doc.changes).toHaveLength(100);
    expect(doc.actor).toEqual({ type: 'cli', address: `${'x'.repeat(63)}…` });
    expect(doc.principal).toBeUndefined();
  });
});

describe('retention', () => {
  it('keeps entries auditRetentionDays', async () => {
    const org = h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { auditRetentionDays: 3 });
    const count = () => h.svc.store.count(org.id, h.svc.defs.byName(org.id, 'audit')!);
    const before = count();
    expect(before).toBeGreaterThan(0);
    h.clock.advance(3 * DAY_MS);
    expect(pruneOnce(h.svc).audits).toBe(0);
    h.clock.advance(1);
    expect(pruneOnce(h.svc).audits).toBe(before);
  });
});
