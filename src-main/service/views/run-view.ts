/**
 * Running a view (original-clients.md §D): the caller needs `view.execute.<name>` or
 * `view.execute.<_id>` and nothing else, since the view, not the caller's token, decides what is
 * read; the view's acl decides who may run it; the query runs as the view's principal (or the
 * caller) with the caller's grant and skipAcl claims on top.
 */
import { fault } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import { parsePaths } from '../../../src-shared/query/parse.js';
import { parseWhereDocument } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { levelsOf, readableCondition } from '../access/acl.js';
import { resolveRoles } from '../access/roles.js';
import { accountSnapshot } from '../access/account-snapshot.js';
import { ACCESS, MAX_SHARED_LEVEL } from '../access/levels.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { presentRecord } from '../objects/present.js';
import type { StoredRecord } from '../objects/store.js';
import type { Json } from '../objects/validate.js';
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

type ViewRecord = StoredRecord & { text: string };

export interface ViewPage {
  data: Record<string, Json>[];
  hasMore: boolean;
}

export function runView(
  svc: Service,
  org: Org,
  caller: Caller,
  nameOrId: string,
  args: Record<string, unknown>,
): ViewPage {
  const record = findView(svc, org, nameOrId);
  if (caller.scopes !== undefined) {
    const aliases = record ? [record._id, String(record.doc.name)].filter((a) => a !== nameOrId) : [];
    const decision = checkScope(caller.scopes, { kind: 'view', identifier: nameOrId, aliases });
    if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  }
  if (!record) throw fault('notFound', 'view', { reason: `There is no view ${nameOrId.slice(0, 100)}.` });
  const view = compiledView(svc, org, record);
  if (!view.active) throw fault('accessDenied', 'view', { reason: `The view ${view.name} is not active.` });
  if (!aclAllows(svc, org, caller, view)) {
    throw fault('accessDenied', 'view', { reason: `The view ${view.name} does not allow you to run it.` });
  }
  const runner = runnerOf(svc, org, caller, view);
  const { where, sort } = runQuery(view, org, args);
  const limit = clamp(view.limit, args.limit, 'limit');
  const skip = clamp(view.skip, args.skip, 'skip');
  const paths = pathsOf(view, args);
  // objectAcl lifts the runner's level on every instance the view reads (never lowers it).
  const extra = objectAclLevel(svc, org, runner, view);
  const floor = runner.grant !== undefined && runner.grant >= ACCESS.read ? ACCESS.public : ACCESS.read;
  const condition = extra >= floor ? undefined : readableCondition(svc, org, runner, view.source);
  const { rows, hasMore } = svc.store.list(
    org.id,
    view.source,
    { ...(where ? { where } : {}), sort, skip, limit },
    condition ? [condition] : [],
  );
  const levels = levelsOf(svc, org, runner, view.source, rows);
  const data = rows.map((r, i) => {
    const out = presentRecord(view.source, r, Math.max(levels[i] ?? 0, extra));
    return paths ? (projectPaths(out, paths) as Record<string, Json>) : out;
  });
  return { data, hasMore };
}

export function findView(svc: Service, org: Org, nameOrId: string): ViewRecord | undefined {
  const def = svc.defs.byName(org.id, VIEW_DEF.name);
  if (!def) return undefined;
  if (OBJECT_ID_PATTERN.test(nameOrId.toLowerCase())) return svc.store.getText(org.id, def, nameOrId.toLowerCase());
  const where = parseWhereDocument({ name: nameOrId }, def);
  return svc.store.list(org.id, def, { ...(where ? { where } : {}), sort: [], skip: 0, limit: 1 }).rows[0];
}

function compiledView(svc: Service, org: Org, record: ViewRecord): CompiledView {
  const source =
    svc.defs.byName(org.id, String(record.doc.sourceObject)) ??
    svc.defs.byCollection(org.id, String(record.doc.sourceObject));
  return svc.views.get(org.id, record, source, () => {
    try {
      return compileView(svc, org, record._id, record.doc);
    } catch (err) {
      // Saved views compile; one that no longer does (its source changed) cannot run.
      throw fault('invalidArgument', 'view', {
        reason: `The view ${String(record.doc.name)} no longer compiles: ${(err as Error).message}`,
      });
    }
  });
}

/** Org administrators may run every view; others need an entry. An empty acl is for administrators only. */
function aclAllows(svc: Service, org: Org, caller: Caller, view: CompiledView): boolean {
  if (caller.orgAdmin) return true;
  return view.acl.some((entry) => entryMatches(svc, org, caller, entry));
}

/**
 * The level the view's `objectAcl` gives the account the query runs as (its principal, else the
 * caller) on every instance of the source object it reads: the highest `allow` of the entries that
 * match it (a role it holds, its account, or `*`), capped at read when saved; 0 when none match.
 * So a view can show analysts records their own ACL would not, and only through the view.
 */
function objectAclLevel(svc: Service, org: Org, runner: Caller, view: CompiledView): number {
  let level = 0;
  for (const entry of view.objectAcl) {
    if (entry.allow <= level) continue;
    if (entryMatches(svc, org, runner, entry)) level = entry.allow;
  }
  return level;
}

function entryMatches(svc: Service, org: Org, who: Caller, entry: ViewAclEntry): boolean {
  if (entry.type === 'account')
    return entry.target === '*' || resolvePrincipal(svc, org, entry.target) === who.accountId;
  const role = resolveRole(svc, org, entry.target);
  return role !== undefined && who.roles.has(role._id);
}

/** Who the query runs as: the view's principal or the caller, never scope-limited, with the caller's grant and skipAcl. */
function runnerOf(svc: Service, org: Org, caller: Caller, view: CompiledView): Caller {
  let base: Caller = caller;
  if (view.principal) {
    const accountId = resolvePrincipal(svc, org, view.principal);
    if (!accountId) throw fault('accessDenied', 'view', { reason: `The view's principal no longer exists.` });
    const account = accountSnapshot(svc, org, accountId);
    const roles = resolveRoles(svc, org, [...(account?.roles ?? []), ...(account?.inheritedRoles ?? [])]).roleSet;
    base = {
      accountId,
      roles,
      orgAdmin: roles.has(BUILTIN_ROLES.administrator),
      skipAcl: false,
      bypassCreateAcl: false,
    };
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
