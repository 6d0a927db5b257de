import { fault, FaultError, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { presentListText, presentRecord, presentsVerbatim } from '../objects/present.js';
import { spliceTopLevelKeys } from '../objects/splice-keys.js';
import type { AllowedProperties } from '../../../src-shared/scopes/property-path.js';
import type { Json } from '../objects/validate.js';
import type { SqlFragment } from '../query/sql-fragment.js';
import {
  ACCESS,
  assertQueryable,
  levelsOf,
  readableCondition,
  readableProperties,
  requireScope,
  scopeAllows,
  stripProperties,
  type Caller,
} from '../access/objects.js';
import { rawListArgs } from './list-args.js';

/*
 * Record lists of the object routes (objects.ts): a collection's own list, and the list
 * properties nested in a record or a page, all from raw query-string arguments.
 */

interface ListOptions {
  /** Query-string arguments are read as `prefix<name>` (a list property's own arguments). */
  prefix?: string;
  /** Conditions the caller does not control (the instance a list property belongs to). */
  where?: readonly SqlFragment[];
  /** A list property of an instance the caller may share: every entry is readable. */
  contextual?: boolean;
  /** Whole records may be answered as one JSON text built from their stored text. */
  asText?: boolean;
  /** Page size when the caller gives none (list properties inside a collection list). */
  defaultLimit?: number;
}

/** A collection's own list: the hottest list there is, so its options are built once. */
export const COLLECTION_LIST: ListOptions = { asText: true };

/**
 * Runs a list query given raw query-string arguments. The read condition is part of the SQL, so
 * `limit`, `skip` and `hasMore` count only what the caller may see.
 */
export function listRecords(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  queryString: unknown,
  opts: ListOptions,
) {
  const { prefix = '', where: extra = [], contextual = false, asText = false } = opts;
  const listAllowed = requireScope(caller, 'read', def);
  const raw = rawListArgs(queryString as Record<string, unknown>, prefix);
  if (opts.defaultLimit !== undefined && raw.limit === undefined) raw.limit = String(opts.defaultLimit);
  const options = { allowNegations: !org.settings.disableNegation };
  // A list property's faults name its argument in full (`connections.limit`), as the caller wrote it.
  const query =
    prefix === ''
      ? svc.listQueries.parse(raw, def, options)
      : withPathPrefix(prefix, () => parseListQuery(raw, def, options));
  assertQueryable(listAllowed, query);
  const condition = contextual ? undefined : readableCondition(svc, org, caller, def);
  const where = [...(condition ? [condition] : []), ...extra];
  // Records shown whole go out as their stored text: no projection, and no scope limits properties
  // (a session, or a token whose scopes grant this object's reads without property paths, like `*`;
  // an instance-less grant of 'all' holds for every instance, so no per-record check is needed).
  if (asText && !contextual && !query.paths && listAllowed === 'all' && presentsVerbatim(def)) {
    const { rows, hasMore } = svc.store.list(org.id, def, query, where);
    return presentListText(def, rows, levelsOf(svc, org, caller, def, rows), hasMore);
  }
  const { rows, hasMore } = svc.store.list(org.id, def, query, where);
  const topLevel = asText && !contextual && !query.paths && presentsVerbatim(def) && topLevelOnly(caller, listAllowed);
  if (topLevel) {
    // Scopes that allow some top-level properties of every instance: each record's allowed
    // members are copied from its stored text (objects/splice-keys.ts), nothing parsed.
    const spliced = rows.map((r) => ({ _id: r._id, text: spliceTopLevelKeys(r.text, topLevel) }));
    return presentListText(def, spliced, levelsOf(svc, org, caller, def, rows), hasMore);
  }
  const levels = levelsOf(svc, org, caller, def, rows);
  // A collection's own list carries list properties only when `paths[]` names them, bounded (below).
  const nested = asText && query.paths ? requestedListProperties(def, query.paths) : [];
  if (nested.length > 0) assertNestedListsBounded(queryString, query.limit, nested);
  const data = rows.map((r, i) => {
    const level = contextual ? Math.max(levels[i] ?? 0, ACCESS.read) : (levels[i] ?? 0);
    const presented = presentRecord(def, r, level);
    const allowed = listAllowed === 'all' ? 'all' : readableProperties(caller, def, r._id);
    const obj = allowed === 'all' ? presented : stripProperties(presented, allowed);
    const out = query.paths ? (projectPaths(obj, query.paths) as Record<string, Json>) : obj;
    if (nested.length > 0) {
      addListProperties(svc, org, caller, def, out, {
        level,
        allowed,
        paths: query.paths,
        query: queryString,
        defaultLimit: NESTED_DEFAULT_LIMIT,
      });
    }
    return out;
  });
  return { object: 'list', data, hasMore };
}

/** A list property's default page size inside a collection list (one record's own read: 100). */
const NESTED_DEFAULT_LIMIT = 10;
/** At most this many nested records in one collection page: page limit × list-property limit. */
export const MAX_NESTED_RECORDS = 10_000;

function requestedListProperties(def: ObjectDef, paths: readonly string[]) {
  return def.properties.filter(
    (p) => isListProperty(p) && paths.some((path) => path === p.name || path.startsWith(`${p.name}.`)),
  );
}

/**
 * A collection page that includes list properties stays bounded: its limit times each list
 * property's limit (`connections.limit`, default 10) is at most MAX_NESTED_RECORDS.
 */
function assertNestedListsBounded(queryString: unknown, pageLimit: number, props: readonly { name: string }[]) {
  const q = (queryString ?? {}) as Record<string, unknown>;
  for (const prop of props) {
    const raw = q[`${prop.name}.limit`];
    const limit = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : NESTED_DEFAULT_LIMIT;
    if (pageLimit * limit > MAX_NESTED_RECORDS) {
      throw fault('invalidArgument', 'query', {
        path: `${prop.name}.limit`,
        reason: `A page that includes ${prop.name} holds at most ${MAX_NESTED_RECORDS} of them: limit × ${prop.name}.limit is ${pageLimit * limit}.`,
      });
    }
  }
}

interface NestedListArgs {
  /** The caller's level on the record. */
  level: number;
  /** The properties the caller's scopes let them read on the record. */
  allowed: AllowedProperties;
  paths: readonly string[] | undefined;
  /** The request's query string: each list property reads its own `<name>.` arguments. */
  query: unknown;
  defaultLimit?: number;
}

/** Adds each list property (a patient file's `connections`) the caller asked for and may read, as a list envelope. */
export function addListProperties(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  out: Record<string, Json>,
  args: NestedListArgs,
): void {
  const { level, allowed, paths, query } = args;
  const id = out._id as string;
  for (const prop of def.properties) {
    if (!isListProperty(prop)) continue;
    if (paths && !paths.some((p) => p === prop.name || p.startsWith(`${prop.name}.`))) continue;
    if (allowed !== 'all' && !allowed.some((p) => p === prop.name || p.startsWith(`${prop.name}.`))) continue;
    const listDef = svc.defs.byName(org.id, prop.refObject);
    if (!listDef || !scopeAllows(caller, 'read', listDef)) continue;
    // Whoever may share the instance sees all of its connections; others only those they may read.
    const contextual = level >= ACCESS.share;
    out[prop.name] = listRecords(svc, org, caller, listDef, query, {
      prefix: `${prop.name}.`,
      where: [svc.store.contextEquals(org.id, listDef, id)],
      contextual,
      ...(args.defaultLimit !== undefined ? { defaultLimit: args.defaultLimit } : {}),
    }) as unknown as Json;
  }
}

/**
 * The allowed top-level property names when the caller's scopes allow only whole top-level
 * properties, the same for every instance (no scope names an instance id); otherwise undefined.
 */
function topLevelOnly(caller: Caller, allowed: AllowedProperties): ReadonlySet<string> | undefined {
  if (allowed === 'all' || allowed.some((path) => path.includes('.'))) return undefined;
  if (caller.scopes?.some((chain) => /[0-9a-f]{24}/i.test(chain))) return undefined;
  return new Set(allowed);
}

const listPropertiesByDef = new WeakMap<ObjectDef, boolean>();

/** Whether a definition has list properties; asked on every read, so remembered per definition. */
export function hasListProperties(def: ObjectDef): boolean {
  let has = listPropertiesByDef.get(def);
  if (has === undefined) {
    has = def.properties.some(isListProperty);
    listPropertiesByDef.set(def, has);
  }
  return has;
}

/** List properties (a patient file's `connections`): read as nested list envelopes. */
function isListProperty(prop: ObjectDef['properties'][number]): prop is typeof prop & { refObject: string } {
  return prop.type === 'List' && prop.refObject !== undefined && prop.refObject !== '';
}

/** Runs `fn`; a fault it throws with a `path` gets `prefix` in front of that path (and its children's). */
function withPathPrefix<T>(prefix: string, fn: () => T): T {
  if (prefix === '') return fn();
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof FaultError)) throw err;
    const prefixed = (f: FaultBody): FaultBody => ({
      ...f,
      ...(f.path !== undefined ? { path: `${prefix}${f.path}` } : {}),
      ...(f.faults ? { faults: f.faults.map(prefixed) } : {}),
    });
    throw new FaultError(prefixed(err.fault));
  }
}
