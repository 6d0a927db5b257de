import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { parseListQuery, type RawListArgs } from '../../../src-shared/query/parse.js';
import type { ParseOptions } from '../../../src-shared/query/parse-where.js';
import type { Pipeline } from '../../../src-shared/query/pipeline/ast.js';
import { parseAggregation, type AggregationArgs } from '../../../src-shared/query/pipeline/list-arguments.js';
import type { PipelineParseOptions } from '../../../src-shared/query/pipeline/parse-pipeline.js';

/** Arguments longer than this (all of them together) are parsed every time, never kept. */
export const MAX_CACHED_ARGS_LENGTH = 2048;
/** Parsed queries kept per definition; the oldest goes first. */
export const MAX_CACHED_PER_DEF = 256;

/**
 * Parses kept by the raw arguments that produced them, per definition object.
 *
 * A client or a console grid asks the same few questions over and over, and parsing one (the
 * `where` and `sort` JSON, operators, paths checked against the definition, values such as dates
 * normalised) cost about a tenth of a 100-record page's CPU; a short `$group` pipeline's parse cost
 * more than its fixed request cost (issue 43). A parse depends only on the raw text, the
 * definition and the parse options, so the result is kept per definition object: the definition
 * repository gives a changed definition a new object (see `DefinitionRepository`), so a schema
 * change misses here and the old entries go with the old object. Faults are not kept: bad input
 * is parsed (and refused) every time. Entries are frozen, since every request shares them.
 */
class PerDefinition<T> {
  private readonly byDef = new WeakMap<ObjectDef, Map<string, T>>();

  /** `key` undefined: not to be kept (too long, or not text). */
  get(def: ObjectDef, key: string | undefined, parse: () => T): T {
    if (key === undefined || key.length > MAX_CACHED_ARGS_LENGTH) return parse();
    let kept = this.byDef.get(def);
    if (kept === undefined) {
      kept = new Map();
      this.byDef.set(def, kept);
    }
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const parsed = deepFreeze(parse());
    if (parsed === undefined) return parsed;
    if (kept.size >= MAX_CACHED_PER_DEF) kept.delete(kept.keys().next().value as string);
    kept.set(key, parsed);
    return parsed;
  }
}

/** Parsed list queries (`where`, `sort`, `skip`, `limit`, `paths`). */
export class ParsedListQueries {
  private readonly kept = new PerDefinition<ListQuery>();

  parse(raw: RawListArgs, def: ObjectDef, options: ParseOptions = {}): ListQuery {
    const key = JSON.stringify([
      options.allowNegations === false,
      raw.where ?? null,
      raw.sort ?? null,
      raw.skip ?? null,
      raw.limit ?? null,
      raw.paths ?? null,
    ]);
    return this.kept.get(def, key, () => parseListQuery(raw, def, options));
  }
}

const AGGREGATION_ARGS = [
  'pipeline',
  'group',
  'map',
  'nativePipeline',
  'where',
  'sort',
  'startingAfter',
  'endingBefore',
  'paths',
  'expand',
  'include',
] as const satisfies readonly (keyof AggregationArgs)[];

/**
 * Parsed aggregations (`pipeline`, or `group` with `where` and `sort`), as `parseAggregation`
 * answers them under the caller's readable properties. Only arguments given as text are kept (a
 * query string's): decoded values from a driver body or a script could hold what JSON text cannot
 * tell apart (a Date and its ISO string), so those are parsed every time.
 */
export class ParsedAggregations {
  private readonly kept = new PerDefinition<Pipeline | undefined>();

  parse(args: AggregationArgs, def: ObjectDef, options: PipelineParseOptions = {}): Pipeline | undefined {
    return this.kept.get(def, aggregationKey(args, options), () => parseAggregation(args, def, options));
  }
}

function aggregationKey(args: AggregationArgs, options: PipelineParseOptions): string | undefined {
  // Each value length-prefixed, so no text can pass for another split; cheaper than JSON, which
  // escapes every quote of a pipeline's text.
  let key = `${options.allowNegations === false ? 1 : 0}${options.unindexed === true ? 1 : 0}`;
  const allowed = options.allowed ?? 'all';
  key += allowed === 'all' ? '*' : JSON.stringify(allowed);
  for (const name of AGGREGATION_ARGS) {
    const v = args[name];
    if (v === undefined || v === null) key += '|-';
    else if (typeof v === 'string') key += `|${v.length}:${v}`;
    else return undefined;
  }
  return key;
}

/** The AST is plain data (ast.ts): objects, arrays and scalars. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
