/**
 * The driver's aggregations and selections: a `cursor` with `pipeline` (what mdctl's
 * `org.objects.x.aggregate([...])` sends) or `group`, paged or streamed; `expand`, `include` and
 * `paths` into references on any read. `nativePipeline` and `map` are refused by name; `unindexed`
 * is privileged like `skipAcl` (docs/driver.md: dropped unless the caller holds it).
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_SKIP } from '../../../src-shared/query/limits.js';
import { parseLimit, parseSkip } from '../../../src-shared/query/parse.js';
import { parseAggregation } from '../../../src-shared/query/pipeline/list-arguments.js';
import type { Selection } from '../../../src-shared/query/references/parse-selection.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { aggregatePage, pipelineDocuments, walkAggregate } from '../records/aggregate.js';
import { selectionOf } from '../records/expand.js';
import { numberText } from './list-query.js';
import type { DriverContext, DriverResult, Options } from './operation.js';

const AGGREGATION_OPTIONS = ['pipeline', 'group', 'map', 'nativePipeline'] as const;

/** Whether the options ask for an aggregation rather than records. */
export function isAggregation(opts: Options): boolean {
  return AGGREGATION_OPTIONS.some((k) => opts[k] !== undefined && opts[k] !== null);
}

/** `count` and `readOne` answer records: a pipeline there is refused, not ignored. */
export function refuseAggregation(opts: Options, operation: string): void {
  const key = AGGREGATION_OPTIONS.find((k) => opts[k] !== undefined && opts[k] !== null);
  if (key) {
    throw fault('invalidArgument', 'query', { path: key, reason: `${operation} cannot run a ${key}; use cursor.` });
  }
}

/** `paths`, `expand` and `include` (strings or arrays of them), checked; undefined when none. */
export function selectionOptions(svc: Service, org: Org, def: ObjectDef, opts: Options): Selection | undefined {
  const list = (v: unknown) =>
    v === undefined || v === null ? undefined : Array.isArray(v) ? v.map(String) : [String(v)];
  const args = { paths: list(opts.paths), expand: list(opts.expand), include: list(opts.include) };
  if (!args.paths && !args.expand && !args.include) return undefined;
  return selectionOf(svc, org, def, {
    ...(args.paths ? { paths: args.paths } : {}),
    ...(args.expand ? { expand: args.expand } : {}),
    ...(args.include ? { include: args.include } : {}),
  });
}

export function aggregateCursor(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  opts: Options,
  context: DriverContext,
): DriverResult {
  const unindexed = opts.unindexed === true && (context.trustedOptions === true || caller.orgAdmin || caller.skipAcl);
  const parse = (options: Parameters<typeof parseAggregation>[2]) => parseAggregation(opts, def, options)!;
  const skip = continuation(context.after) ?? parseSkip(numberText(opts.skip, 'skip'));
  if (context.stream) {
    const max =
      opts.limit === false ? Number.POSITIVE_INFINITY : parseLimit(numberText(opts.limit ?? DEFAULT_LIMIT, 'limit'));
    // Run once now, so a refused pipeline is an ordinary fault and not a stream's last line.
    aggregatePage(svc, org, caller, def, parse, { skip, limit: 1 }, { unindexed });
    return {
      kind: 'stream',
      items: toAsync(walkAggregate(svc, org, caller, def, parse, { skip, max }, { unindexed })),
    };
  }
  const limit = opts.limit === false ? MAX_LIMIT : parseLimit(numberText(opts.limit, 'limit'));
  const page = aggregatePage(svc, org, caller, def, parse, { skip, limit }, { unindexed });
  // A script's cursor continues with `next`: for a pipeline, how many documents it has read.
  const data = pipelineDocuments(page);
  const next = page.hasMore ? [skip + data.length] : undefined;
  return { kind: 'list', data, hasMore: page.hasMore, ...(next ? { next } : {}) };
}

/** A pipeline cursor's continuation (`[documents read]`), checked as script output. */
function continuation(after: readonly unknown[] | undefined): number | undefined {
  if (!after) return undefined;
  const [n] = after;
  if (after.length !== 1 || typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > MAX_SKIP) {
    throw fault('invalidArgument', 'query', { reason: 'A cursor continues only where one of its pages ended.' });
  }
  return n;
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}
