/**
 * Token scopes on object operations (docs/scopes.md#scope-chains, docs/scopes.md): every
 * operation of a scope-limited caller is checked with `checkScope`, and property-limited chains
 * strip properties from what is read and refuse writes to anything else.
 * Callers without scopes (sessions, signed requests) pass through: `'all'`.
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Condition, ListQuery } from '../../../src-shared/query/ast.js';
import {
  allowedPropertyPaths,
  checkScope,
  parseScopeChain,
  propertyAccess,
  type AllowedProperties,
} from '../../../src-shared/scopes/index.js';
import type { ObjectOperation } from '../../../src-shared/scopes/chain.js';
import type { Json } from '../objects/validate.js';
import { isServiceWritten } from '../objects/service-written.js';
import type { Caller } from './caller.js';

/** Identity of a returned object, never stripped: without them the rest cannot be addressed. */
const ALWAYS_VISIBLE = new Set(['_id', 'object', 'access', 'accessLevel']);

/**
 * Throws `accessDenied.scope` unless the caller's scopes allow the operation (on the instance,
 * when given); returns the properties they allow.
 */
export function requireScope(
  caller: Caller,
  operation: ObjectOperation,
  def: ObjectDef,
  instanceId?: string,
): AllowedProperties {
  // Logs and audit entries are the service's own: no caller writes one, administrators included.
  if (operation !== 'read' && isServiceWritten(def.name)) {
    throw fault('accessDenied', 'serviceWritten', { reason: `${def.collection} are written by the service only.` });
  }
  const { scopes } = caller;
  if (scopes === undefined) return 'all';
  const memo = memoOf(scopes);
  const key = memo.instanceFree ? `${operation} ${def.name}` : undefined;
  const known = key === undefined ? undefined : memo.allowed.get(key);
  if (known !== undefined) return known;
  const decision = checkScope(scopes, {
    kind: 'object',
    operation,
    objectType: def.name,
    ...(instanceId !== undefined ? { instanceId } : {}),
  });
  if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  const allowed = allowedPropertyPaths(scopes, def.name, operation, instanceId);
  if (key !== undefined) memo.allowed.set(key, allowed);
  return allowed;
}

interface ScopeMemo {
  /** No chain names an instance, so a decision depends only on the operation and the type. */
  instanceFree: boolean;
  /** Granted operations by `<operation> <type>`: what `requireScope` returned (refusals are not kept). */
  allowed: Map<string, AllowedProperties>;
}

/**
 * Decisions per scopes array. A cached token's scopes are derived once per cache entry (one array
 * for as long as the entry lives), and matching parsed every chain and wrote an explanation on each
 * request (about 9 µs of a one-record read). Arrays are never changed after they are built, so a
 * decision made for one holds for its whole life; the memo goes with the array.
 */
const memos = new WeakMap<readonly string[], ScopeMemo>();

function memoOf(scopes: readonly string[]): ScopeMemo {
  let memo = memos.get(scopes);
  if (memo === undefined) {
    const instanceFree = scopes.every((text) => {
      const parsed = parseScopeChain(text);
      return !parsed.ok || parsed.chain.kind !== 'object' || parsed.chain.identifier?.kind !== 'id';
    });
    memo = { instanceFree, allowed: new Map() };
    memos.set(scopes, memo);
  }
  return memo;
}

/** True when the scopes allow the operation at all (used to leave out list properties quietly). */
export function scopeAllows(caller: Caller, operation: ObjectOperation, def: ObjectDef, instanceId?: string): boolean {
  if (caller.scopes === undefined) return true;
  return checkScope(caller.scopes, {
    kind: 'object',
    operation,
    objectType: def.name,
    ...(instanceId !== undefined ? { instanceId } : {}),
  }).allowed;
}

/** The properties the caller may read on one instance (`[]` when its scopes allow no read). */
export function readableProperties(caller: Caller, def: ObjectDef, instanceId: string): AllowedProperties {
  if (caller.scopes === undefined) return 'all';
  return allowedPropertyPaths(caller.scopes, def.name, 'read', instanceId);
}

/** Removes what `allowed` does not cover; nested documents (and arrays of them) are stripped inside. */
export function stripProperties(obj: Record<string, Json>, allowed: AllowedProperties): Record<string, Json> {
  if (allowed === 'all') return obj;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (ALWAYS_VISIBLE.has(key)) out[key] = value;
    else {
      const kept = keep(value, key, allowed);
      if (kept !== undefined) out[key] = kept;
    }
  }
  return out;
}

function keep(value: Json, path: string, allowed: AllowedProperties): Json | undefined {
  const coverage = propertyAccess(allowed, path);
  if (coverage === 'full') return value;
  if (coverage === 'none' || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    return value.map((element) =>
      element !== null && typeof element === 'object' && !Array.isArray(element)
        ? nested(element, path, allowed)
        : null,
    );
  }
  return nested(value, path, allowed);
}

function nested(doc: { [key: string]: Json }, prefix: string, allowed: AllowedProperties): Json {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(doc)) {
    const kept = keep(value, `${prefix}.${key}`, allowed);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/**
 * Refuses a write that touches a property the scopes do not fully cover. A top-level key replaces
 * the whole property (documents included), so it needs the whole property: `name.first` alone
 * does not let a caller write `name`.
 */
export function assertWritable(allowed: AllowedProperties, body: unknown): void {
  if (allowed === 'all' || typeof body !== 'object' || body === null) return;
  for (const key of Object.keys(body)) {
    if (propertyAccess(allowed, key) !== 'full') {
      throw fault('accessDenied', 'scope', {
        path: key,
        reason: `The token's scopes do not allow writing ${key} (allowed: ${allowed.join(', ') || 'nothing'}).`,
      });
    }
  }
}

/** PUT replaces every property and DELETE removes them all: both need an unlimited scope. */
export function assertWholeObject(allowed: AllowedProperties, what: string): void {
  if (allowed !== 'all') {
    throw fault('accessDenied', 'scope', {
      reason: `The token's scopes allow only some properties (${allowed.join(', ')}); ${what} needs all of them.`,
    });
  }
}

/**
 * Matching or sorting on a property reveals its values, so a property-limited caller may only
 * match and sort on properties it may read (and on `_id`, for paging).
 */
export function assertQueryable(allowed: AllowedProperties, query: ListQuery): void {
  if (allowed === 'all') return;
  const paths = [...conditionPaths(query.where), ...query.sort.map((key) => key.field.path)];
  for (const path of paths) {
    if (path !== '_id' && propertyAccess(allowed, path) !== 'full') {
      throw fault('accessDenied', 'scope', {
        path,
        reason: `The token's scopes do not allow reading ${path}, so lists cannot be matched or sorted by it.`,
      });
    }
  }
}

/** Top-level field paths of a condition; `$elemMatch` counts as its array's path. */
function conditionPaths(condition: Condition | undefined): string[] {
  if (!condition) return [];
  if (condition.kind === 'field') return [condition.field.path];
  return condition.conditions.flatMap(conditionPaths);
}
