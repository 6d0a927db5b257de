/**
 * An account's `inherited_roles` (docs/compatibility.md#records-and-routes-as-the-original-shapes-them): the roles it holds through the
 * role graph (roles that include other roles), not directly. Derived, never written by callers:
 * filled into every account document the store writes, and re-derived for every account that
 * holds roles whenever a role is written or deleted, in the same transaction. Access decisions
 * follow `include` themselves (access/roles.ts); this makes the graph visible on the account.
 */
import type { Service } from '../service.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Derivations } from '../objects/stored-record.js';
import type { Doc } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { resolveRoles } from './roles.js';
import { systemUpdate } from '../objects/system-writes.js';

export function inheritedRoleDerivations(svc: Service): Derivations {
  let refreshing = false;
  return {
    derive(orgId: number, def: ObjectDef, doc: Doc): void {
      if (def.name !== 'account') return;
      doc.inherited_roles = inheritedRoles(svc, orgId, doc.roles);
    },
    afterWrite(orgId: number, def: ObjectDef): void {
      if (def.name !== 'role' || refreshing) return;
      refreshing = true;
      try {
        svc.db.transaction(() => refreshAccounts(svc, orgId))();
      } finally {
        refreshing = false;
      }
    },
  };
}

/** Roles reached from `roles` through `include`, existing ones only, without the roles held directly. */
export function inheritedRoles(svc: Service, orgId: number, roles: unknown): string[] {
  const own = Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  if (own.length === 0) return [];
  const roleDef = svc.defs.byName(orgId, 'role');
  if (!roleDef) return [];
  const direct = new Set(own);
  return resolveRoles(svc, { id: orgId }, own).roles.filter(
    (id) => !direct.has(id) && OBJECT_ID_PATTERN.test(id) && svc.store.get(orgId, roleDef, id) !== undefined,
  );
}

function refreshAccounts(svc: Service, orgId: number): void {
  const def = svc.defs.byName(orgId, 'account');
  if (!def) return;
  for (const account of svc.store.withNonEmptyArrays(orgId, def, ['roles', 'inherited_roles'])) {
    const next = inheritedRoles(svc, orgId, account.doc.roles);
    if (JSON.stringify(next) !== JSON.stringify(account.doc.inherited_roles ?? [])) {
      systemUpdate(svc.store, 'derivedRoles', orgId, def, account._id, { inherited_roles: next });
    }
  }
}
