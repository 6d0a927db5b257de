/**
 * Entry point of the list-query language: raw query-string values → validated `ListQuery`.
 *
 * TRUST BOUNDARY: `RawListArgs` holds untrusted, URL-decoded text from the caller. Nothing in it
 * reaches storage except through the validated AST this module returns; every problem is thrown as
 * a `FaultError` whose `path` points at the offending argument (`where.$and[1].name.last.$regex`).
 */
import { resolvePath, type ObjectDef } from '../schema/types.js';
import type { ListQuery } from './ast.js';
import { indexPath, queryFault } from './faults.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PROJECTION_PATHS, MAX_SKIP } from './limits.js';
import { parseSort } from './parse-sort.js';
import { parseWhere, type ParseOptions } from './parse-where.js';

export { parseWhere, parseWhereDocument, QUERY_OPERATORS, type ParseOptions } from './parse-where.js';
export { parseSort, parseSortDocument } from './parse-sort.js';

export interface RawListArgs {
  where?: string;
  sort?: string;
  skip?: string;
  limit?: string;
  paths?: string[];
  /** References to expand and optional members to include (references/parse-selection.ts). */
  expand?: string[];
  include?: string[];
}

const DIGITS = /^\d{1,15}$/;

export function parseListQuery(raw: RawListArgs, def: ObjectDef, options: ParseOptions = {}): ListQuery {
  const query: ListQuery = {
    sort: parseSort(raw.sort, def),
    skip: parseSkip(raw.skip),
    limit: parseLimit(raw.limit),
  };
  const where = parseWhere(raw.where, def, options);
  if (where) query.where = where;
  const paths = parsePaths(raw.paths, def);
  if (paths) query.paths = paths;
  return query;
}

/** Non-negative integer up to MAX_SKIP; absent means 0. */
export function parseSkip(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = DIGITS.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n > MAX_SKIP) {
    throw queryFault(`skip must be a whole number from 0 to ${MAX_SKIP}.`, 'skip');
  }
  return n;
}

/** Integer 1..MAX_LIMIT; absent means DEFAULT_LIMIT. Out of range is a fault, never clamped. */
export function parseLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  const n = DIGITS.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw queryFault(`limit must be a whole number from 1 to ${MAX_LIMIT}.`, 'limit');
  }
  return n;
}

/**
 * Members every presented record may carry without being properties of its definition: the
 * caller's level (`access`, or `accessLevel` where `access` is stored, as on connections) and the
 * creator (`owner`). They can be projected like properties, never matched or sorted.
 */
const PRESENTED_MEMBERS = new Set(['access', 'accessLevel', 'owner']);

/**
 * A path into a referenced record (`owner.name.first`, `c_father.c_name`): its first part is a
 * reference; the rest is checked against the referenced object where the reference is expanded
 * (references/parse-selection.ts).
 */
function crossesReference(def: ObjectDef, path: string): boolean {
  const segments = path.split('.');
  if (segments[0] === 'owner') return segments.length > 1;
  for (let i = 1; i < segments.length; i++) {
    if (resolvePath(def, segments.slice(0, i).join('.'))?.def.type === 'Reference') return true;
  }
  return false;
}

/** Each path must resolve through the definition (indexed or not); duplicates are dropped. */
export function parsePaths(paths: string[] | undefined, def: ObjectDef): string[] | undefined {
  if (paths === undefined || paths.length === 0) return undefined;
  if (paths.length > MAX_PROJECTION_PATHS) {
    throw queryFault(`paths[] may name at most ${MAX_PROJECTION_PATHS} properties.`, 'paths');
  }
  const out: string[] = [];
  paths.forEach((path, i) => {
    if (!PRESENTED_MEMBERS.has(path) && !resolvePath(def, path) && !crossesReference(def, path))
      throw queryFault(`Unknown property "${path}" in paths[].`, indexPath('paths', i));
    if (!out.includes(path)) out.push(path);
  });
  return out;
}
