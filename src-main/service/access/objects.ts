/**
 * The access model of object routes (docs/scopes.md), in one place for routes/objects.ts:
 * who the caller is (access/caller.ts), their level on instances (access/acl.ts, in JS and as
 * SQL), what their token's scopes allow (access/scope-guard.ts), and the rules that belong to
 * particular objects: who may create, which account properties only administrators change, and
 * what sharing through a connection requires.
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { ACCESS, ADMIN_WRITTEN_TYPES, MAX_SHARED_LEVEL, createAcl } from './levels.js';
import { levelOf, levelWithoutConnections, matchesAccountTarget } from './acl.js';
import { callerOf, type Caller } from './caller.js';
import { type StoredRecord } from '../objects/stored-record.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { Json } from '../objects/validate.js';
import { systemDelete } from '../objects/system-writes.js';

export { ACCESS, REQUIRED } from './levels.js';
export type { Caller } from './caller.js';
export { levelOf, levelsOf, readableCondition } from './acl.js';
export * from './scope-guard.js';

/**
 * Org administrators and `service/skc` tokens skip the create ACL; others must match an entry.
 * Admin-written types (scripts, views, deployments) are created by org administrators alone.
 */
export function canCreate(caller: Caller, def: ObjectDef): boolean {
  if (caller.orgAdmin) return true;
  if (ADMIN_WRITTEN_TYPES.has(def.name)) return false;
  if (caller.bypassCreateAcl) return true;
  // An anonymous caller creates nothing: it would own what it made, and so would every later one.
  if (caller.anonymous) return false;
  return createAcl(def).some(
    (e) =>
      (e.type === 'role' && caller.roles.has(e.target)) ||
      (e.type === 'account' && matchesAccountTarget(caller, e.target)),
  );
}

/**
 * Account properties that decide privilege or identity; only org administrators set them, on
 * create and on update, whatever level an ACL or a grant gives (else an update grant on an account
 * would be a way to make oneself an administrator).
 */
const ADMIN_ONLY_ACCOUNT_PROPERTIES = new Set(['roles', 'state', 'locked', 'email']);

export function assertAccountPropertiesAllowed(
  caller: Caller,
  def: ObjectDef,
  body: unknown,
  mode: 'create' | 'update',
): void {
  if (caller.orgAdmin || def.name !== 'account' || typeof body !== 'object' || body === null) return;
  // Creating an account must name its email; the rest stays administrator-only.
  const refused = Object.keys(body).filter(
    (key) => ADMIN_ONLY_ACCOUNT_PROPERTIES.has(key) && !(mode === 'create' && key === 'email'),
  );
  if (refused.length > 0) {
    throw fault('accessDenied', 'property', {
      path: refused[0],
      reason: `Only org administrators can set ${refused.join(', ')} of an account.`,
    });
  }
}

/**
 * Sharing: a connection grants its target a level on its context, so making or changing one needs
 * share access (4) on the context, and may grant at most the sharer's own level (never admin).
 * `service/skc` does not skip this: it is an access check on another instance, not the create ACL.
 */
export function assertConnectionAllowed(svc: Service, org: Org, caller: Caller, values: Record<string, Json>): void {
  const context = values.context as { _id?: unknown; object?: unknown } | undefined;
  const contextDef = typeof context?.object === 'string' ? svc.defs.byName(org.id, context.object) : undefined;
  if (!contextDef || contextDef.name === 'connection' || typeof context?._id !== 'string') {
    throw fault('validation', 'invalidReference', { path: 'context', reason: 'context must reference an object.' });
  }
  const record = svc.store.get(org.id, contextDef, context._id);
  const level = record ? levelOf(svc, org, caller, contextDef, record) : 0;
  if (level < ACCESS.read) {
    throw fault('notFound', 'instance', { path: 'context', reason: `No ${contextDef.name} with _id ${context._id}.` });
  }
  if (level < ACCESS.share) {
    throw fault('accessDenied', undefined, {
      path: 'context',
      reason: `Sharing needs share access (4) on the ${contextDef.name}; you have ${level}.`,
    });
  }
  const granted = values.access;
  const ceiling = Math.min(level, MAX_SHARED_LEVEL);
  if (typeof granted !== 'number' || !Number.isInteger(granted) || granted < ACCESS.public || granted > ceiling) {
    throw fault('accessDenied', undefined, {
      path: 'access',
      reason: `A connection you make may grant access 1 to ${ceiling}.`,
    });
  }
  const target = values.target as { _id?: unknown } | undefined;
  if (target !== undefined) {
    const accountDef = svc.defs.byName(org.id, 'account');
    const id = target._id;
    if (
      typeof id !== 'string' ||
      !OBJECT_ID_PATTERN.test(id) ||
      !accountDef ||
      !svc.store.get(org.id, accountDef, id)
    ) {
      throw fault('validation', 'invalidReference', { path: 'target', reason: 'target must reference an account.' });
    }
  }
}

/** The context (the shared instance) of a connection record, when it still exists. */
function connectionContext(svc: Service, org: Org, connection: StoredRecord) {
  const context = connection.doc.context as { _id?: unknown; object?: unknown } | undefined;
  const def = typeof context?.object === 'string' ? svc.defs.byName(org.id, context.object) : undefined;
  const record = def && typeof context?._id === 'string' ? svc.store.get(org.id, def, context._id) : undefined;
  return def && record ? { def, record } : undefined;
}

/**
 * Revoking (issue #13 item 3): whoever may share the connection's context (share level or more)
 * may see and delete every connection on it, whoever made it — the record's owner can always
 * take back access a grantee passed on. Their level on the connection is then delete.
 */
export function connectionLevelViaContext(svc: Service, org: Org, caller: Caller, connection: StoredRecord): number {
  const context = connectionContext(svc, org, connection);
  if (!context) return 0;
  return levelOf(svc, org, caller, context.def, context.record) >= ACCESS.share ? ACCESS.delete : 0;
}

/**
 * A connection lasts only while the account that made it (its owner, the granter) may still share
 * the context. After a connection on `contextId` is deleted or changed, the valid connections are
 * found from the roots: those whose granter may share without any connection (owner, ACL, roles,
 * org administrator), then those whose granter is the target of a valid connection at share level
 * or more, and so on. Every other connection on the context is deleted — also rings of grantees
 * sharing with one another after the owner revoked the first share. Runs inside the caller's write
 * transaction.
 */
export function dropConnectionsOfRevokedGranters(svc: Service, org: Org, contextId: string): number {
  const def = svc.defs.byName(org.id, 'connection');
  if (!def) return 0;
  const query = parseListQuery({ limit: '1000' }, def);
  const { rows } = svc.store.list(org.id, def, query, [{ kind: 'equals', path: 'context._id', value: contextId }]);
  const context = rows[0] ? connectionContext(svc, org, rows[0]) : undefined;
  if (!context) return 0;
  const granterOf = (c: StoredRecord) => (c.doc.owner as { _id?: unknown } | undefined)?._id;
  const roots = new Map<unknown, boolean>();
  const isRoot = (accountId: unknown) => {
    if (typeof accountId !== 'string') return false;
    if (!roots.has(accountId)) {
      const asGranter = callerOf(svc, { org, principal: { accountId, email: '', roles: [] } });
      roots.set(accountId, levelWithoutConnections(asGranter, context.def, context.record) >= ACCESS.share);
    }
    return roots.get(accountId)!;
  };
  const valid = new Set<string>();
  const sharers = new Set<unknown>();
  for (let changed = true; changed;) {
    changed = false;
    for (const c of rows) {
      if (valid.has(c._id) || !(isRoot(granterOf(c)) || sharers.has(granterOf(c)))) continue;
      valid.add(c._id);
      const active = (c.doc.state ?? 'active') === 'active';
      if (active && typeof c.doc.access === 'number' && c.doc.access >= ACCESS.share) {
        sharers.add((c.doc.target as { _id?: unknown } | undefined)?._id);
      }
      changed = true;
    }
  }
  let dropped = 0;
  for (const c of rows) {
    if (!valid.has(c._id) && systemDelete(svc.store, 'connectionCleanup', org.id, def, c._id)) dropped++;
  }
  return dropped;
}
