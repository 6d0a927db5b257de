/**
 * Instance-level access: the caller's level on a record (for the `access` field and for write
 * checks) and the same rule as a row filter that the query compiler turns into SQL (so lists only
 * ever hold what the caller may read, and paging stays correct). The two must agree: acl.test.ts checks them against each other on random ACLs,
 * records and callers (a differential test), so a rule changed on one side only fails there.
 *
 * level = org admin ? 8
 *       : max(matching default-ACL entries, active connections to the caller, connection target)
 * then  skipAcl → at least read;  grant → at least the grant, on instances with any access at all;
 * then  at most share on admin-written types (scripts, views, deployments).
 * The anonymous caller (a route run as no one) matches no account entry, owns nothing and is the
 * target of no connection: only role entries could reach it, and it holds no role.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { StoredRecord } from '../objects/stored-record.js';
import {
  ACCESS,
  ADMIN_WRITTEN_CEILING,
  ADMIN_WRITTEN_TYPES,
  MAX_SHARED_LEVEL,
  defaultAcl,
  type AclEntry,
} from './levels.js';
import type { Caller } from './caller.js';
import type { RowFilter } from '../query/row-filters.js';

/** The caller's level on each record; one query for the connections of the whole page. */
export function levelsOf(svc: Service, org: Org, caller: Caller, def: ObjectDef, records: StoredRecord[]): number[] {
  if (caller.orgAdmin) return records.map(() => ACCESS.admin);
  // No connections to look up: an anonymous caller is the target of none.
  if (caller.anonymous)
    return records.map((r) => cappedLevel(def, effectiveLevel(caller, recordLevel(caller, def, r, 0))));
  const connections = connectionLevels(
    svc,
    org,
    caller,
    def,
    records.map((r) => r._id),
  );
  return records.map((r) =>
    cappedLevel(def, effectiveLevel(caller, recordLevel(caller, def, r, connections.get(r._id) ?? 0))),
  );
}

/**
 * No one but an org administrator (handled before this) holds more than share on an admin-written
 * type, whatever ACL was stored, connection made or grant given (levels.ts ADMIN_WRITTEN_TYPES).
 * Read stays as the ACL says, so the SQL read condition needs no such cap.
 */
function cappedLevel(def: ObjectDef, level: number): number {
  return ADMIN_WRITTEN_TYPES.has(def.name) ? Math.min(level, ADMIN_WRITTEN_CEILING) : level;
}

export function levelOf(svc: Service, org: Org, caller: Caller, def: ObjectDef, record: StoredRecord): number {
  return levelsOf(svc, org, caller, def, [record])[0] ?? 0;
}

/** The caller's level on a record from everything but connections (ACL, ownership, roles). */
export function levelWithoutConnections(caller: Caller, def: ObjectDef, record: StoredRecord): number {
  return caller.orgAdmin ? ACCESS.admin : cappedLevel(def, recordLevel(caller, def, record, 0));
}

/** skipAcl and grant on top of the ACL's answer. */
export function effectiveLevel(caller: Caller, level: number): number {
  if (caller.orgAdmin) return ACCESS.admin;
  let out = level;
  if (caller.skipAcl) out = Math.max(out, ACCESS.read);
  // "objects accessible to the token": the grant raises a level, it never creates one.
  if (caller.grant !== undefined && out >= ACCESS.public) out = Math.max(out, caller.grant);
  return out;
}

/**
 * The lowest level that makes a row readable: read, or with a grant of read or more any access at
 * all ("objects accessible to the token", see effectiveLevel).
 */
export function readFloor(caller: Caller): number {
  return caller.grant !== undefined && caller.grant >= ACCESS.read ? ACCESS.public : ACCESS.read;
}

/**
 * The condition "the caller may read this row" as a filter for `store.list` (the query compiler
 * turns it into SQL, query/row-filters.ts); undefined when every row qualifies. Mirrors
 * `levelsOf(...) >= read`. `everyInstance`: a level the caller holds on every instance whatever
 * its ACL (a view's objectAcl, views/run-view.ts); when it reaches the floor every row qualifies.
 */
export function readableCondition(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  everyInstance = 0,
): RowFilter | undefined {
  if (caller.orgAdmin || caller.skipAcl) return undefined;
  const floor = readFloor(caller);
  if (everyInstance >= floor) return undefined;
  const entries = defaultAcl(def);
  if (constantLevel(caller, entries) >= floor) return undefined;
  const alternatives: RowFilter[] = [];
  // An anonymous caller owns nothing and is the target of no connection (see isOwner): FALSE.
  if (caller.anonymous) return { kind: 'anyOf', filters: alternatives };
  const owner = Math.max(0, ...entries.filter((e) => e.type === 'owner').map((e) => e.allow));
  // The owner of an account is the account itself (isOwner).
  const ownerPath = def.name === 'account' ? '_id' : 'owner._id';
  if (owner >= floor) alternatives.push({ kind: 'equals', path: ownerPath, value: caller.accountId });
  const connections = connectionsOf(svc, org, def);
  if (connections) {
    const shared = { connections, object: def.name, accountId: caller.accountId, floor, cap: MAX_SHARED_LEVEL };
    alternatives.push({ kind: 'sharedWith', ...shared });
  }
  if (def.name === 'connection' && ACCESS.read >= floor) {
    alternatives.push({ kind: 'equals', path: 'target._id', value: caller.accountId });
  }
  return { kind: 'anyOf', filters: alternatives }; // no alternative at all: FALSE
}

function recordLevel(caller: Caller, def: ObjectDef, record: StoredRecord, connection: number): number {
  const entries = defaultAcl(def);
  let level = Math.max(constantLevel(caller, entries), connection);
  if (isOwner(caller, def, record)) {
    for (const e of entries) if (e.type === 'owner') level = Math.max(level, e.allow);
  }
  if (def.name === 'connection' && !caller.anonymous && targetId(record) === caller.accountId) {
    level = Math.max(level, ACCESS.read);
  }
  return level;
}

/** Entries whose match does not depend on the record: roles and accounts. */
function constantLevel(caller: Caller, entries: AclEntry[]): number {
  let level = 0;
  for (const e of entries) {
    if (e.type === 'role' && caller.roles.has(e.target)) level = Math.max(level, e.allow);
    if (e.type === 'account' && matchesAccountTarget(caller, e.target)) level = Math.max(level, e.allow);
  }
  return level;
}

/**
 * An `account` ACL target: one account by id, or `*` for every logged-in account. The anonymous
 * caller is no account: `*` does not match it, nor does any id.
 */
export function matchesAccountTarget(caller: Caller, target: string): boolean {
  if (caller.anonymous) return false;
  return target === '*' || target === caller.accountId;
}

/**
 * The owner of an account is the account itself; of anything else, the account that created it.
 * Never the anonymous caller: records an anonymous route once created carry `owner: {_id: ""}`,
 * and matching that would hand them to every later anonymous caller.
 */
function isOwner(caller: Caller, def: ObjectDef, record: StoredRecord): boolean {
  if (caller.anonymous) return false;
  if (def.name === 'account') return record._id === caller.accountId;
  const owner = record.doc.owner as { _id?: unknown } | undefined;
  return typeof owner === 'object' && owner !== null && owner._id === caller.accountId;
}

function targetId(record: StoredRecord): unknown {
  return (record.doc.target as { _id?: unknown } | undefined)?._id;
}

/** The connection definition whose records share instances of `def` (none for connections themselves). */
function connectionsOf(svc: Service, org: Org, def: ObjectDef): ObjectDef | undefined {
  return def.name === 'connection' ? undefined : svc.defs.byName(org.id, 'connection');
}

/** Highest active connection level of the caller on each of the given instances. */
function connectionLevels(svc: Service, org: Org, caller: Caller, def: ObjectDef, ids: string[]): Map<string, number> {
  const connections = connectionsOf(svc, org, def);
  if (!connections || ids.length === 0) return new Map();
  return svc.store.connectionLevels(org.id, connections, def.name, caller.accountId, ids, MAX_SHARED_LEVEL);
}
