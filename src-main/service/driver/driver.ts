/**
 * The driver API (original-clients.md §A): twelve operations on the records of one object, with
 * the options the original's clients send. `runDriverOperation` is the one entry; the HTTP route
 * (`POST /<org>/v2/<object>/db/<operation>`, routes/driver.ts) and the script host's `driver`
 * function (scripting/host-driver.ts) both call it, so the two cannot disagree.
 *
 * Every operation goes through records.ts, which applies the same access model, query language,
 * limits and validation as the REST routes. Unknown option keys are ignored (clients send
 * `object`, `operation`, `maxTimeMs`, … that mean nothing here). `skipAcl`, `grant` and `roles` in
 * the options are privileged: see `effectiveCaller`.
 */
import { fault, FaultError, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { parseLimit, parsePaths, parseSkip, parseSort, parseSortDocument } from '../../../src-shared/query/parse.js';
import { parseWhere, parseWhereDocument } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../../src-shared/query/limits.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { resolveRoles } from '../access/roles.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { parsePatchBody, parsePath, updateToOps, type PatchOp } from '../objects/patch-ops.js';
import { MAX_SHARED_LEVEL } from '../access/levels.js';
import type { Caller } from '../access/caller.js';
import {
  ACCESS,
  countRecords,
  createRecord,
  deleteRecord,
  listPage,
  objectDef,
  patchRecord,
  presentFor,
  readRecord,
  walkRecords,
  type Presented,
} from './records.js';
import { levelOf } from '../access/acl.js';

export const DRIVER_OPERATIONS = [
  'cursor',
  'count',
  'readOne',
  'insertOne',
  'insertMany',
  'updateOne',
  'updateMany',
  'patchOne',
  'patchMany',
  'deleteOne',
  'deleteMany',
  'bulk',
] as const;
export type DriverOperation = (typeof DRIVER_OPERATIONS)[number];

/** Documents in one insertMany. */
export const MAX_INSERT_MANY = 1000;
/** Records one updateMany/patchMany/deleteMany changes; more matches without a `limit` is refused. */
export const MAX_WRITE_MANY = 10_000;
/** Operations in one bulk, and how deep bulks may nest. */
export const MAX_BULK_OPS = 1000;
export const MAX_BULK_DEPTH = 3;
/** Items a bulk collects when answered as one list envelope (stream with NDJSON for more). */
export const MAX_BULK_ENVELOPE_ITEMS = 10_000;

export interface DriverContext {
  /** Return `cursor` and `bulk` output as an async iterable (NDJSON) instead of one page. */
  stream?: boolean;
  /** The caller's token carries `service/rls`: the `roles` option is honoured. */
  tokenRoles?: boolean;
  /**
   * The options come from trusted code (a script an administrator wrote), not from the caller:
   * `skipAcl`, `grant` and `roles` are honoured whoever the caller is.
   */
  trustedOptions?: boolean;
  /** Bulk nesting and the path of the enclosing bulk operation (internal). */
  depth?: number;
  bulkPath?: string;
}

/**
 * What an operation answers, before presentation: the route wraps a `value` in
 * `{object:"result", data}` and a `list` in the list envelope; a script gets them bare.
 */
export type DriverResult =
  | { kind: 'value'; value: unknown }
  | { kind: 'record'; record: Presented }
  | { kind: 'list'; data: unknown[]; hasMore: boolean }
  | { kind: 'stream'; items: AsyncIterable<unknown> };

type Options = Record<string, unknown>;

export function isDriverOperation(name: string): name is DriverOperation {
  return (DRIVER_OPERATIONS as readonly string[]).includes(name);
}

/** The body of an HTTP answer that is not a stream. */
export function driverAnswer(result: Exclude<DriverResult, { kind: 'stream' }>): unknown {
  if (result.kind === 'value') return { object: 'result', data: result.value ?? null };
  if (result.kind === 'record') return result.record;
  return { object: 'list', data: result.data, hasMore: result.hasMore };
}

/** Runs one driver operation for `caller` on the object `objectName` (singular or plural). */
export async function runDriverOperation(
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  operation: string,
  options: unknown,
  context: DriverContext = {},
): Promise<DriverResult> {
  if (!isDriverOperation(operation)) {
    throw fault('invalidArgument', 'operation', {
      path: 'operation',
      reason: `Unknown driver operation ${JSON.stringify(operation.slice(0, 50))}; use ${DRIVER_OPERATIONS.join(', ')}.`,
    });
  }
  // bulk takes a bare array of operations too.
  if (operation === 'bulk') return bulk(svc, org, caller, objectName, options, context);
  const opts = asOptions(options);
  const def = objectDef(svc, org, objectName);
  const who = effectiveCaller(svc, org, caller, opts, context);
  switch (operation) {
    case 'cursor':
      return cursor(svc, org, who, def, opts, context);
    case 'count': {
      const query = listQuery(org, def, opts, { paths: false });
      const n = countRecords(svc, org, who, def, { ...query, skip: query.skip });
      return { kind: 'value', value: opts.limit === undefined || opts.limit === false ? n : Math.min(n, query.limit) };
    }
    case 'readOne':
      return readOne(svc, org, who, def, opts);
    case 'insertOne': {
      const record = await createRecord(svc, org, who, def, opts.document, { dryRun: opts.dryRun === true });
      const level = opts.dryRun === true ? ACCESS.admin : levelOf(svc, org, who, def, record);
      const presented = presentFor(who, def, record, level);
      return leanAnswer(presented, opts.lean, Object.keys(record.doc));
    }
    case 'insertMany':
      return { kind: 'value', value: await insertMany(svc, org, who, def, opts) };
    case 'updateOne':
    case 'patchOne': {
      const { id, subPath } = matchOne(svc, org, who, def, opts.match, operation === 'patchOne');
      const ops = operation === 'updateOne' ? updateToOps(opts.update) : patchOps(opts.ops, subPath);
      const { record, modifiedPaths } = patchRecord(svc, org, who, def, id, ops, {
        mergeDocuments: opts.mergeDocuments === true,
        dryRun: opts.dryRun === true,
      });
      const presented = presentFor(who, def, record, levelOf(svc, org, who, def, record));
      return leanAnswer(presented, opts.lean, modifiedPaths);
    }
    case 'updateMany':
    case 'patchMany': {
      const ops = operation === 'updateMany' ? updateToOps(opts.update) : patchOps(opts.ops, undefined);
      const ids = matchMany(svc, org, who, def, opts, ACCESS.update);
      const updatedIds: string[] = [];
      for (const id of ids) {
        patchRecord(svc, org, who, def, id, ops, {
          mergeDocuments: opts.mergeDocuments === true,
          dryRun: opts.dryRun === true,
        });
        updatedIds.push(id);
      }
      return { kind: 'value', value: { updatedIds } };
    }
    case 'deleteOne': {
      const { id } = matchOne(svc, org, who, def, opts.match, false);
      deleteRecord(svc, org, who, def, id);
      return { kind: 'value', value: true };
    }
    case 'deleteMany': {
      // Never one's own account: REST refuses that delete, and a match should not trip over it.
      const ids = matchMany(svc, org, who, def, opts, ACCESS.delete).filter(
        (id) => !(def.name === 'account' && id === who.accountId),
      );
      for (const id of ids) deleteRecord(svc, org, who, def, id);
      return { kind: 'value', value: ids.length };
    }
  }
}

function asOptions(options: unknown): Options {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw fault('invalidArgument', 'options', { reason: 'Driver options are a JSON object.' });
  }
  return options as Options;
}

// ------------------------------------------------------------------------------------------------
// Privileged options

const LEVEL_NAMES: Record<string, number> = ACCESS;

/**
 * `skipAcl`, `grant` and `roles` in the options widen what the caller reaches, so they are dropped
 * silently (§A) unless the caller already holds that privilege: an org administrator, or a token
 * carrying the matching claim (`service/skp` for skipAcl, `service/gnt` for grant — never above
 * the token's own grant — and `service/rls` for roles). An option never confers org administration
 * (the administrator role is not added by `roles`) and never grants above script level (7).
 */
export function effectiveCaller(svc: Service, org: Org, caller: Caller, opts: Options, context: DriverContext): Caller {
  const trusted = context.trustedOptions === true || caller.orgAdmin;
  let out = caller;
  if (opts.skipAcl === true && (trusted || caller.skipAcl)) out = { ...out, skipAcl: true };
  const grant = grantLevel(opts.grant);
  if (grant !== undefined && (trusted || caller.grant !== undefined)) {
    const ceiling = trusted ? MAX_SHARED_LEVEL : (caller.grant ?? 0);
    const level = Math.min(grant, ceiling);
    if (level > (out.grant ?? 0)) out = { ...out, grant: level };
  }
  if (Array.isArray(opts.roles) && (trusted || context.tokenRoles === true)) {
    const extra = opts.roles.filter(
      (r): r is string => typeof r === 'string' && OBJECT_ID_PATTERN.test(r) && r !== BUILTIN_ROLES.administrator,
    );
    if (extra.length > 0) {
      const roles = new Set(resolveRoles(svc, org, [...caller.roles, ...extra]).roleSet);
      if (!caller.orgAdmin) roles.delete(BUILTIN_ROLES.administrator);
      out = { ...out, roles };
    }
  }
  return out;
}

function grantLevel(value: unknown): number | undefined {
  const level = typeof value === 'string' ? LEVEL_NAMES[value] : value;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < ACCESS.public) return undefined;
  return Math.min(level, MAX_SHARED_LEVEL);
}

// ------------------------------------------------------------------------------------------------
// Queries

/** A number or a numeric string, as the query-string parsers take it. */
function numberText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  throw fault('invalidArgument', 'query', { path: name, reason: `${name} must be a number.` });
}

/**
 * The list query of driver options: `where` and `sort` as objects (or JSON text), `skip`, `limit`
 * (`false` for the driver's unlimited cursor), `paths`, and `startingAfter` / `endingBefore` as
 * `_id` bounds. The same parsers and limits as REST's query string; a body carries no URL limit.
 */
function listQuery(org: Org, def: ObjectDef, opts: Options, use: { paths: boolean }): ListQuery {
  const parse = { allowNegations: !org.settings.disableNegation };
  const where = whereWithBounds(opts);
  const query: ListQuery = {
    sort:
      opts.sort === undefined || opts.sort === null
        ? []
        : typeof opts.sort === 'string'
          ? parseSort(opts.sort, def)
          : parseSortDocument(opts.sort, def),
    skip: parseSkip(numberText(opts.skip, 'skip')),
    limit: opts.limit === false ? MAX_LIMIT : parseLimit(numberText(opts.limit, 'limit')),
  };
  const condition =
    where === undefined || where === null
      ? undefined
      : typeof where === 'string'
        ? parseWhere(where, def, parse)
        : parseWhereDocument(where, def, parse);
  if (condition) query.where = condition;
  if (use.paths) {
    const raw = opts.paths;
    const paths = parsePaths(
      raw === undefined || raw === null ? undefined : Array.isArray(raw) ? raw.map(String) : [String(raw)],
      def,
    );
    if (paths) query.paths = paths;
  }
  return query;
}

function whereWithBounds(opts: Options): unknown {
  const bounds: Record<string, string>[] = [];
  for (const [key, op] of [
    ['startingAfter', '$gt'],
    ['endingBefore', '$lt'],
  ] as const) {
    const v = opts[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || !OBJECT_ID_PATTERN.test(v.toLowerCase())) {
      throw fault('invalidArgument', 'query', { path: key, reason: `${key} must be an _id.` });
    }
    bounds.push({ [op]: v.toLowerCase() });
  }
  if (bounds.length === 0) return opts.where;
  const idBound = { _id: Object.assign({}, ...bounds) as Record<string, string> };
  if (opts.where === undefined || opts.where === null) return idBound;
  const where = typeof opts.where === 'string' ? (JSON.parse(opts.where) as unknown) : opts.where;
  return { $and: [where, idBound] };
}

function cursor(svc: Service, org: Org, caller: Caller, def: ObjectDef, opts: Options, context: DriverContext) {
  const query = listQuery(org, def, opts, { paths: true });
  if (context.stream) {
    // Checked now, so a refused query is an ordinary fault and not a stream's last line.
    const max =
      opts.limit === false ? Number.POSITIVE_INFINITY : opts.limit === undefined ? DEFAULT_LIMIT : query.limit;
    listPage(svc, org, caller, def, { ...query, limit: 1 });
    return { kind: 'stream', items: toAsync(walkRecords(svc, org, caller, def, query, max)) } as const;
  }
  const page = listPage(svc, org, caller, def, query);
  return { kind: 'list', data: page.data, hasMore: page.hasMore } as const;
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

// ------------------------------------------------------------------------------------------------
// readOne and matches

/** `"<_id>"`, `"<_id>/<path>"` or `"<_id>.<path>"`. */
function idAndPath(text: string): { id: string; path?: string } | undefined {
  const m = /^([0-9a-fA-F]{24})(?:[./](.+))?$/.exec(text);
  if (!m) return undefined;
  return { id: m[1]!.toLowerCase(), ...(m[2] ? { path: m[2] } : {}) };
}

function valueAt(record: Presented, path: string): unknown {
  let node: unknown = record;
  for (const segment of parsePath(path, 'path')) {
    if (Array.isArray(node)) {
      const el = node.find((e) => typeof e === 'object' && e !== null && (e as { _id?: unknown })._id === segment);
      node = el ?? (/^\d+$/.test(segment) ? node[Number(segment)] : undefined);
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else node = undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function readOne(svc: Service, org: Org, caller: Caller, def: ObjectDef, opts: Options): DriverResult {
  const throwNotFound = opts.throwNotFound !== false;
  let record: Presented | undefined;
  let path = typeof opts.path === 'string' && opts.path !== '' ? opts.path : undefined;
  const where = opts.where;
  const query = listQuery(org, def, { ...opts, where: undefined, limit: 1, startingAfter: undefined }, { paths: true });
  try {
    if (typeof where === 'string' && idAndPath(where)) {
      const ref = idAndPath(where)!;
      if (ref.path) path = path ? `${ref.path}.${path}` : ref.path;
      const { record: stored, level } = readRecord(svc, org, caller, def, ref.id);
      record = presentFor(caller, def, stored, level);
      if (query.paths) record = projectPaths(record, query.paths) as Presented;
    } else {
      const page = listPage(svc, org, caller, def, {
        ...listQuery(org, def, { ...opts, limit: 1 }, { paths: true }),
        limit: 1,
      });
      record = page.data[0];
      if (!record) throw fault('notFound', 'instance', { reason: `No ${def.name} matches.` });
    }
  } catch (e) {
    if (!throwNotFound && e instanceof FaultError && e.fault.errCode === 'service.notFound.instance') {
      return { kind: 'value', value: null };
    }
    throw e;
  }
  if (path === undefined) return { kind: 'record', record };
  const value = valueAt(record, path);
  if (value === undefined && throwNotFound) {
    throw fault('notFound', 'property', { path, reason: `No value at ${path}.` });
  }
  return { kind: 'value', value: value ?? null };
}

/** The one record a write names: an `_id` (optionally with a path), or the first readable match. */
function matchOne(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  match: unknown,
  allowPath: boolean,
): { id: string; subPath?: string } {
  if (typeof match === 'string') {
    const ref = idAndPath(match);
    if (!ref || (ref.path && !allowPath)) {
      throw fault('invalidArgument', 'invalidObjectId', {
        path: 'match',
        reason: 'match must be an _id or a where object.',
      });
    }
    return { id: ref.id, ...(ref.path ? { subPath: ref.path } : {}) };
  }
  if (typeof match !== 'object' || match === null || Array.isArray(match)) {
    throw fault('invalidArgument', 'query', { path: 'match', reason: 'match must be an _id or a where object.' });
  }
  const query = listQuery(org, def, { where: match, limit: 1 }, { paths: false });
  const first = listPage(svc, org, caller, def, query).data[0];
  if (!first) throw fault('notFound', 'instance', { reason: `No ${def.name} matches.` });
  return { id: String(first._id) };
}

/** The ids a *Many write changes: readable matches on which the caller holds `level`. */
function matchMany(svc: Service, org: Org, caller: Caller, def: ObjectDef, opts: Options, level: number): string[] {
  const match = opts.match ?? {};
  if (typeof match === 'string') {
    const ref = idAndPath(match);
    if (!ref || ref.path)
      throw fault('invalidArgument', 'query', { path: 'match', reason: 'match must be a where object.' });
    return [ref.id];
  }
  const limitGiven = opts.limit !== undefined && opts.limit !== false;
  const limit = limitGiven ? Number(numberText(opts.limit, 'limit')) : MAX_WRITE_MANY;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_WRITE_MANY) {
    throw fault('invalidArgument', 'query', { path: 'limit', reason: `limit must be from 1 to ${MAX_WRITE_MANY}.` });
  }
  const query = listQuery(org, def, { where: match, sort: { _id: 1 } }, { paths: false });
  const ids: string[] = [];
  for (const record of walkRecords(svc, org, caller, def, query)) {
    if (typeof record.access !== 'number' || record.access < level) continue;
    if (ids.length === limit) {
      if (limitGiven) break;
      throw fault('tooLarge', 'match', {
        path: 'match',
        reason: `More than ${MAX_WRITE_MANY} records match; give a limit or a narrower match.`,
      });
    }
    ids.push(String(record._id));
  }
  return ids;
}

function patchOps(ops: unknown, subPath: string | undefined): PatchOp[] {
  if (ops === undefined) throw fault('invalidArgument', 'patchOp', { path: 'ops', reason: 'ops is required.' });
  return parsePatchBody(ops, subPath);
}

/**
 * `lean: true` → the `_id`; `lean: "modified"` → `_id`, `object` and the modified top-level
 * properties; anything else → the whole record as the caller sees it.
 */
function leanAnswer(record: Presented, lean: unknown, modifiedPaths: string[]): DriverResult {
  if (lean === true) return { kind: 'value', value: record._id };
  if (lean === 'modified') {
    const out: Presented = { _id: record._id ?? null, object: record.object ?? null };
    for (const path of modifiedPaths) {
      const key = path.split('.')[0]!;
      if (record[key] !== undefined) out[key] = record[key];
    }
    return { kind: 'record', record: out };
  }
  return { kind: 'record', record };
}

async function insertMany(svc: Service, org: Org, caller: Caller, def: ObjectDef, opts: Options) {
  const docs = opts.documents;
  if (!Array.isArray(docs)) {
    throw fault('invalidArgument', 'documents', { path: 'documents', reason: 'documents must be an array.' });
  }
  if (docs.length > MAX_INSERT_MANY) {
    throw fault('tooLarge', 'documents', {
      path: 'documents',
      reason: `insertMany takes at most ${MAX_INSERT_MANY} documents.`,
    });
  }
  const insertedIds: { _id: string; index: number }[] = [];
  const writeErrors: (FaultBody & { index: number })[] = [];
  for (const [index, doc] of docs.entries()) {
    try {
      const record = await createRecord(svc, org, caller, def, doc, { dryRun: opts.dryRun === true });
      insertedIds.push({ _id: record._id, index });
    } catch (e) {
      if (!(e instanceof FaultError)) throw e;
      writeErrors.push({ ...e.fault, index });
    }
  }
  return { insertedCount: insertedIds.length, insertedIds, writeErrors };
}

// ------------------------------------------------------------------------------------------------
// bulk

interface BulkOp extends Options {
  operation?: unknown;
  object?: unknown;
  halt?: unknown;
  wrap?: unknown;
  output?: unknown;
  name?: unknown;
}

function bulkOps(options: unknown): BulkOp[] {
  const ops = Array.isArray(options) ? options : (asOptions(options).ops as unknown);
  if (!Array.isArray(ops)) throw fault('invalidArgument', 'bulk', { path: 'ops', reason: 'bulk takes ops: [...].' });
  if (ops.length > MAX_BULK_OPS) {
    throw fault('tooLarge', 'bulk', { path: 'ops', reason: `A bulk holds at most ${MAX_BULK_OPS} operations.` });
  }
  return ops.map((op, i) => {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      throw fault('invalidArgument', 'bulk', { path: `ops.${i}`, reason: 'Each bulk operation is an object.' });
    }
    return op as BulkOp;
  });
}

/**
 * `bulk` runs its operations in order and streams one item per result: wrapped (default) as
 * `{_id, object:"operationResult", path, timestamp, data}`, raw with `wrap:false`, nothing with
 * `output:false`. A cursor gives one item per record. A failing operation stops the bulk (its
 * fault ends the stream) unless it has `halt:false`: then its fault is written as an item and the
 * bulk goes on. Bulks nest at most MAX_BULK_DEPTH deep.
 */
function bulk(
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  options: unknown,
  context: DriverContext,
): DriverResult {
  const depth = (context.depth ?? 0) + 1;
  if (depth > MAX_BULK_DEPTH) {
    throw fault('invalidArgument', 'bulk', { reason: `Bulk operations nest at most ${MAX_BULK_DEPTH} deep.` });
  }
  const ops = bulkOps(options);
  ops.forEach((op, i) => {
    if (typeof op.operation !== 'string' || !isDriverOperation(op.operation)) {
      throw fault('invalidArgument', 'operation', { path: `ops.${i}.operation`, reason: 'Unknown driver operation.' });
    }
  });
  const items = runBulk(svc, org, caller, objectName, ops, { ...context, depth, stream: true });
  return { kind: 'stream', items };
}

async function* runBulk(
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  ops: BulkOp[],
  context: DriverContext,
): AsyncGenerator<unknown> {
  for (const [index, op] of ops.entries()) {
    const path = `${context.bulkPath ?? ''}${typeof op.name === 'string' ? op.name : index}`;
    const wrap = op.wrap !== false;
    const output = op.output !== false;
    const object = typeof op.object === 'string' ? op.object : objectName;
    const { operation, object: _o, halt: _h, wrap: _w, output: _out, name: _n, ...rest } = op;
    const item = (data: unknown) =>
      wrap ? { _id: svc.store.newId(), object: 'operationResult', path, timestamp: svc.nowIso(), data } : data;
    try {
      // A nested bulk's options are its ops (or `{ops}`); its items pass through as it made them.
      const nestedOptions = operation === 'bulk' ? (Array.isArray(rest.ops) ? rest.ops : rest) : rest;
      const result = await runDriverOperation(svc, org, caller, object, String(operation), nestedOptions, {
        ...context,
        bulkPath: `${path}.`,
      });
      if (result.kind === 'stream') {
        for await (const x of result.items) if (output) yield operation === 'bulk' ? x : item(x);
      } else if (result.kind === 'list') {
        for (const x of result.data) if (output) yield item(x);
      } else if (output) {
        yield item(result.kind === 'value' ? (result.value ?? null) : result.record);
      }
    } catch (e) {
      if (op.halt !== false || !(e instanceof FaultError)) throw e;
      yield { ...e.fault, path: e.fault.path ?? path };
    }
  }
}

/** Collects a bulk's items for the list envelope (bounded; NDJSON streams any number). */
export async function collectItems(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of items) {
    if (out.length === MAX_BULK_ENVELOPE_ITEMS) {
      throw fault('tooLarge', 'bulk', {
        reason: `More than ${MAX_BULK_ENVELOPE_ITEMS} results; ask for application/x-ndjson to stream them.`,
      });
    }
    out.push(item);
  }
  return out;
}
