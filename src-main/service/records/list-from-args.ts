/**
 * Record lists from raw query-string arguments (`where`, `sort`, `skip`, `limit`, `paths[]`): a
 * collection's own list (REST `GET /<collection>`) and the list properties nested in a record or
 * a page (`connections`, read with `connections.limit`, …), through the one list pipeline
 * (list.ts) and presentation (presentation.ts).
 */
import { fault, FaultError, type FaultBody } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import type { AllowedProperties } from '../../../src-shared/scopes/property-path.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Json } from '../objects/validate.js';
import type { RowFilter } from '../query/row-filters.js';
import { ACCESS } from '../access/levels.js';
import { scopeAllows } from '../access/scope-guard.js';
import type { Caller } from '../access/caller.js';
import { rawAggregationArgs, rawListArgs } from './list-args.js';
import { parseLimit, parseSkip } from '../../../src-shared/query/parse.js';
import type { Selection } from '../../../src-shared/query/references/parse-selection.js';
import { aggregatePage, pipelineDocuments, pipelineListText } from './aggregate.js';
import { expandedPageText, expandPage, expandsNothing, selectionOf } from './expand.js';
import { queryPolicy } from './query-policy.js';
import { listPage, type ListOptions } from './list.js';
import { pageRecords, wholeRecordsText } from './presentation.js';

interface ArgsListOptions {
  /** Query-string arguments are read as `prefix<name>` (a list property's own arguments). */
  prefix?: string;
  /** Conditions the caller does not control (the instance a list property belongs to). */
  filters?: readonly RowFilter[];
  /** A list property of an instance the caller may share: every entry is readable. */
  contextual?: boolean;
  /** Whole records may be answered as one JSON text built from their stored text. */
  asText?: boolean;
  /** Page size when the caller gives none (list properties inside a collection list). */
  defaultLimit?: number;
}

/** A collection's own list: the hottest list there is, so its options are built once. */
export const COLLECTION_LIST: ArgsListOptions = Object.freeze({ asText: true });

/** A list property's default page size inside a collection list (one record's own read: 100). */
const NESTED_DEFAULT_LIMIT = 10;
/** At most this many nested records in one collection page: page limit × list-property limit. */
export const MAX_NESTED_RECORDS = 10_000;

/**
 * Runs a list query given raw query-string arguments: the list envelope as an object, or as JSON
 * text when whole records can be written from their stored text.
 */
export function listFromArgs(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  queryString: unknown,
  opts: ArgsListOptions,
): string | { object: 'list'; data: Record<string, Json>[]; hasMore: boolean } {
  const { prefix = '', contextual = false, asText = false } = opts;
  const listOptions =
    opts.filters || contextual ? { ...(opts.filters ? { filters: opts.filters } : {}), contextual } : undefined;
  const aggregation = rawAggregationArgs(queryString as Record<string, unknown>, prefix);
  if (aggregation) return aggregateFromArgs(svc, org, caller, def, queryString, aggregation, opts, listOptions);
  const policy = queryPolicy(org);
  let selection: Selection | undefined;
  const parse = () => {
    const raw = rawListArgs(queryString as Record<string, unknown>, prefix);
    if (opts.defaultLimit !== undefined && raw.limit === undefined) raw.limit = String(opts.defaultLimit);
    // A list property's faults name its argument in full (`connections.limit`), as the caller wrote it.
    const query =
      prefix === ''
        ? svc.listQueries.parse(raw, def, policy)
        : withPathPrefix(prefix, () => parseListQuery(raw, def, policy));
    if (raw.paths || raw.expand || raw.include)
      selection = withPathPrefix(prefix, () => selectionOf(svc, org, def, raw));
    return query;
  };
  const page = listPage(svc, org, caller, def, parse, listOptions);
  const paths = selection ? selection.paths : page.query.paths;
  const plain = expandsNothing(selection);
  const text =
    asText && !contextual
      ? plain
        ? wholeRecordsText(caller, def, page, paths)
        : expandedPageText(svc, org, caller, def, page, selection)
      : undefined;
  if (text !== undefined) return text;
  // A collection's own list carries list properties only when `paths[]` or `include[]` names them, bounded (below).
  const nested = asText ? requestedListProperties(def, paths, selection?.include) : [];
  if (nested.length > 0) assertNestedListsBounded(queryString, page.query.limit, nested);
  const data = pageRecords(caller, def, page, paths, (out, level, allowed) => {
    if (nested.length === 0) return;
    addListProperties(svc, org, caller, def, out, {
      level,
      allowed,
      // Only the list properties named: by paths[], or by include[] alone.
      paths: paths ?? [],
      include: selection?.include,
      query: queryString,
      defaultLimit: NESTED_DEFAULT_LIMIT,
    });
  });
  expandPage(svc, org, caller, data, selection);
  return { object: 'list', data, hasMore: page.hasMore };
}

/** `pipeline=` or `group=` on a list: the aggregation's page (records/aggregate.ts). */
function aggregateFromArgs(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  queryString: unknown,
  aggregation: NonNullable<ReturnType<typeof rawAggregationArgs>>,
  opts: ArgsListOptions,
  listOptions: ListOptions | undefined,
): string | { object: 'list'; data: Record<string, Json>[]; hasMore: boolean } {
  const prefix = opts.prefix ?? '';
  const raw = rawListArgs(queryString as Record<string, unknown>, prefix);
  const page = withPathPrefix(prefix, () => ({
    skip: parseSkip(raw.skip),
    limit: parseLimit(raw.limit ?? (opts.defaultLimit === undefined ? undefined : String(opts.defaultLimit))),
  }));
  const args = {
    ...aggregation,
    where: raw.where,
    sort: raw.sort,
    paths: raw.paths,
    expand: raw.expand,
    include: raw.include,
  };
  const result = aggregatePage(
    svc,
    org,
    caller,
    def,
    (options) => withPathPrefix(prefix, () => svc.aggregations.parse(args, def, options)!),
    page,
    listOptions,
  );
  // A collection's own list is written from the documents' text; a list property nests objects.
  if (opts.asText) return pipelineListText(result);
  return { object: 'list', data: pipelineDocuments(result) as Record<string, Json>[], hasMore: result.hasMore };
}

function requestedListProperties(
  def: ObjectDef,
  paths: readonly string[] | undefined,
  include: readonly string[] | undefined,
) {
  return def.properties.filter(
    (p) => isListProperty(p) && (namesProperty(paths, p.name) || !!include?.includes(p.name)),
  );
}

function namesProperty(paths: readonly string[] | undefined, name: string): boolean {
  return !!paths?.some((path) => path === name || path.startsWith(`${name}.`));
}

/**
 * A collection page that includes list properties stays bounded: its limit times each list
 * property's limit (`connections.limit`, default 10) is at most MAX_NESTED_RECORDS.
 */
function assertNestedListsBounded(queryString: unknown, pageLimit: number, props: readonly { name: string }[]) {
  const q = (queryString ?? {}) as Record<string, unknown>;
  for (const prop of props) {
    const raw = q[`${prop.name}.limit`];
    const limit = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : NESTED_DEFAULT_LIMIT;
    if (pageLimit * limit > MAX_NESTED_RECORDS) {
      throw fault('invalidArgument', 'query', {
        path: `${prop.name}.limit`,
        reason: `A page that includes ${prop.name} holds at most ${MAX_NESTED_RECORDS} of them: limit × ${prop.name}.limit is ${pageLimit * limit}.`,
      });
    }
  }
}

interface NestedListArgs {
  /** The caller's level on the record. */
  level: number;
  /** The properties the caller's scopes let them read on the record. */
  allowed: AllowedProperties;
  paths: readonly string[] | undefined;
  /** `include[]`: list properties asked for besides those `paths` names. */
  include?: readonly string[] | undefined;
  /** The request's query string: each list property reads its own `<name>.` arguments. */
  query: unknown;
  defaultLimit?: number;
}

/** Adds each list property (a patient file's `connections`) the caller asked for and may read, as a list envelope. */
export function addListProperties(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  out: Record<string, Json>,
  args: NestedListArgs,
): void {
  const { level, allowed, paths, query } = args;
  const id = out._id as string;
  for (const prop of def.properties) {
    if (!isListProperty(prop)) continue;
    if (paths && !namesProperty(paths, prop.name) && !args.include?.includes(prop.name)) continue;
    if (allowed !== 'all' && !allowed.some((p) => p === prop.name || p.startsWith(`${prop.name}.`))) continue;
    const listDef = svc.defs.byName(org.id, prop.refObject);
    if (!listDef || !scopeAllows(caller, 'read', listDef)) continue;
    // Whoever may share the instance sees all of its connections; others only those they may read.
    const contextual = level >= ACCESS.share;
    out[prop.name] = listFromArgs(svc, org, caller, listDef, query, {
      prefix: `${prop.name}.`,
      filters: [{ kind: 'equals', path: 'context._id', value: id }],
      contextual,
      ...(args.defaultLimit !== undefined ? { defaultLimit: args.defaultLimit } : {}),
    }) as unknown as Json;
  }
}

const listPropertiesByDef = new WeakMap<ObjectDef, boolean>();

/** Whether a definition has list properties; asked on every read, so remembered per definition. */
export function hasListProperties(def: ObjectDef): boolean {
  let has = listPropertiesByDef.get(def);
  if (has === undefined) {
    has = def.properties.some(isListProperty);
    listPropertiesByDef.set(def, has);
  }
  return has;
}

/** List properties (a patient file's `connections`): read as nested list envelopes. */
export function isListProperty(prop: ObjectDef['properties'][number]): prop is typeof prop & { refObject: string } {
  return prop.type === 'List' && prop.refObject !== undefined && prop.refObject !== '';
}

/** Runs `fn`; a fault it throws with a `path` gets `prefix` in front of that path (and its children's). */
function withPathPrefix<T>(prefix: string, fn: () => T): T {
  if (prefix === '') return fn();
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof FaultError)) throw err;
    const prefixed = (f: FaultBody): FaultBody => ({
      ...f,
      ...(f.path !== undefined ? { path: `${prefix}${f.path}` } : {}),
      ...(f.faults ? { faults: f.faults.map(prefixed) } : {}),
    });
    throw new FaultError(prefixed(err.fault));
  }
}
