/**
 * Role resolution: a principal's roles, with each role's `include` followed transitively, and the
 * scope chains those roles carry (docs/scopes.md#scope-chains).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { VersionedCache } from '../db/data-version.js';

/** Deeper include chains than this are a definition error; the walk stops rather than loop. */
const MAX_ROLES_VISITED = 1000;

export interface ResolvedRoles {
  /** Every role id held, included roles too; ids that name no role are kept (they grant nothing). */
  roles: string[];
  /** The same roles as a set, for membership tests on every request. */
  roleSet: ReadonlySet<string>;
  /** Scope chains of every held role, in first-seen order, without duplicates. */
  scopes: string[];
}

/** The role ids an account holds directly: `roles` and `inherited_roles`. */
export function accountRoleIds(account: StoredRecord): string[] {
  return [...idList(account.doc.roles), ...idList(account.doc.inherited_roles)];
}

const caches = new WeakMap<Service, VersionedCache<string, ResolvedRoles>>();

/**
 * Follows `include` from the given role ids (cycles are harmless: each role is visited once).
 * Every request resolves its caller's roles, so answers are cached until anything is written.
 */
export function resolveRoles(svc: Service, org: Pick<Org, 'id'>, roleIds: readonly string[]): ResolvedRoles {
  let cache = caches.get(svc);
  if (!cache) {
    cache = new VersionedCache(svc.versions, 1000);
    caches.set(svc, cache);
  }
  return cache.get(`${org.id}:${[...roleIds].sort().join(',')}`, () => walkRoles(svc, org, roleIds));
}

function walkRoles(svc: Service, org: Pick<Org, 'id'>, roleIds: readonly string[]): ResolvedRoles {
  const def = svc.defs.byName(org.id, 'role');
  const seen = new Set<string>();
  const scopes = new Set<string>();
  const pending = roleIds.filter((id) => OBJECT_ID_PATTERN.test(id));
  while (pending.length > 0 && seen.size < MAX_ROLES_VISITED) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const role = def ? svc.store.get(org.id, def, id) : undefined;
    if (!role) continue;
    for (const chain of stringList(role.doc.scopes)) scopes.add(chain);
    pending.push(...idList(role.doc.include).filter((next) => !seen.has(next)));
  }
  return { roles: [...seen], roleSet: seen, scopes: [...scopes] };
}

function idList(value: unknown): string[] {
  return stringList(value).filter((id) => OBJECT_ID_PATTERN.test(id));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
