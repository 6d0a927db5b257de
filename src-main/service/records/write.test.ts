/**
 * The one write path (write.ts) and its hooks (write-hooks.ts), the seam triggers will use: every
 * writer passes `beforeWrite` inside the write's transaction (it may change the values or refuse
 * the write) and `afterCommit` once the outermost write transaction has committed — never for a
 * dry run or a write that was rolled back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fault } from '../../../src-shared/faults.js';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import type { Org } from '../orgs/orgs.js';
import { setWriteHooks, type WriteEvent } from './write-hooks.js';
import { loadRecord } from './load-write.js';
import { writeTransaction } from './write.js';

let h: Harness;
let admin: TestClient;
let org: Org;
/** Each hook call: which hook, the operation, and whether a transaction was open. */
let seen: { hook: 'before' | 'after'; op: string; dryRun: boolean; inTransaction: boolean; title?: unknown }[];

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode('demo')!;
  seen = [];
  const note = (hook: 'before' | 'after') => (e: WriteEvent) => {
    if (e.def.name !== 'c_conversation') return;
    const title = e.values?.c_title;
    seen.push({ hook, op: e.op, dryRun: e.dryRun, inTransaction: h.svc.db.inTransaction, title });
  };
  setWriteHooks(h.svc, {
    beforeWrite: (e) => {
      note('before')(e);
      if (e.values?.c_title === 'refuse me') throw fault('validation', 'trigger', { reason: 'Refused by a hook.' });
      if (e.values?.c_title === 'shout') e.values.c_title = 'SHOUT';
    },
    afterCommit: (e) => {
      note('after')(e);
      // The stored record rides along with every create and update.
      if (e.def.name === 'c_conversation' && e.op !== 'delete') expect(e.record?._id).toMatch(/^[0-9a-f]{24}$/);
    },
  });
});
afterEach(async () => h.close());

const def = () => h.svc.defs.byName(org.id, 'c_conversation')!;

describe('the write path', () => {
  it('runs beforeWrite inside the transaction and afterCommit after it, for REST writes', async () => {
    const made = await admin.post('/c_conversations', { c_title: 'shout' });
    expect(made.statusCode, made.body).toBe(200);
    // The hook changed what was stored.
    expect(made.json().c_title).toBe('SHOUT');
    const id = made.json()._id as string;
    expect((await admin.patch(`/c_conversations/${id}`, { c_title: 'calm' })).statusCode).toBe(200);
    expect((await admin.delete(`/c_conversations/${id}`)).statusCode).toBe(200);
    expect(seen).toEqual([
      { hook: 'before', op: 'create', dryRun: false, inTransaction: true, title: 'shout' },
      { hook: 'after', op: 'create', dryRun: false, inTransaction: false, title: 'SHOUT' },
      { hook: 'before', op: 'update', dryRun: false, inTransaction: true, title: 'calm' },
      { hook: 'after', op: 'update', dryRun: false, inTransaction: false, title: 'calm' },
      { hook: 'before', op: 'delete', dryRun: false, inTransaction: true, title: undefined },
      { hook: 'after', op: 'delete', dryRun: false, inTransaction: false, title: undefined },
    ]);
  });

  it('lets beforeWrite refuse a write: nothing is stored, afterCommit does not run', async () => {
    const refused = await admin.post('/c_conversations', { c_title: 'refuse me' });
    expect(refused.json()).toMatchObject({ errCode: 'service.validation.trigger' });
    const driver = await admin.post('/c_conversations/db/insertOne', { document: { c_title: 'refuse me' } });
    expect(driver.json()).toMatchObject({ errCode: 'service.validation.trigger' });
    expect(h.svc.store.count(org.id, def())).toBe(0);
    expect(seen.filter((s) => s.hook === 'after')).toEqual([]);
  });

  it('shows a dry run to beforeWrite and never to afterCommit', async () => {
    const res = await admin.post('/c_conversations/db/insertOne', { document: { c_title: 'try' }, dryRun: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(seen).toEqual([{ hook: 'before', op: 'create', dryRun: true, inTransaction: true, title: 'try' }]);
    expect(h.svc.store.count(org.id, def())).toBe(0);
  });

  it('runs the afterCommit of writes in one transaction after it commits, and none when it rolls back', () => {
    writeTransaction(h.svc, () => {
      loadRecord(h.svc, org, def(), { c_title: 'one' });
      loadRecord(h.svc, org, def(), { c_title: 'two' });
      expect(seen.filter((s) => s.hook === 'after')).toEqual([]);
    });
    expect(seen.filter((s) => s.hook === 'after').map((s) => [s.title, s.inTransaction])).toEqual([
      ['one', false],
      ['two', false],
    ]);
    seen = [];
    expect(() =>
      writeTransaction(h.svc, () => {
        loadRecord(h.svc, org, def(), { c_title: 'three' });
        throw new Error('the import failed');
      }),
    ).toThrow('the import failed');
    expect(seen.map((s) => s.hook)).toEqual(['before']);
    expect(h.svc.store.count(org.id, def())).toBe(2);
  });
});
