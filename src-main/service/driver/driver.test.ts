/** Domain-level driver checks: privileged options, and results a script or route presents. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';
import { callerOf, type Caller } from '../access/caller.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import type { Org } from '../orgs/orgs.js';
import { runDriverOperation } from './driver.js';
import { effectiveCaller } from './privileged-options.js';

let h: Harness;
let org: Org;
let plain: Caller;
let adminCaller: Caller;

beforeAll(async () => {
  h = await createHarness();
  const admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode(h.org)!;
  const me = (await admin.get('/accounts/me')).json() as { _id: string; email: string };
  adminCaller = callerOf(h.svc, { org, principal: { accountId: me._id, email: me.email, roles: [] } });
  const id = await createUser(admin, 'p@example.test');
  plain = callerOf(h.svc, { org, principal: { accountId: id, email: 'p@example.test', roles: [] } });
  await admin.post('/c_conversations', { c_title: 'admin only' });
}, 60_000);
afterAll(async () => h.close());

const all = { skipAcl: true, grant: 7, roles: [BUILTIN_ROLES.support, BUILTIN_ROLES.administrator] };

describe('privileged options', () => {
  it('are dropped for a caller without the privilege', () => {
    expect(effectiveCaller(h.svc, org, plain, all, {})).toBe(plain);
  });

  it('each needs its own privilege; grant never exceeds the token grant; roles never add administrator', () => {
    const skp = effectiveCaller(h.svc, org, { ...plain, skipAcl: true }, { skipAcl: true, grant: 7 }, {});
    expect(skp.skipAcl).toBe(true);
    expect(skp.grant).toBeUndefined();
    const gnt = effectiveCaller(h.svc, org, { ...plain, grant: 3 }, { ...all, grant: 'delete' }, {});
    expect(gnt.grant).toBe(3);
    expect(gnt.skipAcl).toBe(false);
    const rls = effectiveCaller(h.svc, org, plain, all, { tokenRoles: true });
    expect(rls.roles.has(BUILTIN_ROLES.support)).toBe(true);
    expect(rls.roles.has(BUILTIN_ROLES.administrator)).toBe(false);
    expect(rls.orgAdmin).toBe(false);
    const trusted = effectiveCaller(h.svc, org, plain, { grant: 9 }, { trustedOptions: true });
    expect(trusted.grant).toBe(7);
  });

  it('honoured, they change what is matched: trusted skipAcl reads what the ACL hides', async () => {
    const hidden = await runDriverOperation(h.svc, org, plain, 'c_conversations', 'count', { skipAcl: true });
    expect(hidden).toEqual({ kind: 'value', value: 0 });
    const seen = await runDriverOperation(
      h.svc,
      org,
      plain,
      'c_conversation',
      'count',
      { skipAcl: true },
      {
        trustedOptions: true,
      },
    );
    expect(seen).toEqual({ kind: 'value', value: 1 });
    // Read is not write: skipAcl gives read, so an update through it is still refused.
    const write = runDriverOperation(
      h.svc,
      org,
      plain,
      'c_conversations',
      'updateOne',
      { match: { c_title: 'admin only' }, update: { $set: { c_title: 'x' } }, skipAcl: true },
      { trustedOptions: true },
    );
    await expect(write).rejects.toMatchObject({ fault: { errCode: 'service.accessDenied' } });
    expect(
      await runDriverOperation(h.svc, org, adminCaller, 'c_conversations', 'count', { where: { c_title: 'x' } }),
    ).toEqual({ kind: 'value', value: 0 });
  });

  it('cursor in stream mode yields records from an async iterable', async () => {
    const result = await runDriverOperation(
      h.svc,
      org,
      adminCaller,
      'accounts',
      'cursor',
      { limit: false },
      {
        stream: true,
      },
    );
    expect(result.kind).toBe('stream');
    const out: unknown[] = [];
    if (result.kind === 'stream') for await (const r of result.items) out.push(r);
    expect(out).toHaveLength(2);
  });
});

describe('dryRun', () => {
  const titled = (c_title: string) =>
    runDriverOperation(h.svc, org, adminCaller, 'c_conversations', 'count', { where: { c_title } });

  it('that is not a boolean is refused by every operation, and nothing is written', async () => {
    const writes: [string, Record<string, unknown>][] = [
      ['insertOne', { document: { c_title: 'dry' } }],
      ['insertMany', { documents: [{ c_title: 'dry' }] }],
      ['updateOne', { match: { c_title: 'admin only' }, update: { $set: { c_title: 'dry' } } }],
      ['updateMany', { match: { c_title: 'admin only' }, update: { $set: { c_title: 'dry' } } }],
      ['patchOne', { match: { c_title: 'admin only' }, ops: [{ op: 'set', value: { c_title: 'dry' } }] }],
      ['patchMany', { match: { c_title: 'admin only' }, ops: [{ op: 'set', value: { c_title: 'dry' } }] }],
      ['deleteOne', { match: { c_title: 'admin only' } }],
      ['deleteMany', { match: { c_title: 'admin only' } }],
      ['cursor', {}],
      ['count', {}],
      ['readOne', {}],
    ];
    for (const [operation, options] of writes) {
      for (const dryRun of ['true', 'yes', 1, 0, {}]) {
        const run = runDriverOperation(h.svc, org, adminCaller, 'c_conversations', operation, { ...options, dryRun });
        await expect(run, `${operation} ${JSON.stringify(dryRun)}`).rejects.toMatchObject({
          fault: { errCode: 'service.invalidArgument.dryRun', path: 'dryRun' },
        });
      }
    }
    // Through a bulk too: each of its operations reads its own options.
    const bulk = await runDriverOperation(h.svc, org, adminCaller, 'c_conversations', 'bulk', {
      ops: [{ operation: 'insertOne', document: { c_title: 'dry' }, dryRun: 'true', halt: false }],
    });
    const items: unknown[] = [];
    if (bulk.kind === 'stream') for await (const item of bulk.items) items.push(item);
    expect(items).toMatchObject([{ errCode: 'service.invalidArgument.dryRun', path: 'dryRun' }]);
    expect(await titled('dry')).toEqual({ kind: 'value', value: 0 });
    expect(await titled('admin only')).toEqual({ kind: 'value', value: 1 });
  });

  it('true tries the write without storing it; null (unset, as clients send it) and false write', async () => {
    const insert = (c_title: string, dryRun: unknown) =>
      runDriverOperation(h.svc, org, adminCaller, 'c_conversations', 'insertOne', {
        document: { c_title },
        dryRun,
        lean: true,
      });
    await insert('tried', true);
    expect(await titled('tried')).toEqual({ kind: 'value', value: 0 });
    await insert('unset', null);
    await insert('not dry', false);
    expect(await titled('unset')).toEqual({ kind: 'value', value: 1 });
    expect(await titled('not dry')).toEqual({ kind: 'value', value: 1 });
  });

  it('true on a delete checks it and deletes nothing; the checks still refuse what may not be deleted', async () => {
    const del = (operation: string, match: unknown, caller = adminCaller) =>
      runDriverOperation(h.svc, org, caller, 'c_conversations', operation, { match, dryRun: true });
    expect(await del('deleteOne', { c_title: 'admin only' })).toEqual({ kind: 'value', value: true });
    expect(await del('deleteMany', { c_title: 'admin only' })).toEqual({ kind: 'value', value: 1 });
    expect(await titled('admin only')).toEqual({ kind: 'value', value: 1 });
    await expect(del('deleteOne', { c_title: 'no such title' })).rejects.toMatchObject({
      fault: { errCode: 'service.notFound.instance' },
    });
  });
});
