/**
 * The list arguments that turn a list into an aggregation, as every reader takes them (REST query
 * strings, driver options, a view's components): `pipeline`, or `group` with `where` and `sort`;
 * `map` and `nativePipeline` are refused by name. Values are JSON text (query strings, views) or
 * decoded JSON (driver bodies).
 *
 * TRUST BOUNDARY: every value is untrusted; parsing goes through parse-pipeline.ts.
 */
import { fault } from '../../faults.js';
import type { ObjectDef } from '../../schema/types.js';
import { queryFault } from '../faults.js';
import type { JsonValue } from '../json.js';
import type { Pipeline } from './ast.js';
import { decode, parseGroupArguments, parsePipeline, type PipelineParseOptions } from './parse-pipeline.js';

export interface AggregationArgs {
  pipeline?: unknown;
  group?: unknown;
  map?: unknown;
  nativePipeline?: unknown;
  where?: unknown;
  sort?: unknown;
  startingAfter?: unknown;
  endingBefore?: unknown;
  paths?: unknown;
  expand?: unknown;
  include?: unknown;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The aggregation the arguments ask for; undefined when they ask for a plain list. */
export function parseAggregation(
  args: AggregationArgs,
  def: ObjectDef,
  options: PipelineParseOptions = {},
): Pipeline | undefined {
  if (present(args.nativePipeline)) {
    throw fault('unsupportedOperation', undefined, {
      path: 'nativePipeline',
      reason: 'nativePipeline is not supported: it would reach the database unparsed. Use pipeline.',
    });
  }
  if (present(args.map)) {
    throw fault('unsupportedOperation', undefined, {
      path: 'map',
      reason: 'The map list argument is not supported; use pipeline with $unwind and $match.',
    });
  }
  const selection = (['paths', 'expand', 'include'] as const).find((k) => present(args[k]));
  if (present(args.pipeline)) {
    const other = (['where', 'sort', 'group', 'startingAfter', 'endingBefore'] as const).find((k) => present(args[k]));
    if (other) {
      throw queryFault(
        'startingAfter, endingBefore, where, map, group and sort are incompatible with pipeline.',
        other,
      );
    }
    if (selection) throw queryFault(`${selection} applies to records, not to a pipeline's documents.`, selection);
    return parsePipeline(args.pipeline, def, options);
  }
  if (!present(args.group)) return undefined;
  if (selection) throw queryFault(`${selection} applies to records, not to groups.`, selection);
  const bound = (['startingAfter', 'endingBefore'] as const).find((k) => present(args[k]));
  if (bound) throw queryFault('startingAfter/endingBefore is incompatible with group.', bound);
  return parseGroupArguments(
    {
      group: jsonArgument(args.group, 'group', true),
      ...(present(args.where) ? { where: jsonArgument(args.where, 'where', false) } : {}),
      ...(present(args.sort) ? { sort: jsonArgument(args.sort, 'sort', true) } : {}),
    },
    def,
    options,
  );
}

/** JSON text decoded, a bare name (`group=name.last`, `sort=count`) kept as text, JSON as given. */
function jsonArgument(value: unknown, name: string, bareName: boolean): JsonValue {
  if (typeof value !== 'string') return value as JsonValue;
  const text = value.trim();
  if (bareName && /^[A-Za-z_][A-Za-z0-9_.]*$/.test(text)) return text;
  return decode(text, name);
}
