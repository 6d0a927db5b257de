import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';
import { anonymousCaller, callerOf, type Caller } from './caller.js';
import { assertMayNamePrincipal, principalNamedBy } from './named-principal.js';

let h: Harness;
let adminId: string;
let aliceId: string;

beforeAll(async () => {
  h = await createHarness();
  const admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  aliceId = await createUser(admin, 'alice@example.test');
}, 60_000);
afterAll(async () => h.close());

const org = () => h.svc.orgs.byCode('demo')!;
const callerFor = (accountId: string): Caller =>
  callerOf(h.svc, { org: org(), principal: { accountId, email: '', roles: [] } });
const route = (principal: string) => ({ type: 'route', configuration: { path: '/x', principal } });

function refusal(caller: Caller, object: string, doc: Record<string, unknown>) {
  try {
    assertMayNamePrincipal(h.svc, org(), caller, object, doc);
    return undefined;
  } catch (err) {
    return err instanceof FaultError ? err.fault : err;
  }
}

describe('assertMayNamePrincipal (issue 38 medium 5)', () => {
  it('finds the principal of a view and of a route script, and of nothing else', () => {
    expect(principalNamedBy('view', { principal: 'a@b.c' })).toEqual({ path: 'principal', value: 'a@b.c' });
    expect(principalNamedBy('script', route('a@b.c'))).toEqual({ path: 'configuration.principal', value: 'a@b.c' });
    expect(principalNamedBy('c_thing', { principal: 'a@b.c' })).toBeUndefined();
    expect(principalNamedBy('view', { principal: '' })).toBeUndefined();
  });

  it('lets an account name itself, by _id or email, and nobody else', () => {
    const alice = callerFor(aliceId);
    expect(refusal(alice, 'view', { principal: 'Alice@Example.test' })).toBeUndefined();
    expect(refusal(alice, 'script', route(aliceId.toUpperCase()))).toBeUndefined();
    expect(refusal(alice, 'view', { principal: ADMIN_EMAIL })).toMatchObject({
      errCode: 'service.accessDenied.principal',
      path: 'principal',
    });
    expect(refusal(alice, 'script', route(adminId))).toMatchObject({ path: 'configuration.principal' });
    expect(refusal(alice, 'script', route('nobody@example.test'))).toMatchObject({ status: 403 });
  });

  it('lets an administrator name anyone, and the anonymous caller no one', () => {
    expect(refusal(callerFor(adminId), 'script', route('alice@example.test'))).toBeUndefined();
    expect(refusal(anonymousCaller(), 'view', { principal: ADMIN_EMAIL })).toMatchObject({ status: 403 });
    expect(refusal(anonymousCaller(), 'view', {})).toBeUndefined();
  });
});
