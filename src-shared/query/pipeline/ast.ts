/**
 * The validated aggregation-pipeline AST (docs/query-semantics.md, "Aggregation"). Only
 * `parse-pipeline.ts` builds it; the SQL compiler (src-main/service/query/pipeline/) and the
 * in-memory evaluator (`evaluate-pipeline.ts`) consume it. Every property path in it has been
 * resolved through the schema of the stage it is read in, every expression type-checked, every
 * literal normalised: consumers never re-validate.
 */
import type { PropertyDef, PropertyType } from '../../schema/types.js';
import type { Condition, FieldRef, Scalar } from '../ast.js';

/**
 * The type of an expression's value. Scalars read as SQLite reads them (Booleans as 1/0, Dates as
 * ISO text); `json` values (documents, arrays, whole references) travel as JSON.
 */
export interface ValueType {
  /** `Any`: known only when evaluated (a trigger's if: `$cache`, a variable's path). */
  type: PropertyType | 'Null' | 'Any';
  /** An array of `type` values (JSON). */
  array?: boolean;
  /** A Document's properties (when known). */
  properties?: PropertyDef[];
}

export type Expr =
  /** The value at a path of the stage's input document (`field.access.kind` is `value`). */
  | { kind: 'field'; field: FieldRef; type: ValueType; whole: boolean }
  | { kind: 'literal'; value: Scalar | null; type: ValueType }
  | { kind: 'op'; op: ExprOperator; args: Expr[]; type: ValueType; options?: ExprOptions }
  /**
   * Evaluator-only (a trigger's if, parse-evaluator-only.ts): the value of a variable (`$$this`,
   * `$$value`, `$$ROOT`, a `$let` or `$find` name) at `path` ('' for the whole value).
   */
  | { kind: 'variable'; name: string; path: string; type: ValueType };

export type ExprOperator =
  | '$add'
  | '$subtract'
  | '$multiply'
  | '$divide'
  | '$mod'
  | '$abs'
  | '$ceil'
  | '$floor'
  | '$trunc'
  | '$sqrt'
  | '$concat'
  | '$substr'
  | '$toLower'
  | '$toUpper'
  | '$year'
  | '$month'
  | '$dayOfMonth'
  | '$dayOfWeek'
  | '$dayOfYear'
  | '$hour'
  | '$minute'
  | '$second'
  | '$millisecond'
  | '$week'
  | '$dateToString'
  | '$cond'
  | '$ifNull'
  | '$eq'
  | '$ne'
  | '$gt'
  | '$gte'
  | '$lt'
  | '$lte'
  | '$cmp'
  | '$and'
  | '$or'
  | '$not'
  | '$size'
  /** Evaluator-only: refused in `?pipeline=` (parse-evaluator-only.ts). */
  | '$toBool'
  | '$find'
  | '$reduce'
  | '$cache'
  | '$let';

export interface ExprOptions {
  /** `$substr`: start (code points, from 0) and length (negative: to the end). */
  start?: number;
  length?: number;
  /** `$dateToString`: the format as literal text and `%` directives, in order. */
  format?: DateFormatPart[];
  /** `$find`: the element's variable name; `$let`: the variables' names, in the order of `args`. */
  names?: string[];
}

export type DateFormatPart =
  { text: string } | { directive: 'Y' | 'm' | 'd' | 'H' | 'M' | 'S' | 'L' | 'j' | 'w' | 'U' };

/** A computed member of a `$project`/`$addFields` output, or a nested document of them. */
export type OutputField =
  { name: string; kind: 'value'; expr: Expr } | { name: string; kind: 'document'; fields: OutputField[] };

export type AccumulatorOperator =
  '$sum' | '$avg' | '$min' | '$max' | '$count' | '$first' | '$last' | '$push' | '$addToSet';

export interface Accumulator {
  name: string;
  op: AccumulatorOperator;
  /** `$count` of `_id` (every document) and `$sum` of a number carry no expression. */
  expr?: Expr;
  /** `$sum` of a constant: that number times the count. */
  constant?: number;
  /** `$count` of an array: the total of the array sizes. */
  countsElements?: boolean;
  type: ValueType;
}

/** The `_id` of a `$group`: one value, a document of values, or null (one group of everything). */
export type GroupKey =
  { kind: 'null' } | { kind: 'value'; expr: Expr } | { kind: 'document'; fields: { name: string; expr: Expr }[] };

export interface SortStageKey {
  field: FieldRef;
  direction: 1 | -1;
}

export type Stage =
  /** `head`: before any reshaping stage, so it reads the stored records (indexes apply). */
  | { kind: 'match'; condition: Condition; head: boolean }
  | { kind: 'sort'; keys: SortStageKey[]; head: boolean }
  | { kind: 'skip'; count: number }
  | { kind: 'limit'; count: number }
  /** Output: `_id` and `fields` (inclusions are `field` expressions with `whole`). */
  | { kind: 'project'; fields: OutputField[] }
  /** Output: the input document with `fields` set (dotted names set inside documents). */
  | { kind: 'addFields'; fields: { path: string; expr: Expr }[] }
  | { kind: 'group'; key: GroupKey; accumulators: Accumulator[] }
  /** One document per element of the array at `field`, with the element in its place. */
  | { kind: 'unwind'; field: FieldRef; element: ValueType }
  | { kind: 'count'; name: string };

export interface Pipeline {
  /** The object the pipeline reads (output documents carry it as `object`). */
  object: string;
  stages: Stage[];
  /** The properties of the documents the last stage puts out (a synthetic definition's). */
  output: PropertyDef[];
}
