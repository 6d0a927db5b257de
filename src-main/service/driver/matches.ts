/**
 * Which records a driver write names: `matchOne` for the *One writes (an `_id`, optionally with a
 * path, or the first readable match) and `matchMany` for the *Many writes (bounded by
 * MAX_WRITE_MANY unless the caller gives a `limit`).
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { readPage, walkRecords } from '../records/walk.js';
import { listQuery, numberText } from './list-query.js';
import { MAX_WRITE_MANY, type Options } from './operation.js';

/** `"<_id>"`, `"<_id>/<path>"` or `"<_id>.<path>"`. */
export function idAndPath(text: string): { id: string; path?: string } | undefined {
  const m = /^([0-9a-fA-F]{24})(?:[./](.+))?$/.exec(text);
  if (!m) return undefined;
  return { id: m[1]!.toLowerCase(), ...(m[2] ? { path: m[2] } : {}) };
}

/** The one record a write names: an `_id` (optionally with a path), or the first readable match. */
export function matchOne(
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
  const first = readPage(svc, org, caller, def, query).data[0];
  if (!first) throw fault('notFound', 'instance', { reason: `No ${def.name} matches.` });
  return { id: String(first._id) };
}

/** The ids a *Many write changes: readable matches on which the caller holds `level`. */
export function matchMany(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  opts: Options,
  level: number,
): string[] {
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
