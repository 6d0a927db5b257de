/**
 * Records of one object type as one caller may touch them: list, count, read, create, patch and
 * delete, each with the access model of access/objects.ts (token scopes first, then the caller's
 * level on the instance, then the rules of particular objects) and the schema validation of
 * objects/validate.ts. The driver API (driver.ts) is built on these; they follow the REST routes
 * (routes/objects.ts) rule for rule, so a caller can do through the driver exactly what it can do
 * through REST, and nothing more.
 */
import { fault, makeFault } from '../../../src-shared/faults.js';
import { validateScopes } from '../../../src-shared/scopes/index.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { MAX_LIMIT } from '../../../src-shared/query/limits.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { createAccount } from '../accounts/accounts.js';
import { changeLoginEmail } from '../accounts/email-change.js';
import { assertScopesExist } from '../access/scope-schema.js';
import { assertMayNamePrincipal } from '../access/named-principal.js';
import { checkRecordRules } from '../environment/record-rules.js';
import { checkDeploymentAccess } from '../environment/deployment-access.js';
import { presentRecord } from '../objects/present.js';
import type { PatchOp } from '../objects/patch-ops.js';
import { applyPatch } from '../objects/patch-apply.js';
import type { JsonObject } from '../objects/patch-path.js';
import { validateInput, type Json } from '../objects/validate.js';
import { reference, type StoredRecord } from '../objects/stored-record.js';
import {
  ACCESS,
  REQUIRED,
  assertAccountPropertiesAllowed,
  assertConnectionAllowed,
  assertQueryable,
  assertWritable,
  assertWholeObject,
  canCreate,
  connectionLevelViaContext,
  dropConnectionsOfRevokedGranters,
  levelOf,
  levelsOf,
  readableCondition,
  readableProperties,
  requireScope,
  stripProperties,
  type Caller,
} from '../access/objects.js';

export type Presented = Record<string, Json>;

/** Stored properties no caller writes: the record's identity and bookkeeping. */
const SYSTEM_PROPERTIES = new Set(['_id', 'created', 'updated', 'updater', 'owner', 'object', 'access']);

/** An object by its name or its collection name: `account` and `accounts` are the same. */
export function objectDef(svc: Service, org: Org, name: string): ObjectDef {
  const def = svc.defs.byName(org.id, name) ?? svc.defs.byCollection(org.id, name);
  if (!def) throw fault('notFound', 'object', { reason: `There is no object named ${name.slice(0, 100)}.` });
  return def;
}

/** Checks the read scope and that matching/sorting only uses readable properties. */
export function assertListable(caller: Caller, def: ObjectDef, query: ListQuery): void {
  assertQueryable(requireScope(caller, 'read', def), query);
}

/** A record as the caller sees it: their level on it, stripped to what their scopes may read. */
export function presentFor(caller: Caller, def: ObjectDef, record: StoredRecord, level: number): Presented {
  return stripProperties(presentRecord(def, record, level), readableProperties(caller, def, record._id));
}

/** One page of what the caller may read; the read condition is in the SQL, so paging is exact. */
export function listPage(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  query: ListQuery,
): { data: Presented[]; hasMore: boolean } {
  assertListable(caller, def, query);
  const condition = readableCondition(svc, org, caller, def);
  const { rows, hasMore } = svc.store.list(org.id, def, query, condition ? [condition] : []);
  const levels = levelsOf(svc, org, caller, def, rows);
  const data = rows.map((r, i) => {
    const obj = presentFor(caller, def, r, levels[i] ?? 0);
    return query.paths ? (projectPaths(obj, query.paths) as Presented) : obj;
  });
  return { data, hasMore };
}

/**
 * Every record the query matches from `query.skip` on, at most `max` of them, read a page of
 * MAX_LIMIT at a time: memory stays bounded by one page whatever the result size, and no SQLite
 * statement stays open between pages (a slow reader never blocks the connection).
 */
export function* walkRecords(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  query: ListQuery,
  max = Number.POSITIVE_INFINITY,
): Generator<Presented> {
  let sent = 0;
  let skip = query.skip;
  while (sent < max) {
    const limit = Math.min(MAX_LIMIT, max - sent);
    const page = listPage(svc, org, caller, def, { ...query, skip, limit });
    for (const record of page.data) yield record;
    sent += page.data.length;
    skip += page.data.length;
    if (!page.hasMore || page.data.length === 0) return;
  }
}

/** How many records the caller may read match the query (after `skip`). */
export function countRecords(svc: Service, org: Org, caller: Caller, def: ObjectDef, query: ListQuery): number {
  assertListable(caller, def, query);
  const condition = readableCondition(svc, org, caller, def);
  return svc.store.countMatching(org.id, def, query, condition ? [condition] : []);
}

/** The record and the caller's level on it; notFound when missing or not readable (never revealed). */
export function readRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
): { record: StoredRecord; level: number } {
  requireScope(caller, 'read', def, id);
  const record = svc.store.get(org.id, def, id);
  const level = record ? levelOf(svc, org, caller, def, record) : 0;
  if (!record || level < REQUIRED.read) throw notFoundInstance(def, id);
  return { record, level };
}

function validated(def: ObjectDef, body: unknown, mode: 'create' | 'update'): Record<string, Json> {
  const { values, faults } = validateInput(def, body, mode);
  if (faults.length > 0) throw fault('validation', undefined, { faults, reason: `The ${def.name} is not valid.` });
  if (def.name === 'role' && Array.isArray(values.scopes)) validateScopes(values.scopes as string[]);
  return values;
}

function assertRoleScopesExist(svc: Service, org: Org, values: Record<string, Json>): void {
  if (Array.isArray(values.scopes)) assertScopesExist(svc, org.id, values.scopes as string[], 'scopes');
}

/**
 * Creates a record as REST `POST /<collection>` does. With `dryRun` every check runs and nothing
 * is stored; the answer is the record as it would be (without `_id` for accounts, whose creation
 * has side effects of its own).
 */
export async function createRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  body: unknown,
  opts: { dryRun?: boolean } = {},
): Promise<StoredRecord> {
  assertWritable(requireScope(caller, 'create', def), body);
  if (!canCreate(caller, def)) {
    throw fault('accessDenied', undefined, { reason: `You may not create ${def.collection}.` });
  }
  assertAccountPropertiesAllowed(caller, def, body, 'create');
  if (def.name === 'account') {
    if (opts.dryRun) {
      const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
      const { password: _password, ...rest } = isObject ? (body as Record<string, unknown>) : {};
      return { _id: svc.store.newId(), doc: validated(def, isObject ? rest : body, 'update') };
    }
    return createAccount(svc, org, body as never, caller.accountId);
  }
  const values = validated(def, body, 'create');
  checkRecordRules(svc, org, def, values);
  assertMayNamePrincipal(svc, org, caller, def.name, values);
  // The rules do not know the caller; a deployment's other orgs and folders need their credentials.
  if (def.name === 'deployment') checkDeploymentAccess(svc, org, caller, values);
  if (def.name === 'role') assertRoleScopesExist(svc, org, values);
  if (def.name === 'connection') assertConnectionAllowed(svc, org, caller, values);
  values.owner = reference('account', caller.accountId);
  if (opts.dryRun) return { _id: svc.store.newId(), doc: values };
  return svc.store.insert(org.id, def, values, { updaterId: caller.accountId });
}

export interface PatchOutcome {
  record: StoredRecord;
  /** Dotted paths the operations changed. */
  modifiedPaths: string[];
}

/**
 * Applies PATCH operations (objects/patch-ops.ts, patch-apply.ts) to one record and stores the result, in one
 * immediate write transaction (the record patched is the record stored over). The changed
 * top-level properties are validated whole against the definition; property scopes are checked on
 * every path an operation names.
 */
export function patchRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  ops: readonly PatchOp[],
  opts: { mergeDocuments?: boolean; dryRun?: boolean } = {},
): PatchOutcome {
  const allowed = requireScope(caller, 'update', def, id);
  assertWritable(allowed, Object.fromEntries(ops.map((op) => [op.path[0] ?? '', true])));
  return svc.db
    .transaction((): PatchOutcome => {
      const current = svc.store.get(org.id, def, id);
      const level = current ? levelOf(svc, org, caller, def, current) : 0;
      if (!current || level < REQUIRED.read) throw notFoundInstance(def, id);
      if (level < REQUIRED.update) throw denied(def, 'update', level);
      const { doc: next, modifiedPaths } = applyPatch(current.doc as JsonObject, ops, {
        mergeDocuments: opts.mergeDocuments === true,
      });
      const changed: Record<string, Json> = {};
      for (const path of modifiedPaths) {
        const key = path.split('.')[0] ?? path;
        // A connection's `access` is its stored level, written like any property (and capped by
        // assertConnectionAllowed); on every other object it is the caller's level, never stored.
        if (SYSTEM_PROPERTIES.has(key) && !(key === 'access' && def.name === 'connection')) {
          const faults = [makeFault('validation', 'readOnly', { path: key, reason: `${key} is read-only.` })];
          throw fault('validation', undefined, { faults, reason: `The ${def.name} is not valid.` });
        }
        changed[key] = next[key] === undefined ? null : next[key];
      }
      assertWritable(allowed, changed);
      assertAccountPropertiesAllowed(caller, def, changed, 'update');
      const values = validated(def, changed, 'update');
      const faults = def.properties
        .filter((p) => p.required && p.name in changed && (values[p.name] === undefined || values[p.name] === null))
        .map((p) => makeFault('validation', 'required', { path: p.name, reason: `${p.name} is required.` }));
      if (faults.length > 0) throw fault('validation', undefined, { faults, reason: `The ${def.name} is not valid.` });
      checkRecordRules(svc, org, def, values, current);
      assertMayNamePrincipal(svc, org, caller, def.name, { ...current.doc, ...values });
      if (def.name === 'deployment') checkDeploymentAccess(svc, org, caller, { ...current.doc, ...values });
      if (def.name === 'role') assertRoleScopesExist(svc, org, values);
      if (def.name === 'connection') {
        assertConnectionAllowed(svc, org, caller, { ...(current.doc as Record<string, Json>), ...values });
      }
      if (opts.dryRun || modifiedPaths.length === 0) return { record: current, modifiedPaths };
      const record = svc.store.update(org.id, def, id, values, { updaterId: caller.accountId });
      if (!record) throw notFoundInstance(def, id);
      if (def.name === 'connection') dropConnectionsOfRevokedGranters(svc, org, contextIdOf(record));
      if (def.name === 'account' && typeof values.email === 'string') changeLoginEmail(svc, org.id, id, values.email);
      // An administrator unlocking an account also lifts a lock-out (even an indefinite one).
      if (def.name === 'account' && values.locked === false) svc.credentials.clearFailures(org.id, id);
      return { record, modifiedPaths };
    })
    .immediate();
}

/** Deletes a record as REST `DELETE` does; with `dryRun` every check runs and nothing is deleted. */
export function deleteRecord(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  id: string,
  opts: { dryRun?: boolean } = {},
): void {
  assertWholeObject(requireScope(caller, 'delete', def, id), 'deleting an object');
  const { level, record: target } =
    def.name === 'connection' ? revocable(svc, org, caller, def, id) : readRecord(svc, org, caller, def, id);
  if (level < REQUIRED.delete) throw denied(def, 'delete', level);
  if (def.name === 'account' && id === caller.accountId) {
    throw fault('accessDenied', undefined, { reason: 'You cannot delete your own account.' });
  }
  if (opts.dryRun) return;
  const deleted = svc.db.transaction(() => {
    const ok = svc.store.delete(org.id, def, id);
    // Revoking a share takes back what the grantee passed on (issue #13 item 3).
    if (ok && def.name === 'connection') dropConnectionsOfRevokedGranters(svc, org, contextIdOf(target));
    if (ok && def.name === 'account') {
      svc.credentials.remove(org.id, id);
      svc.sessions.endForAccount(org.id, id, 'deleted');
    }
    return ok;
  })();
  if (!deleted) throw notFoundInstance(def, id);
}

/**
 * A connection as its deleter sees it: their own level on it, or delete when they may share its
 * context (the record's owner revokes a grantee's onward shares too).
 */
function revocable(svc: Service, org: Org, caller: Caller, def: ObjectDef, id: string) {
  const record = svc.store.get(org.id, def, id);
  const level = record
    ? Math.max(levelOf(svc, org, caller, def, record), connectionLevelViaContext(svc, org, caller, record))
    : 0;
  if (!record || level < REQUIRED.read) throw notFoundInstance(def, id);
  return { record, level };
}

function contextIdOf(connection: StoredRecord): string {
  const id = (connection.doc.context as { _id?: unknown } | undefined)?._id;
  return typeof id === 'string' ? id : '';
}

/** The caller's level on a record (writes of many records skip those below the level needed). */
export function levelOn(svc: Service, org: Org, caller: Caller, def: ObjectDef, id: string): number {
  const record = svc.store.get(org.id, def, id);
  return record ? levelOf(svc, org, caller, def, record) : 0;
}

export { ACCESS };

export const notFoundInstance = (def: ObjectDef, id: string) =>
  fault('notFound', 'instance', { reason: `No ${def.name} with _id ${id}.` });

const denied = (def: ObjectDef, operation: 'update' | 'delete', level: number) =>
  fault('accessDenied', undefined, {
    reason: `You need ${operation} access (${REQUIRED[operation]}) on this ${def.name}; you have ${level}.`,
  });
