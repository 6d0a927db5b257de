import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { PrincipalLookup } from '../access/principal.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';

const OBJECT_ID = /^[0-9a-f]{24}$/i;
const BUILTIN_ROLE_IDS = new Set<string>(Object.values(BUILTIN_ROLES));

export type { PrincipalLookup };

/**
 * Resolves the account an app or a principal override names (an account _id or an email) to a
 * Principal. Roles, locked accounts and anything that is not an account of this org are refused
 * with a reason the caller turns into its own fault.
 */
export function lookupAccountPrincipal(svc: Service, org: Org, idOrEmail: string): PrincipalLookup {
  const value = idOrEmail.trim();
  let accountId: string | undefined;
  if (OBJECT_ID.test(value)) {
    const id = value.toLowerCase();
    if (isRole(svc, org, id)) return { problem: 'A role cannot be the calling principal.' };
    accountId = id;
  } else if (value.includes('@') && value.length <= 254) {
    accountId = svc.credentials.byEmail(org.id, value)?.account_id;
  }
  const def = svc.defs.byName(org.id, 'account');
  const account = accountId && def ? svc.store.get(org.id, def, accountId) : undefined;
  if (!account) return { problem: 'The principal must be an account of this org.' };
  if (account.doc.locked === true) return { problem: 'The principal account is locked.' };
  return {
    principal: {
      accountId: account._id,
      email: String(account.doc.email ?? ''),
      roles: Array.isArray(account.doc.roles) ? (account.doc.roles as string[]) : [],
    },
  };
}

function isRole(svc: Service, org: Org, id: string): boolean {
  if (BUILTIN_ROLE_IDS.has(id)) return true;
  const roleDef = svc.defs.byName(org.id, 'role');
  return roleDef !== undefined && svc.store.get(org.id, roleDef, id) !== undefined;
}
