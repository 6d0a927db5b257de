import { describe, expect, it } from 'vitest';
import { ADMINISTRATOR_ROLE_ID, type Role } from '../../api/roles';
import { aclWithAccount, viewAclVerdict } from './view-acl';

const SUPPORT = '000000000000000000000006';
const ANALYST = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const LEAD = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const ROLES: Role[] = [
  { _id: ADMINISTRATOR_ROLE_ID, object: 'role', name: 'Administrator', code: 'administrator' },
  { _id: SUPPORT, object: 'role', name: 'Support', code: 'support' },
  { _id: ANALYST, object: 'role', name: 'Analyst', code: 'analyst' },
  // A lead holds the analyst role through include.
  { _id: LEAD, object: 'role', name: 'Lead', code: 'lead', include: [ANALYST] },
];
const ANN = { _id: '0123456789abcdef01234567', email: 'Ann@Demo.test', roles: [] as string[] };

const view = (acl: { type: 'role' | 'account'; target: string }[], active = true) => ({ name: 'v', active, acl });

describe('viewAclVerdict', () => {
  it('refuses an account the acl does not name, and says which entries it has', () => {
    const verdict = viewAclVerdict(view([{ type: 'role', target: 'support' }]), ANN, ROLES);
    expect(verdict).toMatchObject({ allowed: false, addable: true });
    expect(verdict.reason).toContain('the role Support');
  });

  it('lets in the account by _id, by email (any case) or by *', () => {
    expect(viewAclVerdict(view([{ type: 'account', target: ANN._id }]), ANN, ROLES).allowed).toBe(true);
    expect(viewAclVerdict(view([{ type: 'account', target: 'ann@demo.TEST' }]), ANN, ROLES).allowed).toBe(true);
    expect(viewAclVerdict(view([{ type: 'account', target: '*' }]), ANN, ROLES).allowed).toBe(true);
  });

  it('lets in a role by code or _id, held directly, inherited or through include', () => {
    const byCode = view([{ type: 'role', target: 'analyst' }]);
    const byId = view([{ type: 'role', target: ANALYST }]);
    expect(viewAclVerdict(byCode, { ...ANN, roles: [ANALYST] }, ROLES).allowed).toBe(true);
    expect(viewAclVerdict(byId, { ...ANN, inherited_roles: [ANALYST] }, ROLES).allowed).toBe(true);
    expect(viewAclVerdict(byCode, { ...ANN, roles: [LEAD] }, ROLES)).toMatchObject({
      allowed: true,
      reason: expect.stringContaining('Analyst') as string,
    });
    expect(viewAclVerdict(byCode, { ...ANN, roles: [SUPPORT] }, ROLES).allowed).toBe(false);
  });

  it('an org administrator runs any active view; an inactive view runs for nobody', () => {
    const admin = { ...ANN, roles: [ADMINISTRATOR_ROLE_ID] };
    expect(viewAclVerdict(view([]), admin, ROLES).allowed).toBe(true);
    expect(viewAclVerdict(view([{ type: 'account', target: '*' }], false), admin, ROLES)).toMatchObject({
      allowed: false,
      addable: false,
    });
    expect(viewAclVerdict(view([]), ANN, ROLES).reason).toContain('only org administrators');
  });
});

describe('aclWithAccount', () => {
  it('adds the account once, keeping the other entries', () => {
    const acl = [{ type: 'role' as const, target: 'support' }];
    expect(aclWithAccount(acl, ANN._id)).toEqual([...acl, { type: 'account', target: ANN._id }]);
    expect(aclWithAccount(aclWithAccount(acl, ANN._id), ANN._id)).toHaveLength(2);
  });
});
