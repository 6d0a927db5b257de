/**
 * Whether an account may run a view, decided as the service decides it (views/run-view.ts on the
 * service side) — so a view token is not minted for an account the view then refuses with 403
 * `accessDenied.view`: an inactive view runs for nobody; an org administrator runs every active
 * view; anyone else needs an acl entry naming the account (its `_id`, its email, or `*`) or a role
 * it holds, directly, inherited or through a role's `include`.
 */
import { ADMINISTRATOR_ROLE_ID, resolveRoleScopes, type Role } from '../../api/roles';
import type { ViewAclEntry, ViewRecord } from '../../api/views';

export interface AclAccount {
  _id: string;
  email?: string;
  roles?: string[];
  inherited_roles?: string[];
}

export type AclVerdict =
  | { allowed: true; reason: string }
  | {
      allowed: false;
      reason: string;
      /** The account can be let in by an acl entry (not for an inactive view). */ addable: boolean;
    };

const OBJECT_ID = /^[0-9a-f]{24}$/i;

function entryLabel(entry: ViewAclEntry, roles: readonly Role[]): string {
  if (entry.type === 'account') return entry.target === '*' ? 'every account' : `the account ${entry.target}`;
  const role = roles.find((r) => r._id === entry.target || r.code === entry.target);
  return `the role ${role?.name ?? entry.target}`;
}

export function viewAclVerdict(
  view: Pick<ViewRecord, 'name' | 'active' | 'acl'>,
  account: AclAccount,
  roles: readonly Role[],
): AclVerdict {
  if (view.active === false) {
    return { allowed: false, reason: `The view ${view.name} is inactive: it runs for nobody.`, addable: false };
  }
  const held = new Set([
    ...(account.roles ?? []),
    ...(account.inherited_roles ?? []),
    ...resolveRoleScopes(roles, [...(account.roles ?? []), ...(account.inherited_roles ?? [])]).roles.map((r) => r._id),
  ]);
  if (held.has(ADMINISTRATOR_ROLE_ID)) {
    return { allowed: true, reason: 'An org administrator runs every active view, whatever its acl.' };
  }
  const email = account.email?.toLowerCase();
  for (const entry of view.acl ?? []) {
    const matches =
      entry.type === 'account'
        ? entry.target === '*' ||
          entry.target.toLowerCase() === account._id.toLowerCase() ||
          (!OBJECT_ID.test(entry.target) && email !== undefined && entry.target.toLowerCase() === email)
        : roles.some((r) => (r._id === entry.target || r.code === entry.target) && held.has(r._id)) ||
          held.has(entry.target.toLowerCase());
    if (matches) return { allowed: true, reason: `The view's acl lets ${entryLabel(entry, roles)} run it.` };
  }
  const acl = view.acl ?? [];
  return {
    allowed: false,
    reason:
      acl.length === 0
        ? `The view's acl is empty: only org administrators may run it.`
        : `The view's acl (${acl.map((e) => entryLabel(e, roles)).join(', ')}) names neither this account nor a role it holds.`,
    addable: true,
  };
}

/** The acl with an entry for the account added (by `_id`, the form the service resolves fastest). */
export function aclWithAccount(acl: readonly ViewAclEntry[] | undefined, accountId: string): ViewAclEntry[] {
  const entries = [...(acl ?? [])];
  if (!entries.some((e) => e.type === 'account' && e.target === accountId)) {
    entries.push({ type: 'account', target: accountId });
  }
  return entries;
}
