/**
 * Instance-level access: the caller's level on a record (for the `access` field and for write
 * checks) and the same rule as SQL (so lists only ever hold what the caller may read, and paging
 * stays correct). The two must agree: acl.test.ts checks them against each other on random ACLs,
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
import { statements } from '../db/statements.js';
import { jsonExtract, propertyExpression, quoteTable, type KeyColumns } from '../query/expressions.js';
import { or, sql, type SqlFragment } from '../query/sql-fragment.js';

/** The read condition is a compiler fragment: `store.list` takes it as one more `extraWhere`. */
export type SqlCondition = SqlFragment;

// Property reads in the conditions come from the compiler's expressions, with the key columns of
// the table they read (expressions.ts), so the ACL turns paths into SQL exactly as queries and
// indexes do.
const ID = propertyExpression('_id');

/** Built once per connections table's key columns (the store keeps one map per table). */
const connectionSql = new WeakMap<KeyColumns, ReturnType<typeof buildConnectionExpressions>>();

function connectionExpressions(columns: KeyColumns) {
  let built = connectionSql.get(columns);
  if (built === undefined) connectionSql.set(columns, (built = buildConnectionExpressions(columns)));
  return built;
}

/** The connection row of the correlated subqueries is `acl_c`; its table's key columns apply. */
function buildConnectionExpressions(columns: KeyColumns) {
  const conn = (path: string) => {
    const column = columns.get(path);
    return column === undefined ? jsonExtract('acl_c.doc', path) : `acl_c.${column}`;
  };
  return {
    contextId: conn('context._id'),
    access: conn('access'),
    // Active connections count: `state` absent or `active` (a pending invitation grants nothing
    // yet). A connection never grants more than script level (7).
    match: `${conn('context.object')} = ?
  AND ${conn('target._id')} = ?
  AND coalesce(${conn('state')}, 'active') = 'active'`,
  };
}

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
 * The SQL condition "the caller may read this row", for `store.list`'s `extraWhere`; undefined
 * when every row qualifies. Mirrors `levelsOf(...) >= read`.
 */
export function readableCondition(svc: Service, org: Org, caller: Caller, def: ObjectDef): SqlCondition | undefined {
  if (caller.orgAdmin || caller.skipAcl) return undefined;
  // With a grant of read or more, any access at all makes a row readable.
  const floor = caller.grant !== undefined && caller.grant >= ACCESS.read ? ACCESS.public : ACCESS.read;
  const entries = defaultAcl(def);
  if (constantLevel(caller, entries) >= floor) return undefined;
  const alternatives: SqlCondition[] = [];
  // An anonymous caller owns nothing and is the target of no connection (see isOwner).
  if (caller.anonymous) return or(alternatives);
  const owner = Math.max(0, ...entries.filter((e) => e.type === 'owner').map((e) => e.allow));
  if (owner >= floor) alternatives.push(ownerCondition(svc, org, def, caller.accountId));
  const connected = connectionCondition(svc, org, caller, def, floor);
  if (connected) alternatives.push(connected);
  if (def.name === 'connection' && ACCESS.read >= floor) {
    alternatives.push(
      sql(`${propertyExpression('target._id', svc.store.keyColumns(org.id, def))} = ?`, caller.accountId),
    );
  }
  return or(alternatives); // no alternative at all: FALSE
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

function ownerCondition(svc: Service, org: Org, def: ObjectDef, accountId: string): SqlCondition {
  const owner = def.name === 'account' ? ID : propertyExpression('owner._id', svc.store.keyColumns(org.id, def));
  return sql(`${owner} = ?`, accountId);
}

function targetId(record: StoredRecord): unknown {
  return (record.doc.target as { _id?: unknown } | undefined)?._id;
}

/** The connections table of the org (none for connections themselves), and its expressions. */
function connectionTable(svc: Service, org: Org, def: ObjectDef) {
  if (def.name === 'connection') return undefined;
  const connectionDef = svc.defs.byName(org.id, 'connection');
  if (!connectionDef) return undefined;
  // keyColumns ensures the table, so its name needs no second ensureCollection.
  const expressions = connectionExpressions(svc.store.keyColumns(org.id, connectionDef));
  return { table: svc.store.table(org.id, connectionDef), ...expressions };
}

function connectionCondition(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  floor: number,
): SqlCondition | undefined {
  const c = connectionTable(svc, org, def);
  if (!c) return undefined;
  const table = svc.store.table(org.id, def);
  return sql(
    `EXISTS (SELECT 1 FROM ${quoteTable(c.table)} AS acl_c WHERE ${c.contextId} = ${quoteTable(table)}._id
      AND ${c.match} AND min(${c.access}, ${MAX_SHARED_LEVEL}) >= ?)`,
    def.name,
    caller.accountId,
    floor,
  );
}

/** Highest active connection level of the caller on each of the given instances. */
function connectionLevels(svc: Service, org: Org, caller: Caller, def: ObjectDef, ids: string[]): Map<string, number> {
  const levels = new Map<string, number>();
  const c = connectionTable(svc, org, def);
  if (!c || ids.length === 0) return levels;
  const rows = statements(svc.db)
    .dynamic(
      `SELECT ${c.contextId} AS id, max(min(${c.access}, ${MAX_SHARED_LEVEL})) AS level
       FROM ${quoteTable(c.table)} AS acl_c
       WHERE ${c.contextId} IN (SELECT value FROM json_each(?)) AND ${c.match}
       GROUP BY 1`,
    )
    .all(JSON.stringify(ids), def.name, caller.accountId) as { id: string; level: number | null }[];
  for (const row of rows) if (typeof row.level === 'number') levels.set(row.id, row.level);
  return levels;
}
