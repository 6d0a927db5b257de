/**
 * Aggregation for every reader (REST lists and list properties, the driver and scripts, views):
 * the same pipeline as a list (list.ts) up to the store — the caller's read scope, then the
 * pipeline parsed against what they may read, the readable condition before its first stage —
 * and the store runs it as one SQL statement (query/pipeline/). Output documents go out as
 * docs/query-semantics.md "Aggregation" says: nulls left out, `object` added.
 */
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';
import type { Pipeline } from '../../../src-shared/query/pipeline/ast.js';
import { MAX_LIMIT, MAX_SKIP } from '../../../src-shared/query/limits.js';
import { presentPipelineTexts } from '../../../src-shared/query/pipeline/evaluate-pipeline.js';
import type { PipelineParseOptions } from '../../../src-shared/query/pipeline/parse-pipeline.js';
import { recordProperties } from '../../../src-shared/query/pipeline/shape.js';
import type { AllowedProperties } from '../../../src-shared/scopes/property-path.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { requireScope } from '../access/scope-guard.js';
import type { Caller } from '../access/caller.js';
import { queryPolicy } from './query-policy.js';
import { rowFilters, type ListOptions } from './list.js';
import type { Presented } from './presentation.js';

export interface AggregatePage {
  /** The output documents as they go out, JSON text each (`pipelineDocuments` parses them). */
  texts: string[];
  hasMore: boolean;
}

/** The page's documents as objects (the driver, scripts). */
export function pipelineDocuments(page: AggregatePage): Presented[] {
  return page.texts.map((t) => JSON.parse(t) as Presented);
}

/** The page as the list envelope's JSON text, written from the documents' text. */
export function pipelineListText(page: AggregatePage): string {
  return `{"object":"list","data":[${page.texts.join(',')}],"hasMore":${page.hasMore}}`;
}

/** Parses the pipeline with the caller's readable properties and the org's query policy. */
export type ParsePipeline = (options: PipelineParseOptions) => Pipeline;

export interface AggregateOptions extends Pick<ListOptions, 'filters' | 'contextual' | 'everyInstance'> {
  /** The privileged `unindexed` option (driver callers who may skip the ACL). */
  unindexed?: boolean;
}

/**
 * One page of a pipeline's output over what the caller may read. Given as a function, the
 * pipeline is parsed after the read scope is checked, against the properties it allows.
 */
export function aggregatePage(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  parse: ParsePipeline,
  page: { skip: number; limit: number },
  opts: AggregateOptions = {},
): AggregatePage {
  const allowed = requireScope(caller, 'read', def);
  assertTypeWideScopes(caller);
  const pipeline = parse({ ...queryPolicy(org), allowed, ...(opts.unindexed ? { unindexed: true } : {}) });
  return runPipeline(svc, org, caller, def, pipeline, allowed, page, opts);
}

function runPipeline(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  pipeline: Pipeline,
  allowed: AllowedProperties,
  page: { skip: number; limit: number },
  opts: AggregateOptions,
): AggregatePage {
  const properties = allowed === 'all' ? everyRecordProperty(def) : recordProperties(def, allowed);
  const pruned = allowed !== 'all' || def.properties.some((p) => p.hidden);
  const filters = rowFilters(svc, org, caller, def, opts);
  const { docs, hasMore } = svc.store.aggregate(org.id, def, pipeline, filters, { ...page, properties, pruned });
  return { texts: presentPipelineTexts(docs, def.name), hasMore };
}

const everyPropertyByDef = new WeakMap<ObjectDef, PropertyDef[]>();

/**
 * The properties of a caller who may read them all, one frozen list per definition: the store
 * keeps the SQL compiled for a pipeline by the list's identity (compiled-queries.ts).
 */
function everyRecordProperty(def: ObjectDef): PropertyDef[] {
  let props = everyPropertyByDef.get(def);
  if (props === undefined) {
    props = Object.freeze(recordProperties(def, 'all')) as PropertyDef[];
    everyPropertyByDef.set(def, props);
  }
  return props;
}

/**
 * Every output document from `skip` on, at most `max`, a page of MAX_LIMIT at a time (NDJSON
 * streams, script cursors): memory stays one page, no statement stays open between pages. Each
 * page runs the pipeline again from its start, so a stream of a large output costs a run per
 * thousand documents; outputs of groups are rarely that large.
 */
export function* walkAggregate(
  svc: Service,
  org: Org,
  caller: Caller,
  def: ObjectDef,
  parse: ParsePipeline,
  from: { skip: number; max: number },
  opts: AggregateOptions = {},
): Generator<Presented> {
  const allowed = requireScope(caller, 'read', def);
  assertTypeWideScopes(caller);
  const pipeline = parse({ ...queryPolicy(org), allowed, ...(opts.unindexed ? { unindexed: true } : {}) });
  let skip = from.skip;
  let sent = 0;
  while (sent < from.max && skip <= MAX_SKIP) {
    const limit = Math.min(MAX_LIMIT, from.max - sent);
    const page = runPipeline(svc, org, caller, def, pipeline, allowed, { skip, limit }, opts);
    for (const doc of pipelineDocuments(page)) yield doc;
    sent += page.texts.length;
    skip += page.texts.length;
    if (!page.hasMore || page.texts.length === 0) return;
  }
}

/**
 * Scopes that name single instances (`object.read.account.<_id>`) allow reading those records,
 * not aggregating over the type: a group would count records the scopes do not name.
 */
function assertTypeWideScopes(caller: Caller): void {
  if (caller.scopes?.some((chain) => /[0-9a-f]{24}/i.test(chain))) {
    throw fault('accessDenied', 'scope', {
      reason: "The token's scopes name single instances; aggregating needs a scope on the whole object.",
    });
  }
}
