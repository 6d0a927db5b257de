/**
 * The driver's reads: `cursor` (one page, or every match as a stream) and `readOne` (one record,
 * or the value at a path inside it).
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { DEFAULT_LIMIT } from '../../../src-shared/query/limits.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { parsePath } from '../objects/patch-path.js';
import type { Caller } from '../access/caller.js';
import { readRecord } from '../records/read.js';
import { presentFor, type Presented } from '../records/presentation.js';
import { readPage, walkRecords } from '../records/walk.js';
import { listQuery } from './list-query.js';
import { idAndPath } from './matches.js';
import { aggregateCursor, isAggregation, refuseAggregation, selectionOptions } from './aggregate-cursor.js';
import { expandPage } from '../records/expand.js';
import type { DriverContext, DriverResult, Options } from './operation.js';

export function cursor(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  opts: Options,
  context: DriverContext,
): DriverResult {
  if (isAggregation(opts)) return aggregateCursor(svc, org, caller, def, opts, context);
  const query = listQuery(org, def, opts, { paths: true });
  const selection = selectionOptions(svc, org, def, opts);
  if (context.stream) {
    // Checked now, so a refused query is an ordinary fault and not a stream's last line.
    const max =
      opts.limit === false ? Number.POSITIVE_INFINITY : opts.limit === undefined ? DEFAULT_LIMIT : query.limit;
    readPage(svc, org, caller, def, { ...query, limit: 1 });
    const items = walkRecords(svc, org, caller, def, query, max, context.after, selection);
    return { kind: 'stream', items: toAsync(items) } as const;
  }
  const page = readPage(svc, org, caller, def, query, context.after, selection);
  return { kind: 'list', data: page.data, hasMore: page.hasMore, ...(page.next ? { next: page.next } : {}) } as const;
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
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

export function readOne(svc: Service, org: Org, caller: Caller, def: ObjectDef, opts: Options): DriverResult {
  refuseAggregation(opts, 'readOne');
  const throwNotFound = opts.throwNotFound !== false;
  const selection = selectionOptions(svc, org, def, opts);
  let record: Presented | undefined;
  let path = typeof opts.path === 'string' && opts.path !== '' ? opts.path : undefined;
  const where = opts.where;
  const query = listQuery(org, def, { ...opts, where: undefined, limit: 1, startingAfter: undefined }, { paths: true });
  try {
    if (typeof where === 'string' && idAndPath(where)) {
      const ref = idAndPath(where)!;
      if (ref.path) path = path ? `${ref.path}.${path}` : ref.path;
      const { record: stored, level, allowed } = readRecord(svc, org, caller, def, ref.id);
      record = presentFor(caller, def, stored, level, allowed);
      const paths = selection ? selection.paths : query.paths;
      if (paths) record = projectPaths(record, paths) as Presented;
      expandPage(svc, org, caller, [record], selection);
    } else {
      const page = readPage(
        svc,
        org,
        caller,
        def,
        { ...listQuery(org, def, { ...opts, limit: 1 }, { paths: true }), limit: 1 },
        undefined,
        selection,
      );
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
