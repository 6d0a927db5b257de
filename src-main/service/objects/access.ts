import { ObjectStore } from './store.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Principal } from '../http/context.js';
import { isOrgAdmin } from '../http/context.js';

/** Access levels of decisions §7. */
export const ACCESS = {
  public: 1,
  connected: 2,
  read: 3,
  share: 4,
  update: 5,
  delete: 6,
  script: 7,
  admin: 8,
} as const;

export interface ReadScope {
  /** The level the caller holds on every record this scope lets through. */
  level: number;
  /** Conditions added to the SQL so lists only hold what the caller may read. */
  extraWhere: { sql: string; params: unknown[] }[];
}

/**
 * Interim access model until scoped roles, ACLs and connections land (TODO(#5)): org
 * administrators hold admin level on everything; other accounts read their own account and read
 * custom objects; only administrators write, except an account updating itself.
 */
export function readScope(principal: Principal, def: ObjectDef): ReadScope {
  if (isOrgAdmin(principal)) return { level: ACCESS.admin, extraWhere: [] };
  if (def.name === 'account') return { level: ACCESS.update, extraWhere: [ObjectStore.idEquals(principal.accountId)] };
  return { level: ACCESS.read, extraWhere: [] };
}

export function canWrite(principal: Principal, def: ObjectDef, id?: string): boolean {
  return isOrgAdmin(principal) || (def.name === 'account' && id === principal.accountId);
}

export function canRead(principal: Principal, def: ObjectDef, id: string): boolean {
  return isOrgAdmin(principal) || def.name !== 'account' || id === principal.accountId;
}

/** Account properties an account may not change on itself. */
const SELF_PROTECTED = new Set(['roles', 'state', 'locked', 'email']);

export function selfProtectedProperties(principal: Principal, def: ObjectDef, body: Record<string, unknown>): string[] {
  if (isOrgAdmin(principal) || def.name !== 'account') return [];
  return Object.keys(body).filter((k) => SELF_PROTECTED.has(k));
}
