/**
 * The caller's roles are kept beside the account's snapshot (caller.ts `rolesOf`): any write — a
 * role's graph, the account's roles — is seen by the very next caller, and a principal's own role
 * list (a token's) is never answered for by another's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';
import { callerOf } from './caller.js';
import type { Org } from '../orgs/orgs.js';

let h: Harness;
let admin: TestClient;
let org: Org;
let userId: string;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode('demo')!;
  userId = await createUser(admin, 'roles.user@example.test');
});
afterEach(async () => h.close());

const principal = (roles: readonly string[] = []) => ({ accountId: userId, email: 'roles.user@example.test', roles });

describe("a caller's roles", () => {
  it("follow a write to the account's roles and to a role's includes at once", async () => {
    const own: readonly string[] = [];
    const reader = (await admin.post('/roles', { name: 'Reader', code: 'reader', scopes: [] })).json()._id as string;
    const analyst = (await admin.post('/roles', { name: 'Analyst', code: 'analyst', scopes: [] })).json()._id as string;
    expect(callerOf(h.svc, { org, principal: principal(own) }).roles.has(reader)).toBe(false);
    expect((await admin.patch(`/accounts/${userId}`, { roles: [analyst] })).statusCode).toBe(200);
    const withAnalyst = callerOf(h.svc, { org, principal: principal(own) }).roles;
    expect([withAnalyst.has(analyst), withAnalyst.has(reader)]).toEqual([true, false]);
    expect((await admin.patch(`/roles/${analyst}`, { include: [reader] })).statusCode).toBe(200);
    const included = callerOf(h.svc, { org, principal: principal(own) }).roles;
    expect([included.has(analyst), included.has(reader)]).toEqual([true, true]);
  });

  it("answer for the principal's own list only: another list on the same snapshot resolves again", async () => {
    const extra = (await admin.post('/roles', { name: 'Extra', code: 'extra', scopes: [] })).json()._id as string;
    const bare = callerOf(h.svc, { org, principal: principal([]) }).roles;
    const withExtra = callerOf(h.svc, { org, principal: principal([extra]) }).roles;
    expect([bare.has(extra), withExtra.has(extra)]).toEqual([false, true]);
    expect(callerOf(h.svc, { org, principal: principal([]) }).roles.has(extra)).toBe(false);
  });
});
