/**
 * An object definition's `defaultAcl` and `createAcl` in environment exports and imports.
 *
 * Stored ACL entries name roles and accounts by `_id`, which means nothing in another org: exports
 * name a role by its key (code, else name) and an account by its email (resources.ts), and imports
 * resolve them back. Objects are applied before roles (roles' scopes may name object types), so an
 * ACL naming a role of the same import is applied in a pass after every role exists, like role
 * includes (apply-object-acls.ts).
 */

export const ACL_KEYS = ['defaultAcl', 'createAcl'] as const;

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
