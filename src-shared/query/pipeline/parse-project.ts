/**
 * `$project` and `$addFields`, read as the original reads them: `1`/`true` includes the input
 * property of that path, `0`/`false`/`null` leaves a member out, a bare string is a property path,
 * an object with one `$` key is an expression, and (in `$project`) an object of names is a nested
 * document. Dotted names become nested documents. `_id` is always kept by `$project`.
 */
import type { PropertyDef } from '../../schema/types.js';
import { childPath, queryFault, unsupportedFault } from '../faults.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';
import { OUTPUT_NAME_PATTERN } from '../limits.js';
import type { Expr, OutputField } from './ast.js';
import { assertDepth, assertKeyCount, parseExpr, type ExprContext } from './parse-expression.js';
import { propertyOf } from './shape.js';
import { assertOutputName, fieldExpr } from './stage-scope.js';

export interface ParsedProject {
  fields: OutputField[];
  output: PropertyDef[];
}

export function parseProject(value: JsonValue, ctx: ExprContext, path: string): ParsedProject {
  if (!isJsonObject(value)) throw queryFault('$project takes an object.', path);
  const spec = nestDottedKeys(value, path);
  if (spec._id === 0 || spec._id === false || (spec._id !== undefined && spec._id !== 1 && spec._id !== true)) {
    throw queryFault('pipeline expression _id field can only be 1 or true.', childPath(path, '_id'));
  }
  const fields = parseMembers(spec, '', ctx, path, 1).filter((f) => f.name !== '_id');
  if (fields.length === 0) throw queryFault('$project stage requires at least one output field.', path);
  const id = ctx.scope.properties.find((p) => p.name === '_id');
  const idField: OutputField[] = id
    ? [{ name: '_id', kind: 'value', expr: fieldExpr(ctx.scope, '_id', path, true) }]
    : [];
  const all = [...idField, ...fields];
  return { fields: all, output: all.map(outputProperty) };
}

function outputProperty(field: OutputField): PropertyDef {
  if (field.kind === 'value') return propertyOf(field.name, field.expr.type);
  return { name: field.name, type: 'Document', indexed: true, properties: field.fields.map(outputProperty) };
}

/** `{"name.first": 1}` → `{name: {first: 1}}` (the original does the same before parsing). */
function nestDottedKeys(value: JsonObject, path: string): JsonObject {
  assertKeyCount(value, path);
  const out: JsonObject = Object.create(null) as JsonObject;
  for (const [key, v] of Object.entries(value)) {
    const segments = key.split('.');
    let node = out;
    segments.slice(0, -1).forEach((segment) => {
      const existing = node[segment];
      if (existing !== undefined && !isJsonObject(existing)) {
        throw queryFault(`"${key}" collides with another member.`, childPath(path, key));
      }
      if (existing === undefined) node[segment] = Object.create(null) as JsonObject;
      node = node[segment] as JsonObject;
    });
    const last = segments[segments.length - 1]!;
    if (node[last] !== undefined) throw queryFault(`"${key}" is given twice.`, childPath(path, key));
    node[last] = v;
  }
  return out;
}

function parseMembers(spec: JsonObject, prefix: string, ctx: ExprContext, path: string, depth: number): OutputField[] {
  assertDepth(depth, path);
  const out: OutputField[] = [];
  for (const [name, v] of Object.entries(spec)) {
    const memberPath = childPath(path, name);
    assertOutputName(name, memberPath, OUTPUT_NAME_PATTERN);
    const field = parseMember(name, v, prefix, ctx, memberPath, depth);
    if (field) out.push(field);
  }
  return out;
}

function parseMember(
  name: string,
  value: JsonValue,
  prefix: string,
  ctx: ExprContext,
  path: string,
  depth: number,
): OutputField | undefined {
  if (value === 0 || value === false || value === null) return undefined;
  if (value === 1 || value === true) {
    return { name, kind: 'value', expr: fieldExpr(ctx.scope, prefix + name, path, true) };
  }
  if (isJsonObject(value) && !Object.keys(value).some((k) => k.startsWith('$'))) {
    assertKeyCount(value, path);
    const fields = parseMembers(value, `${prefix}${name}.`, ctx, path, depth + 1);
    if (fields.length === 0) throw queryFault('A nested document names at least one member.', path);
    return { name, kind: 'document', fields };
  }
  return { name, kind: 'value', expr: memberExpr(value, ctx, path, depth) };
}

/** A computed member: a property path, or an expression; other literals need `$literal`. */
function memberExpr(value: JsonValue, ctx: ExprContext, path: string, depth: number): Expr {
  if (typeof value === 'number' || typeof value === 'boolean') {
    throw queryFault(
      'pipeline field values must be inclusions (1 or true), property projections (c_field), or expressions ({$sum: "c_value"}); write other literals as {"$literal": …}.',
      path,
    );
  }
  if (Array.isArray(value)) throw unsupportedFault('Arrays are not values here.', path);
  return parseExpr(value, ctx, path, depth);
}

export interface ParsedAddFields {
  fields: { path: string; expr: Expr }[];
  output: PropertyDef[];
}

/** `$addFields`: each (dotted) name set to a value; inclusions and exclusions change nothing. */
export function parseAddFields(value: JsonValue, ctx: ExprContext, path: string): ParsedAddFields {
  if (!isJsonObject(value)) throw queryFault('$addFields takes an object.', path);
  assertKeyCount(value, path);
  const fields: { path: string; expr: Expr }[] = [];
  let output = ctx.scope.properties;
  for (const [key, v] of Object.entries(value)) {
    const memberPath = childPath(path, key);
    key.split('.').forEach((segment) => assertOutputName(segment, memberPath, OUTPUT_NAME_PATTERN));
    if (v === 0 || v === false || v === null || v === 1 || v === true) continue;
    if (isJsonObject(v) && !Object.keys(v).some((k) => k.startsWith('$'))) {
      throw unsupportedFault(`Set the members of a document one by one ("${key}.<name>").`, memberPath);
    }
    const expr = memberExpr(v, ctx, memberPath, 1);
    if (fields.some((f) => f.path === key || f.path.startsWith(`${key}.`) || key.startsWith(`${f.path}.`))) {
      throw queryFault(`"${key}" overlaps another member of this $addFields.`, memberPath);
    }
    output = setProperty(output, key.split('.'), expr, memberPath);
    fields.push({ path: key, expr });
  }
  if (fields.length === 0) throw queryFault('$addFields stage requires at least one output field.', path);
  return { fields, output };
}

/** The properties with `segments` set to the expression's type, documents created on the way. */
function setProperty(props: PropertyDef[], segments: string[], expr: Expr, path: string): PropertyDef[] {
  const [head, ...rest] = segments;
  const existing = props.find((p) => p.name === head);
  const others = props.filter((p) => p.name !== head);
  if (rest.length === 0) return [...others, propertyOf(head!, expr.type)];
  if (existing && (existing.type !== 'Document' || existing.array)) {
    throw unsupportedFault(`"${head}" is not a document, so nothing can be set inside it.`, path);
  }
  const inner = setProperty(existing?.properties ?? [], rest, expr, path);
  return [...others, { name: head!, type: 'Document', indexed: true, properties: inner }];
}
