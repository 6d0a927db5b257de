/**
 * Running a view (docs/views.md): the caller needs `view.execute.<name>` or
 * `view.execute.<_id>` and nothing else, since the view, not the caller's token, decides what is
 * read; the view's acl decides who may run it; the query runs as the view's principal (or the
 * caller) with the caller's grant and skipAcl claims on top.
 */
import { fault } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import { parsePaths } from '../../../src-shared/query/parse.js';
import { parseWhereDocument } from '../../../src-shared/query/parse.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { resolveRoles } from '../access/roles.js';
import { accountSnapshot } from '../access/account-snapshot.js';
import { MAX_SHARED_LEVEL } from '../access/levels.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { VersionedCache } from '../db/data-version.js';
import { resolvePath, type ObjectDef } from '../../../src-shared/schema/types.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { listPage, type Page } from '../records/list.js';
import { pageRecords, pageText, type PageFormat, type Presented } from '../records/presentation.js';
import { expandPage, selectionOf } from '../records/expand.js';
import { findObjectDef } from '../records/object-def.js';
import { queryPolicy } from '../records/query-policy.js';
import {
  compileView,
  resolvePrincipal,
  resolveRole,
  runQuery,
  type CompiledView,
  type Range,
  type ViewAclEntry,
} from './compile-view.js';
import { VIEW_DEF } from '../objects/view-def.js';
import type { PipelineParseOptions } from '../../../src-shared/query/pipeline/parse-pipeline.js';
import { aggregatePage, pipelineListText, type AggregatePage } from '../records/aggregate.js';
import { aggregates, aggregationOf } from './view-aggregation.js';
import { argumentsWithDefaults } from './view-variables.js';

type ViewRecord = StoredRecord & { text: string };

/** One run's page and what presenting it needs; `presentViewPage` writes it out. */
export interface ViewPage {
  source: ObjectDef;
  /** Whom the query ran as (the view's principal or the caller). */
  runner: Caller;
  /** The rows, with the runner's level on each (objectAcl included); absent when it aggregates. */
  page?: Page;
  /** An aggregating view's output (group or pipeline components). */
  aggregate?: AggregatePage;
  /** The page presented with references expanded (`expand[]`, paths into references). */
  expanded?: Presented[];
  paths?: string[];
}

export function runView(
  svc: Service,
  org: Org,
  caller: Caller,
  nameOrId: string,
  args: Record<string, unknown>,
): ViewPage {
  const found = resolvedView(svc, org, nameOrId);
  const record = found.record;
  if (caller.scopes !== undefined) {
    const aliases = record ? [record._id, found.name(record)].filter((a) => a !== nameOrId) : [];
    const decision = checkScope(caller.scopes, { kind: 'view', identifier: nameOrId, aliases });
    if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  }
  if (!record) throw fault('notFound', 'view', { reason: `There is no view ${nameOrId.slice(0, 100)}.` });
  const view = compiledView(svc, org, record, found);
  if (!view.active) throw fault('accessDenied', 'view', { reason: `The view ${view.name} is not active.` });
  if (!aclAllows(svc, org, caller, view, found)) {
    throw fault('accessDenied', 'view', { reason: `The view ${view.name} does not allow you to run it.` });
  }
  const runner = runnerOf(svc, org, caller, view, found);
  const limit = clamp(view.limit, args.limit, 'limit');
  const skip = clamp(view.skip, args.skip, 'skip');
  const paths = pathsOf(view, args);
  // objectAcl lifts the runner's level on every instance the view reads (never lowers it). The
  // runner carries no scopes: the view, not the caller's token, decides what is read.
  const everyInstance = objectAclLevel(svc, org, runner, view, found);
  if (aggregates(view)) {
    const filled = argumentsWithDefaults(view.variables, args);
    const parse = (options: PipelineParseOptions) => aggregationOf(view, view.source, filled, options);
    const aggregate = aggregatePage(svc, org, runner, view.source, parse, { skip, limit }, { everyInstance });
    return { source: view.source, runner, aggregate };
  }
  const { where, sort } = runQuery(view, org, args);
  const query = { ...(where ? { where } : {}), sort, skip, limit };
  const page = listPage(svc, org, runner, view.source, query, { everyInstance });
  const expand = args['expand[]'] ?? args.expand;
  const crosses = paths?.some((p) => !resolvePath(view.source, p));
  if (expand === undefined && !crosses) return { source: view.source, runner, page, ...(paths ? { paths } : {}) };
  // References expand as the caller reads them, not as the view's principal: a view shows its
  // source's records, never more of other objects than the caller may read.
  const selection = selectionOf(svc, org, view.source, {
    ...(paths ? { paths } : {}),
    ...(expand !== undefined ? { expand: Array.isArray(expand) ? expand.map(String) : [String(expand)] } : {}),
  });
  const expanded = pageRecords(runner, view.source, page, selection.paths);
  expandPage(svc, org, caller, expanded, selection);
  return { source: view.source, runner, page, expanded };
}

/**
 * The page as the list envelope or as NDJSON (one record per line), presented as every list is
 * (records/presentation.ts): whole records of a definition without hidden properties are written
 * from their stored text, exactly as the direct list request writes them; only a projection
 * (`paths`) builds objects.
 */
export function presentViewPage(view: ViewPage, format: PageFormat): string {
  if (view.aggregate) {
    if (format === 'list') return pipelineListText(view.aggregate);
    return view.aggregate.texts.map((t) => `${t}\n`).join('');
  }
  if (view.expanded) {
    const { expanded, page } = view;
    if (format === 'list') return JSON.stringify({ object: 'list', data: expanded, hasMore: page!.hasMore });
    return expanded.map((d) => `${JSON.stringify(d)}\n`).join('');
  }
  return pageText(view.runner, view.source, view.page!, view.paths, format);
}

/**
 * What a run looks up about a view besides its compile, kept while nothing is written (the data
 * version, as for accounts and roles): the view record found by name or `_id`, its name and
 * source, and the accounts and roles its principal, acl and objectAcl name. So a run whose view
 * and org are unchanged reads no view record and resolves no name again; any commit (an edit of
 * the view, a role or an account, here or from another process) empties it.
 */
class Resolution {
  private nameText: string | undefined;
  private sourceText: string | undefined;
  /** `role:<target>` → role `_id`, `account:<target>` → account `_id` (undefined: none). */
  readonly lookups = new Map<string, string | undefined>();
  /** The principal as a caller, or null when it no longer exists. */
  principal: Caller | null | undefined;

  constructor(readonly record: ViewRecord | undefined) {}

  name(record: ViewRecord): string {
    return (this.nameText ??= String(record.doc.name));
  }

  sourceObject(record: ViewRecord): string {
    return (this.sourceText ??= String(record.doc.sourceObject));
  }

  lookup(key: string, load: () => string | undefined): string | undefined {
    if (this.lookups.has(key)) return this.lookups.get(key);
    const value = load();
    this.lookups.set(key, value);
    return value;
  }
}

const resolutions = new WeakMap<Service, VersionedCache<string, Resolution>>();

function resolvedView(svc: Service, org: Org, nameOrId: string): Resolution {
  let cache = resolutions.get(svc);
  if (!cache) {
    cache = new VersionedCache(svc.versions, 1000);
    resolutions.set(svc, cache);
  }
  return cache.get(`${org.id}:${nameOrId}`, () => new Resolution(findView(svc, org, nameOrId)));
}

export function findView(svc: Service, org: Org, nameOrId: string): ViewRecord | undefined {
  const def = svc.defs.byName(org.id, VIEW_DEF.name);
  if (!def) return undefined;
  if (OBJECT_ID_PATTERN.test(nameOrId.toLowerCase())) return svc.store.getText(org.id, def, nameOrId.toLowerCase());
  const where = parseWhereDocument({ name: nameOrId }, def);
  return svc.store.list(org.id, def, { ...(where ? { where } : {}), sort: [], skip: 0, limit: 1 }).rows[0];
}

function compiledView(svc: Service, org: Org, record: ViewRecord, found: Resolution): CompiledView {
  const sourceObject = found.sourceObject(record);
  // Looked up on every run: definitions are replaced when they change, and the cache compares them.
  const source = findObjectDef(svc, org, sourceObject);
  // A fixed where is parsed when compiled, under the org's negation setting of that moment.
  const variant = queryPolicy(org).allowNegations === false ? 'noNegation' : '';
  return svc.views.get(
    org.id,
    record,
    source,
    () => {
      try {
        return compileView(svc, org, record._id, record.doc);
      } catch (err) {
        // Saved views compile; one that no longer does (its source changed) cannot run.
        throw fault('invalidArgument', 'view', {
          reason: `The view ${String(record.doc.name)} no longer compiles: ${(err as Error).message}`,
        });
      }
    },
    variant,
  );
}

/** Org administrators may run every view; others need an entry. An empty acl is for administrators only. */
function aclAllows(svc: Service, org: Org, caller: Caller, view: CompiledView, found: Resolution): boolean {
  if (caller.orgAdmin) return true;
  return view.acl.some((entry) => entryMatches(svc, org, caller, entry, found));
}

/**
 * The level the view's `objectAcl` gives the account the query runs as (its principal, else the
 * caller) on every instance of the source object it reads: the highest `allow` of the entries that
 * match it (a role it holds, its account, or `*`), capped at read when saved; 0 when none match.
 * So a view can show analysts records their own ACL would not, and only through the view.
 */
function objectAclLevel(svc: Service, org: Org, runner: Caller, view: CompiledView, found: Resolution): number {
  let level = 0;
  for (const entry of view.objectAcl) {
    if (entry.allow <= level) continue;
    if (entryMatches(svc, org, runner, entry, found)) level = entry.allow;
  }
  return level;
}

function entryMatches(svc: Service, org: Org, who: Caller, entry: ViewAclEntry, found: Resolution): boolean {
  if (entry.type === 'account') {
    if (entry.target === '*') return true;
    return found.lookup(`account:${entry.target}`, () => resolvePrincipal(svc, org, entry.target)) === who.accountId;
  }
  const roleId = found.lookup(`role:${entry.target}`, () => resolveRole(svc, org, entry.target)?._id);
  return roleId !== undefined && who.roles.has(roleId);
}

/** Who the query runs as: the view's principal or the caller, never scope-limited, with the caller's grant and skipAcl. */
function runnerOf(svc: Service, org: Org, caller: Caller, view: CompiledView, found: Resolution): Caller {
  let base: Caller = caller;
  if (view.principal) {
    found.principal ??= principalCaller(svc, org, view.principal);
    if (!found.principal) throw fault('accessDenied', 'view', { reason: `The view's principal no longer exists.` });
    base = found.principal;
  }
  const runner: Caller = {
    accountId: base.accountId,
    roles: base.roles,
    orgAdmin: base.orgAdmin,
    skipAcl: base.skipAcl || caller.skipAcl,
    bypassCreateAcl: false,
  };
  if (caller.grant !== undefined) runner.grant = Math.min(caller.grant, MAX_SHARED_LEVEL);
  return runner;
}

function principalCaller(svc: Service, org: Org, principal: string): Caller | null {
  const accountId = resolvePrincipal(svc, org, principal);
  if (!accountId) return null;
  const account = accountSnapshot(svc, org, accountId);
  const roles = resolveRoles(svc, org, [...(account?.roles ?? []), ...(account?.inheritedRoles ?? [])]).roleSet;
  return { accountId, roles, orgAdmin: roles.has(BUILTIN_ROLES.administrator), skipAcl: false, bypassCreateAcl: false };
}

/** The request's value when settable, clamped into the view's range; otherwise the view's default. */
function clamp(range: Range, raw: unknown, name: string): number {
  if (!range.settable || raw === undefined) return range.defaultValue;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw.trim())) {
    throw fault('invalidArgument', 'query', { path: name, reason: `${name} must be a whole number.` });
  }
  return Math.min(range.max, Math.max(range.min, Number(raw.trim())));
}

function pathsOf(view: CompiledView, args: Record<string, unknown>): string[] | undefined {
  const raw = args['paths[]'] ?? args.paths;
  let paths = view.paths.defaultValue;
  if (view.paths.settable && raw !== undefined) {
    paths = parsePaths(Array.isArray(raw) ? raw.map(String) : [String(raw)], view.source);
  }
  // limitTo bounds what any run returns, the default included.
  if (view.paths.limitTo) {
    const allowed = view.paths.limitTo;
    paths = (paths ?? allowed).filter((p) => allowed.some((a) => p === a || p.startsWith(`${a}.`)));
    if (paths.length === 0) paths = allowed;
  }
  return paths && paths.length > 0 ? paths : undefined;
}
