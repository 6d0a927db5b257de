import { describe, expect, it } from 'vitest';
import { ADMINISTRATOR_ROLE_ID, type Role } from '../../api/roles';
import { roleGrant } from './role-facts';

const role = (id: string, name: string, scopes: string[] = [], include: string[] = []): Role => ({
  _id: id,
  object: 'role',
  name,
  scopes,
  include,
});

const admin = role(ADMINISTRATOR_ROLE_ID, 'Administrator');
const provider = role('000000000000000000000005', 'Provider');
const lead = role('a'.repeat(24), 'Lead', ['object.read.account'], [ADMINISTRATOR_ROLE_ID]);
const roles = [admin, provider, lead];

describe('roleGrant', () => {
  it('the built-in Administrator role makes an org administrator even with no scopes', () => {
    const grant = roleGrant(roles, admin, [], []);
    expect(grant.scopes).toEqual([]);
    expect(grant.orgAdminVia?._id).toBe(ADMINISTRATOR_ROLE_ID);
  });

  it('a role that includes Administrator (even through another role) makes one too', () => {
    expect(roleGrant(roles, lead, ['object.read.account'], [ADMINISTRATOR_ROLE_ID]).orgAdminVia?.name).toBe(
      'Administrator',
    );
    const viaLead = roleGrant(roles, null, [], [lead._id]);
    expect(viaLead.orgAdminVia?.name).toBe('Administrator');
    expect(viaLead.scopes.map((s) => `${s.chain}@${s.role.name}`)).toEqual(['object.read.account@Lead']);
  });

  it('other roles grant only their chains; the edited include list counts, not the saved one', () => {
    expect(roleGrant(roles, provider, ['a.b'], []).orgAdminVia).toBeNull();
    expect(roleGrant(roles, lead, ['object.read.account'], []).orgAdminVia).toBeNull();
    expect(roleGrant(roles, null, ['x'], []).scopes.map((s) => s.chain)).toEqual(['x']);
  });
});
