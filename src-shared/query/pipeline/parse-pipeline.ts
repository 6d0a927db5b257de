/**
 * Entry point of the aggregation language: raw `pipeline` (JSON text, or the decoded array the
 * driver sends) → validated `Pipeline`. Stages are parsed in order, each against the schema the
 * stage before puts out; the first ones read the stored records, so the caller's readable
 * properties and the index rule apply to them.
 *
 * TRUST BOUNDARY: `raw` is untrusted. Nothing reaches storage except through the AST returned;
 * every problem is a `FaultError` whose `path` points into the argument (`pipeline[1].$group.n`).
 */
import type { ObjectDef, PropertyDef } from '../../schema/types.js';
import { allProperties } from '../../schema/types.js';
import { childPath, indexPath, queryFault, unsupportedFault } from '../faults.js';
import { isJsonObject, JsonSyntaxError, parseJson, type JsonValue } from '../json.js';
import { MAX_PIPELINE_STAGES, MAX_PIPELINE_TEXT_LENGTH } from '../limits.js';
import type { Pipeline, Stage } from './ast.js';
import { parseGroup } from './parse-group.js';
import { parseAddFields, parseProject } from './parse-project.js';
import { parseCount, parseCountStage, parseMatch, parseSortStage, parseUnwind } from './parse-stages.js';
import { asStageOutput, recordProperties } from './shape.js';
import type { PipelineParseOptions, StageScope } from './stage-scope.js';

export type { PipelineParseOptions } from './stage-scope.js';

export const PIPELINE_STAGES = [
  '$match',
  '$sort',
  '$skip',
  '$limit',
  '$project',
  '$addFields',
  '$group',
  '$unwind',
  '$count',
  '$sortByCount',
] as const;

/** Stages of MongoDB (and of the original's native pipelines) this service refuses by name. */
const UNSUPPORTED_STAGES = new Set([
  '$lookup',
  '$graphLookup',
  '$bucket',
  '$bucketAuto',
  '$facet',
  '$geoNear',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$out',
  '$merge',
  '$set',
  '$unset',
  '$densify',
  '$fill',
  '$setWindowFields',
  '$unionWith',
]);

/** Decodes `pipeline` text (or takes the driver's array) and parses it. */
export function parsePipeline(
  raw: unknown,
  def: ObjectDef,
  options: PipelineParseOptions = {},
  argument = 'pipeline',
): Pipeline {
  const value = typeof raw === 'string' ? decode(raw, argument) : (raw as JsonValue);
  if (!Array.isArray(value)) throw queryFault('Array expected for pipeline.', argument);
  if (value.length > MAX_PIPELINE_STAGES) {
    throw queryFault(`Invalid pipeline. Maximum stages (${MAX_PIPELINE_STAGES}) exceeded.`, argument);
  }
  return parseStages(
    value.map((stage, i) => (typeof stage === 'string' ? decode(stage, indexPath(argument, i)) : stage)),
    def,
    options,
    (i) => indexPath(argument, i),
  );
}

export function decode(text: string, path: string): JsonValue {
  if (text.length > MAX_PIPELINE_TEXT_LENGTH) {
    throw queryFault(`${path} is longer than ${MAX_PIPELINE_TEXT_LENGTH} characters.`, path);
  }
  try {
    return parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw queryFault(e.message, path);
    throw e;
  }
}

/** Parses stage objects, each `{"$stage": value}`; `stagePath(i)` names stage i in faults. */
export function parseStages(
  values: readonly JsonValue[],
  def: ObjectDef,
  options: PipelineParseOptions,
  stagePath: (i: number) => string,
): Pipeline {
  const entries = values.map((value, i) => {
    const path = stagePath(i);
    if (!isJsonObject(value)) throw queryFault(`Object expected for pipeline stage (${i}).`, path);
    const keys = Object.keys(value);
    if (keys.length !== 1) throw queryFault(`stage (${i}) requires a single key.`, path);
    const key = keys[0]!;
    return { key, value: value[key] as JsonValue, path: childPath(path, key) };
  });
  return parseEntries(entries, def, options);
}

/**
 * The list arguments `where`, `group` and `sort` as the original reads them together: a `$match`,
 * a `$group`, then a `$sort` that may name the group's outputs (a "named grouping").
 */
export function parseGroupArguments(
  args: { where?: JsonValue; group: JsonValue; sort?: JsonValue },
  def: ObjectDef,
  options: PipelineParseOptions = {},
): Pipeline {
  const entries = [
    ...(args.where === undefined ? [] : [{ key: '$match', value: args.where, path: 'where' }]),
    { key: '$group', value: args.group, path: 'group' },
    ...(args.sort === undefined ? [] : [{ key: '$sort', value: args.sort, path: 'sort' }]),
  ];
  return parseEntries(entries, def, options);
}

function parseEntries(
  entries: readonly { key: string; value: JsonValue; path: string }[],
  def: ObjectDef,
  options: PipelineParseOptions,
): Pipeline {
  let scope: StageScope = {
    properties: recordProperties(def, options.allowed ?? 'all'),
    records: true,
    head: true,
    allRecordProperties: allProperties(def),
    options,
  };
  const stages: Stage[] = [];
  for (const { key, value, path } of entries) {
    const parsed = parseStage(key, value, scope, path);
    stages.push(...parsed.stages);
    scope = parsed.next;
  }
  return { object: def.name, stages, output: scope.properties };
}

interface ParsedStage {
  stages: Stage[];
  next: StageScope;
}

function parseStage(key: string, value: JsonValue, scope: StageScope, path: string): ParsedStage {
  const ctx = { scope };
  const same = (stage: Stage, head = scope.head): ParsedStage => ({ stages: [stage], next: { ...scope, head } });
  const reshaped = (stages: Stage[], output: PropertyDef[]): ParsedStage => ({
    stages,
    next: { ...scope, properties: asStageOutput(output), records: false, head: false },
  });
  switch (key) {
    case '$match':
      return same({ kind: 'match', condition: parseMatch(value, scope, path), head: scope.head });
    case '$sort':
      return same({ kind: 'sort', keys: parseSortStage(value, scope, path), head: scope.head });
    case '$skip':
      return same({ kind: 'skip', count: parseCount(value, 'skip', path) }, false);
    case '$limit':
      return same({ kind: 'limit', count: parseCount(value, 'limit', path) }, false);
    case '$project': {
      const { fields, output } = parseProject(value, ctx, path);
      return reshaped([{ kind: 'project', fields }], output);
    }
    case '$addFields': {
      const { fields, output } = parseAddFields(value, ctx, path);
      return reshaped([{ kind: 'addFields', fields }], output);
    }
    case '$group': {
      const { key: groupKey, accumulators, output } = parseGroup(value, ctx, path);
      return reshaped([{ kind: 'group', key: groupKey, accumulators }], output);
    }
    case '$unwind': {
      const { field, element, output } = parseUnwind(value, scope, path);
      return reshaped([{ kind: 'unwind', field, element }], output);
    }
    case '$count': {
      const name = parseCountStage(value, path);
      return reshaped([{ kind: 'count', name }], [{ name, type: 'Integer', indexed: true }]);
    }
    case '$sortByCount':
      return sortByCount(value, scope, path);
    default:
      if (UNSUPPORTED_STAGES.has(key)) throw unsupportedFault(`The pipeline stage ${key} is not supported.`, path);
      throw queryFault(`"${key}" is not a valid pipeline stage; use ${PIPELINE_STAGES.join(' ')}.`, path);
  }
}

/** `{$sortByCount: expr}` ≡ `{$group: {_id: expr, count: {$sum: 1}}}, {$sort: {count: -1}}`. */
function sortByCount(value: JsonValue, scope: StageScope, path: string): ParsedStage {
  if (isJsonObject(value) && !Object.keys(value).some((k) => k.startsWith('$'))) {
    throw queryFault('$sortByCount takes a property path or an expression.', path);
  }
  const { key, accumulators, output } = parseGroup({ _id: value, count: { $sum: 1 } }, { scope }, path);
  const next: StageScope = { ...scope, properties: asStageOutput(output), records: false, head: false };
  const count = parseSortStage({ count: -1 }, next, path);
  return {
    stages: [
      { kind: 'group', key, accumulators },
      { kind: 'sort', keys: count, head: false },
    ],
    next,
  };
}
