/**
 * Driver options as a list query: `where` and `sort` as objects (or JSON text), `skip`, `limit`,
 * `paths`, and `startingAfter` / `endingBefore` as `_id` bounds, through REST's own parsers.
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { parseLimit, parsePaths, parseSkip, parseSort, parseSortDocument } from '../../../src-shared/query/parse.js';
import { parseWhere, parseWhereDocument } from '../../../src-shared/query/parse.js';
import { MAX_LIMIT } from '../../../src-shared/query/limits.js';
import type { Org } from '../orgs/orgs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { queryPolicy } from '../records/query-policy.js';
import type { Options } from './operation.js';

/** A number or a numeric string, as the query-string parsers take it. */
export function numberText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  throw fault('invalidArgument', 'query', { path: name, reason: `${name} must be a number.` });
}

/**
 * The list query of driver options: `where` and `sort` as objects (or JSON text), `skip`, `limit`
 * (`false` for the driver's unlimited cursor), `paths`, and `startingAfter` / `endingBefore` as
 * `_id` bounds. The same parsers and limits as REST's query string; a body carries no URL limit.
 */
export function listQuery(org: Org, def: ObjectDef, opts: Options, use: { paths: boolean }): ListQuery {
  const parse = queryPolicy(org);
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
