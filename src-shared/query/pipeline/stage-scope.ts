/**
 * What a stage's expressions may read: the properties of its input documents, and, while those
 * are still the stored records, the caller's readable properties and the index rule.
 */
import { fault } from '../../faults.js';
import type { PropertyDef } from '../../schema/types.js';
import { propertyAccess, type AllowedProperties } from '../../scopes/property-path.js';
import { queryFault, unsupportedFault } from '../faults.js';
import { resolveField, type ResolvedField } from '../fields.js';
import type { ParseOptions } from '../parse-where.js';
import type { Expr } from './ast.js';
import { typeOfProperty } from './shape.js';

export interface PipelineParseOptions extends ParseOptions {
  /** The properties the caller's scopes let them read on every instance ('all' for sessions). */
  allowed?: AllowedProperties;
}

export interface StageScope {
  /** Properties of the stage's input documents. */
  properties: PropertyDef[];
  /** The input is the stored records themselves (no reshaping stage before). */
  records: boolean;
  /** Every stage before is `$match` or `$sort`: matching and sorting need indexes. */
  head: boolean;
  /** Every property of the stored records (readable or not), to tell "not allowed" from "unknown". */
  allRecordProperties: PropertyDef[];
  options: PipelineParseOptions;
}

/** Resolves a property path of the stage's input; refuses what the caller's scopes do not allow. */
export function resolveInScope(scope: StageScope, path: string, faultPath: string): ResolvedField {
  if (scope.records) assertReadable(scope, path, faultPath);
  return resolveField(scope.properties, path, faultPath);
}

/** Reading a property the scopes do not cover is refused by name, as lists refuse matching it. */
export function assertReadable(scope: StageScope, path: string, faultPath: string): void {
  const allowed = scope.options.allowed ?? 'all';
  if (allowed !== 'all' && path !== '_id' && propertyAccess(allowed, path) !== 'full') {
    // An unknown path is an ordinary query fault, not a scope refusal.
    resolveField(scope.allRecordProperties, path, faultPath);
    throw fault('accessDenied', 'scope', {
      path: faultPath,
      reason: `The token's scopes do not allow reading ${path}, so pipelines cannot use it.`,
    });
  }
  // Hidden properties (and list properties) are not among the pipeline's properties at all.
  resolveField(scope.properties, path, faultPath);
}

/**
 * A property path as an expression. A Reference stands for its `_id`; a document, an array or a
 * whole reference is a JSON value (`whole`), usable only where a stage takes any value.
 */
export function fieldExpr(scope: StageScope, path: string, faultPath: string, whole = false): Expr {
  const resolved = resolveInScope(scope, path, faultPath);
  const { field, def } = resolved;
  if (field.access.kind === 'elements') {
    if (field.access.arrayPath !== path) {
      throw unsupportedFault(
        `"${path}" lies inside an array of documents; $unwind ${field.access.arrayPath} first.`,
        faultPath,
      );
    }
    return { kind: 'field', field, type: { type: def.type, array: true }, whole: true };
  }
  if (field.access.kind === 'container') return { kind: 'field', field, type: typeOfProperty(def), whole: true };
  if (def.type === 'Reference') {
    return whole
      ? { kind: 'field', field, type: { type: 'Reference' }, whole: true }
      : { kind: 'field', field, type: { type: 'ObjectId' }, whole: false };
  }
  return { kind: 'field', field, type: { type: def.type }, whole: false };
}

/** Output names: letters, digits, `_` (not `__proto__`), at most 40. */
export function assertOutputName(name: string, faultPath: string, pattern: RegExp): void {
  if (!pattern.test(name) || name === '__proto__') {
    throw queryFault(
      `"${name}" is not a valid output name (letters, digits and _, not starting with a digit, at most 40).`,
      faultPath,
    );
  }
}
