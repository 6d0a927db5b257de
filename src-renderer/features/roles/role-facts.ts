import { ADMINISTRATOR_ROLE_ID, resolveRoleScopes, type Role } from '../../api/roles';

export interface RoleGrant {
  /** Every chain the role carries, its own and its included roles', each once in first-seen order. */
  scopes: { chain: string; role: Role }[];
  /**
   * The role through which holding this one makes the account an org administrator (admin level on
   * everything, whatever the scopes; src-main/service/access/caller.ts `orgAdmin`), or null.
   */
  orgAdminVia: Role | null;
}

/**
 * What holding a role as edited grants, resolved the way the service resolves it: its own chains as
 * typed plus every chain of the roles it includes (each role once), and whether the Administrator
 * role is among the roles reached.
 */
export function roleGrant(
  roles: readonly Role[],
  role: Role | null,
  chains: readonly string[],
  include: readonly string[],
): RoleGrant {
  const draft: Role = {
    ...(role ?? { _id: '__draft__', object: 'role', name: 'this role' }),
    scopes: [...chains],
    include: [...include],
  };
  const others = roles.filter((r) => r._id !== draft._id);
  const resolved = resolveRoleScopes([draft, ...others], [draft._id]);
  const admin = resolved.roles.find((r) => r._id === ADMINISTRATOR_ROLE_ID) ?? null;
  return { scopes: resolved.scopes, orgAdminVia: admin };
}
