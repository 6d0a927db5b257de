/**
 * The validated list-query AST. Only `parse.ts` builds it; the SQL compiler and the in-memory
 * evaluator consume it. Every field in it has been resolved through the object definition and
 * every value type-checked and normalised, so consumers never re-validate.
 */
import type { PropertyType } from '../schema/types.js';

/** A normalised scalar operand: Date and ObjectId values are strings in their stored form. */
export type Scalar = string | number | boolean;

/**
 * Where a field's values live inside a stored record (or inside one array element when the field
 * sits in an `$elemMatch` on an array of documents).
 */
export type FieldAccess =
  /** One value at `storagePath` (`_id`, `name.last`, `updater._id`). */
  | { kind: 'value'; storagePath: string }
  /**
   * Each element of the array at `arrayPath`; the matched value is the element itself when
   * `elementPath` is empty, else the value at `elementPath` inside the element.
   */
  | { kind: 'elements'; arrayPath: string; elementPath: string }
  /** A document or an array of documents as a whole (`$exists`, `$size`, `$elemMatch` only). */
  | { kind: 'container'; storagePath: string; isArray: boolean };

export interface FieldRef {
  /** The path as written by the caller (relative to the element inside `$elemMatch`). */
  path: string;
  type: PropertyType;
  access: FieldAccess;
}

export type ComparisonOperator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';

/** A `/pattern/flags` literal, validated to compile with RE2. */
export interface RegexLiteral {
  /** The pattern exactly as written between the slashes. */
  source: string;
  /** Subset of `imsx`, each at most once. */
  flags: string;
}

/** An operator applied to a value (a scalar field, or one element of a scalar array). */
export type ValueOperation =
  | { op: ComparisonOperator; value: Scalar | null }
  | { op: '$in' | '$nin'; values: (Scalar | null)[] }
  | { op: '$regex'; regex: RegexLiteral };

export type FieldOperation =
  | ValueOperation
  | { op: '$exists'; value: boolean }
  | { op: '$all'; values: Scalar[] }
  | { op: '$size'; value: number }
  /** On an array of documents: a condition relative to one element. */
  | { op: '$elemMatch'; element: Condition }
  /** On a scalar array: operations that one element must all satisfy. */
  | { op: '$elemMatch'; operations: ValueOperation[] };

export type Condition =
  | { kind: 'and'; conditions: Condition[] }
  | { kind: 'or'; conditions: Condition[] }
  | { kind: 'field'; field: FieldRef; operation: FieldOperation };

export type SortDirection = 1 | -1;

export interface SortKey {
  field: FieldRef;
  direction: SortDirection;
}

export interface ListQuery {
  where?: Condition;
  /** The caller's keys; use `effectiveSort` for the total order actually applied. */
  sort: SortKey[];
  skip: number;
  limit: number;
  /** Validated projection paths; absent when the caller gave none. */
  paths?: string[];
}
