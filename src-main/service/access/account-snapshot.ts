/**
 * What authentication and access checks read from the calling account on every request: its email
 * and role lists. Read with one statement (three values, not the whole document) and cached until
 * anything is written, like the role graph they feed.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { VersionedCache } from '../db/data-version.js';

export interface AccountSnapshot {
  email: string;
  roles: readonly string[];
  inheritedRoles: readonly string[];
  /** The record's `locked` flag (set by an administrator or a lock-out). */
  locked: boolean;
}

const caches = new WeakMap<Service, VersionedCache<string, AccountSnapshot | undefined>>();

/** The account's email and role lists; undefined when the account does not exist. */
export function accountSnapshot(svc: Service, org: Org, accountId: string): AccountSnapshot | undefined {
  let cache = caches.get(svc);
  if (!cache) {
    cache = new VersionedCache(svc.versions, 10_000);
    caches.set(svc, cache);
  }
  return cache.get(`${org.id}:${accountId}`, () => readSnapshot(svc, org, accountId));
}

function readSnapshot(svc: Service, org: Org, accountId: string): AccountSnapshot | undefined {
  const def = svc.defs.byName(org.id, 'account');
  const values = def && svc.store.getValues(org.id, def, accountId, ['email', 'roles', 'inherited_roles', 'locked']);
  if (!values) return undefined;
  return {
    email: typeof values.email === 'string' ? values.email : '',
    roles: jsonStrings(values.roles),
    inheritedRoles: jsonStrings(values.inherited_roles),
    locked: values.locked === 1,
  };
}

/** A string list as `json_extract` returns it (JSON text), or nothing. */
function jsonStrings(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  const parsed = JSON.parse(value) as unknown;
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}
