/**
 * An object definition's `defaultAcl` and `createAcl` in environment exports and imports.
 *
 * Stored ACL entries name roles and accounts by `_id`, which means nothing in another org: exports
 * name a role by its key (code, else name) and an account by its email, and imports resolve them
 * back. Objects are applied before roles (roles' scopes may name object types), so an ACL naming a
 * role of the same import is applied in a pass after every role exists, like role includes
 * (apply-object-acls.ts).
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { readEntries, type AclEntry, type AclFields } from '../access/levels.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';

export const ACL_KEYS = ['defaultAcl', 'createAcl'] as const;

/** An ACL entry as exported: role targets are role keys, account targets emails (or `*`). */
interface ExportedEntry {
  type: AclEntry['type'];
  target?: string;
  allow: number;
}

/** The ACLs the definition stores (not its fallbacks: those are the same in every org), by name. */
export function exportedAcls(
  svc: Service,
  org: Org,
  def: ObjectDef,
  roleKeys: Map<string, string>,
): Partial<Record<(typeof ACL_KEYS)[number], ExportedEntry[]>> {
  const out: Partial<Record<(typeof ACL_KEYS)[number], ExportedEntry[]>> = {};
  for (const key of ACL_KEYS) {
    const stored = (def as ObjectDef & AclFields)[key];
    if (stored === undefined) continue;
    out[key] = readEntries(stored).map((e) => {
      if (e.type === 'role') return { ...e, target: roleKeys.get(e.target) ?? e.target };
      if (e.type === 'account' && e.target !== '*') {
        return { ...e, target: svc.credentials.byAccount(org.id, e.target)?.email ?? e.target };
      }
      return e;
    });
  }
  return out;
}

/** The role keys an object resource's ACLs name (`manifest-dependencies`). */
export function aclRoleKeys(doc: Readonly<Record<string, unknown>>): string[] {
  const keys: string[] = [];
  for (const key of ACL_KEYS) {
    const entries = doc[key];
    if (!Array.isArray(entries)) continue;
    for (const e of entries as { type?: unknown; target?: unknown }[]) {
      if (e && e.type === 'role' && typeof e.target === 'string') keys.push(e.target);
    }
  }
  return keys;
}
