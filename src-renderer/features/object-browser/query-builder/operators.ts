/**
 * Which paths a query may name and which operators fit each one (docs/query-semantics.md,
 * docs/query-semantics.md). The lists are what the builder offers; the shared parser remains the
 * judge of what the service accepts.
 */
import { propertyPaths, type ObjectDef, type PropertyType } from '../../../../src-shared/schema/types';
import { QUERY_OPERATORS } from '../../../../src-shared/query/parse-where';
import { STARTS_WITH, STARTS_WITH_ANY_CASE, type PrefixOperator } from './starts-with';

/** Operators on one field: every operator of the shared parser except the logical `$and`/`$or`. */
export type FieldOperator = Exclude<(typeof QUERY_OPERATORS)[number], '$and' | '$or'>;

export const FIELD_OPERATORS: readonly FieldOperator[] = QUERY_OPERATORS.filter(
  (op): op is FieldOperator => op !== '$and' && op !== '$or',
);

/** What the builder's operator list holds: the query's operators and "starts with" (a `$regex` form). */
export type BuilderOperator = FieldOperator | PrefixOperator;

export const OPERATOR_LABELS: Readonly<Record<BuilderOperator, string>> = {
  $eq: '= equals',
  $ne: '≠ not equal',
  $gt: '> greater than',
  $gte: '≥ at least',
  $lt: '< less than',
  $lte: '≤ at most',
  $in: 'in list',
  $nin: 'not in list',
  $exists: 'exists',
  $regex: 'matches regex',
  $all: 'has all of',
  $size: 'has size',
  $elemMatch: 'an element matches',
  [STARTS_WITH]: 'starts with',
  [STARTS_WITH_ANY_CASE]: 'starts with, any case',
};

/** The operator as the option shows it: `$gt > greater than`, but `starts with` (no JSON name of its own). */
export function operatorText(op: BuilderOperator): string {
  return op === STARTS_WITH || op === STARTS_WITH_ANY_CASE ? OPERATOR_LABELS[op] : `${op} ${OPERATOR_LABELS[op]}`;
}

/** A path the builder can put in a condition. */
export interface QueryablePath {
  path: string;
  type: PropertyType;
  /** The value lies in an array (the path itself or a parent is an array). */
  inArray: boolean;
  /** The path itself is an array (`roles`, `c_enrollments`): `$size` and `$elemMatch` apply. */
  isArray: boolean;
  /** An array of documents, matched as a whole (`$elemMatch`, `$exists`, `$size` only). */
  container: boolean;
  indexed: boolean;
}

const BY_TYPE: Readonly<Record<string, readonly BuilderOperator[]>> = {
  String: ['$eq', '$ne', STARTS_WITH, STARTS_WITH_ANY_CASE, '$in', '$nin', '$regex', '$exists'],
  Number: ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists'],
  Integer: ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists'],
  Date: ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists'],
  Boolean: ['$eq', '$ne', '$exists'],
  ObjectId: ['$eq', '$ne', '$in', '$nin', '$gt', '$lt'],
  Reference: ['$eq', '$ne', '$in', '$nin', '$gt', '$lt'],
};

/** The operators offered for a path: by type, plus `$all $size $elemMatch` on arrays. */
export function operatorsFor(
  path: Pick<QueryablePath, 'type' | 'inArray' | 'isArray' | 'container' | 'indexed'>,
): BuilderOperator[] {
  if (path.container) {
    return path.indexed ? ['$elemMatch', '$exists', '$size'] : ['$elemMatch'];
  }
  const ops = [...(BY_TYPE[path.type] ?? [])];
  if (path.inArray) ops.push('$all');
  if (path.isArray) ops.push('$size', '$elemMatch');
  return ops;
}

/**
 * Paths that may be matched: indexed scalars and scalar arrays, plus arrays of documents that
 * have indexed element properties (for `$elemMatch`). List properties are queried through their
 * own prefixed arguments, and plain documents only by their properties.
 */
export function queryablePaths(def: ObjectDef): QueryablePath[] {
  const out: QueryablePath[] = [];
  for (const resolved of propertyPaths(def)) {
    const { def: prop } = resolved;
    const indexed = prop.indexed === true || prop.unique === true;
    if (prop.type === 'List') continue;
    if (prop.type === 'Document') {
      const elementIndexed = (prop.properties ?? []).some((p) => p.indexed === true || p.unique === true);
      if (prop.array === true && (indexed || elementIndexed) && !parentIsArray(def, resolved.path)) {
        out.push({ path: resolved.path, type: prop.type, inArray: true, isArray: true, container: true, indexed });
      }
      continue;
    }
    if (!indexed) continue;
    out.push({
      path: resolved.path,
      type: prop.type,
      inArray: resolved.inArray,
      isArray: prop.array === true,
      container: false,
      indexed,
    });
  }
  return out;
}

/** Paths that may be sorted: indexed single values (not arrays, documents or inside arrays). */
export function sortablePaths(def: ObjectDef): string[] {
  return queryablePaths(def)
    .filter((p) => !p.inArray && !p.container)
    .map((p) => p.path);
}

/** Every path `paths[]` may name (indexed or not). */
export function projectablePaths(def: ObjectDef): string[] {
  return propertyPaths(def).map((p) => p.path);
}

function parentIsArray(def: ObjectDef, path: string): boolean {
  const parents = path.split('.').slice(0, -1);
  let props = def.properties;
  for (const segment of parents) {
    const found = props.find((p) => p.name === segment);
    if (!found) return false;
    if (found.array === true) return true;
    props = found.properties ?? [];
  }
  return false;
}

/** Operators whose operand is a list of values. */
export function isListOperator(op: BuilderOperator): boolean {
  return op === '$in' || op === '$nin' || op === '$all';
}
