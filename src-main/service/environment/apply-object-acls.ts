/**
 * The import side of object ACLs (object-acls.ts): after every object and role of an import exists,
 * the ACLs an object resource carries are resolved by name and stored on its definition.
 */
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { checkAclInput, type AclFields } from '../access/levels.js';
import type { ResourceDoc } from './resources.js';
import { findRole, type ApplyContext } from './apply.js';
import { ACL_KEYS } from './object-acls.js';

/**
 * Sets the ACLs an object resource carries, once every role of the import exists. A resource
 * without them leaves the definition's ACLs as they are. Names that resolve to nothing, and
 * entries the schema route would refuse, are faults naming the entry (`defaultAcl[1].target`).
 */
export function applyObjectAcls(ctx: ApplyContext, doc: ResourceDoc): void {
  if (!ACL_KEYS.some((k) => doc[k] !== undefined)) return;
  const { svc, org } = ctx;
  const def = svc.defs.byName(org.id, String(doc.name));
  if (!def) return; // applyObject has already reported why
  const faults: FaultBody[] = [];
  const next: AclFields = {};
  for (const key of ACL_KEYS) {
    if (doc[key] === undefined) continue;
    const resolved = resolveNames(ctx, doc[key], key, faults);
    next[key] = checkAclInput(resolved, key, () => true, faults, def.name);
  }
  if (faults.length > 0) {
    // Every unresolvable entry in the one reason: the import's fault names this resource only.
    const reason = faults.map((f) => `${f.path ?? ''}: ${f.reason ?? ''}`).join('; ');
    throw fault('validation', 'import', { faults, reason });
  }
  svc.defs.save(org.id, { ...def, ...next } as ObjectDef);
}

/** Role keys to role ids and emails to account ids; anything unresolvable is a child fault. */
function resolveNames(ctx: ApplyContext, value: unknown, key: string, faults: FaultBody[]): unknown {
  if (!Array.isArray(value)) return value; // checkAclInput says what is wrong
  return value.map((raw: unknown, i) => {
    if (typeof raw !== 'object' || raw === null) return raw;
    const e = raw as Record<string, unknown>;
    const at = `${key}[${i}].target`;
    if (e.type === 'role' && typeof e.target === 'string') {
      const role = findRole(ctx, e.target);
      if (!role) faults.push(invalidEntry(at, `No role ${e.target}.`));
      return role ? { ...e, target: role._id } : e;
    }
    if (e.type === 'account' && typeof e.target === 'string' && e.target !== '*') {
      const row = ctx.svc.credentials.byEmail(ctx.org.id, e.target);
      if (!row) faults.push(invalidEntry(at, `No account ${e.target}.`));
      return row ? { ...e, target: row.account_id } : e;
    }
    return e;
  });
}

function invalidEntry(path: string, reason: string): FaultBody {
  return makeFault('validation', 'acl', { path, reason });
}
