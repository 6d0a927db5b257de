/**
 * The script global `consts` (and `require('consts')`): the constants the original's scripts use,
 * with this service's values, so what a script grants or compares means what it says here.
 * `roles` maps the built-in role names and each role's `code` (and its name in lower case) to the
 * role's _id, as the original does (`consts.roles.administrator`, `consts.roles[c_role]`).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { ACCESS } from '../access/levels.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';

/** Role _ids by built-in name, by each role's code and by its name in lower case. */
export function roleIdsByName(svc: Service, org: Org): Record<string, string> {
  const roles: Record<string, string> = { ...BUILTIN_ROLES };
  const def = svc.defs.byName(org.id, 'role');
  if (def) {
    for (const r of svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 0 })) {
      for (const key of [r.doc.code, typeof r.doc.name === 'string' ? r.doc.name.toLowerCase() : undefined]) {
        if (typeof key === 'string' && key !== '' && !Object.hasOwn(roles, key)) roles[key] = r._id;
      }
    }
  }
  return roles;
}

/**
 * An acl's `role.<name>` entries (`role.administrator`, `role.c_study_participant`) as
 * `role.<_id>`, the form the acl check compares; unknown names are left as they are (they match no one).
 */
export function resolveRoleNames(acl: string[], roles: Record<string, string>): string[] {
  return acl.map((entry) => {
    if (!entry.startsWith('role.')) return entry;
    const name = entry.slice(5);
    return Object.hasOwn(roles, name) ? `role.${roles[name]}` : entry;
  });
}

export function scriptConsts(svc: Service, org: Org): Record<string, unknown> {
  return {
    accessLevels: { ...ACCESS },
    roles: roleIdsByName(svc, org),
    principals: { public: '*', anonymous: '000000000000000000000001' },
    accessPrincipals: { owner: 'owner' },
    accessTargets: { account: 'account', role: 'role' },
  };
}
