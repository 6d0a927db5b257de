/**
 * A view record → what running it needs, checked: the source definition, the query components
 * parsed (with their variables), limit/skip/paths settings made consistent. Saving a view runs the
 * same checks, so a view that saved compiles.
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import { allProperties, resolvePath, type ObjectDef } from '../../../src-shared/schema/types.js';
import { resolveField } from '../../../src-shared/query/fields.js';
import type { Condition, SortKey } from '../../../src-shared/query/ast.js';
import { parseSort, parseSortDocument, parseWhereDocument } from '../../../src-shared/query/parse.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_SKIP } from '../../../src-shared/query/limits.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc, Json } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { ACCESS } from '../access/levels.js';
import { queryPolicy } from '../records/query-policy.js';
import { findObjectDef } from '../records/object-def.js';
import { fillAll, fillTemplate, parseTemplate, type Template } from './template.js';
import { argumentsWithDefaults, declaredVariables, type ViewVariable } from './view-variables.js';
import { aggregates, aggregationComponents, checkAggregation } from './view-aggregation.js';

/** A view name is a scope code (`view.execute.<name>`) and must not look like an `_id`. */
export const VIEW_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;

export interface Range {
  settable: boolean;
  defaultValue: number;
  min: number;
  max: number;
}

export interface ViewAclEntry {
  type: 'role' | 'account';
  target: string;
}

/** An `objectAcl` entry: the level it gives on every instance the view reads (see run-view.ts). */
export interface ViewObjectAclEntry extends ViewAclEntry {
  allow: number;
}

export interface CompiledView {
  _id: string;
  name: string;
  active: boolean;
  source: ObjectDef;
  principal?: string;
  limit: Range;
  skip: Range;
  paths: { settable: boolean; defaultValue?: string[]; limitTo?: string[] };
  acl: ViewAclEntry[];
  objectAcl: ViewObjectAclEntry[];
  where?: Template;
  sort?: Template;
  /** Aggregating views (view-aggregation.ts). */
  group?: Template;
  pipeline?: Template;
  /** Parsed once when the component has no variables. */
  fixedWhere?: Condition;
  fixedSort?: SortKey[];
  /** Declared variables: their defaults fill a run's missing arguments (view-variables.ts). */
  variables?: ViewVariable[];
}

export function sourceDefinition(svc: Service, org: Org, name: unknown): ObjectDef | undefined {
  return typeof name === 'string' ? findObjectDef(svc, org, name) : undefined;
}

/** Compiles (and so validates) a view document; faults are `validation` faults naming the property. */
export function compileView(svc: Service, org: Org, _id: string, doc: Doc): CompiledView {
  const name = doc.name;
  if (typeof name !== 'string' || !VIEW_NAME_PATTERN.test(name) || OBJECT_ID_PATTERN.test(name)) {
    throw invalid('name', 'A view name is letters, digits, _ and - (starting with a letter or _), and not an _id.');
  }
  const source = sourceDefinition(svc, org, doc.sourceObject);
  if (!source || source.name === 'view') {
    throw invalid('sourceObject', `sourceObject must name an object type (not ${String(doc.sourceObject)}).`);
  }
  const view: CompiledView = {
    _id,
    name,
    active: doc.active !== false,
    source,
    limit: range(doc.limit, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT),
    skip: range(doc.skip, 'skip', 0, MAX_SKIP, 0),
    paths: pathsSetting(doc.paths, source),
    acl: aclEntries(svc, org, doc.acl, 'acl'),
    objectAcl: objectAclEntries(svc, org, doc.objectAcl),
  };
  if (typeof doc.principal === 'string' && doc.principal !== '') {
    if (!resolvePrincipal(svc, org, doc.principal)) {
      throw invalid('principal', `principal must name an account of the org (by _id or email).`);
    }
    view.principal = doc.principal;
  }
  const components = Array.isArray(doc.query) ? doc.query : [];
  components.forEach((component, i) => {
    const c = component as { name?: string; value?: string };
    if (c.name !== 'where' && c.name !== 'sort' && c.name !== 'group' && c.name !== 'pipeline') {
      throw fault('unsupportedOperation', 'viewComponent', {
        path: `query[${i}].name`,
        reason: `Views support where, sort, group and pipeline components; ${String(c.name)} is not supported.`,
      });
    }
    if (view[c.name]) throw invalid(`query[${i}].name`, `The ${c.name} component is given twice.`);
    view[c.name] = withPath(`query[${i}].value`, () => parseTemplate(c.value ?? '{}', c.name!));
  });
  // A group or pipeline view aggregates: its where and sort belong to the aggregation.
  if (aggregates(view)) {
    checkAggregation(view, source, queryPolicy(org));
    view.variables = declaredVariables(doc.variables, aggregationComponents(view, source, queryPolicy(org)));
    return view;
  }
  components.forEach((component, i) => {
    const c = component as { name: 'where' | 'sort' };
    const path = `query[${i}].value`;
    const template = view[c.name]!;
    const parse = c.name === 'where' ? whereOf : sortOf;
    if (template.variables.length === 0) {
      const parsed = withPath(path, () => parse(template.tree, source, org));
      if (c.name === 'where') view.fixedWhere = parsed as Condition | undefined;
      else view.fixedSort = parsed as SortKey[];
    } else {
      // A variable stands for a value, never for a property: every property the where names must
      // exist whatever the arguments (a fault under a variable's spot would otherwise pass below).
      if (c.name === 'where') withPath(path, () => checkWhereProperties(template.tree, source));
      // Variables stand in as null: only faults at a variable's own spot are the argument's business.
      try {
        parse(fillAll(template, null), source, org);
      } catch (err) {
        const at = err instanceof FaultError ? err.fault.path : undefined;
        if (!at || !template.locations.some((l) => at.startsWith(l.path))) withPath(path, () => rethrow(err));
      }
    }
  });
  view.variables = declaredVariables(doc.variables, [
    ...(view.where ? [{ template: view.where, parse: (tree: unknown) => whereOf(tree, source, org) }] : []),
    ...(view.sort ? [{ template: view.sort, parse: (tree: unknown) => sortOf(tree, source) }] : []),
  ]);
  return view;
}

/** Resolves the property keys of a where document (at its top and inside `$and`/`$or`/`$nor`). */
function checkWhereProperties(tree: unknown, def: ObjectDef): void {
  if (Array.isArray(tree)) {
    for (const item of tree) checkWhereProperties(item, def);
    return;
  }
  if (tree === null || typeof tree !== 'object') return;
  for (const [key, value] of Object.entries(tree)) {
    if (key === '$and' || key === '$or' || key === '$nor') checkWhereProperties(value, def);
    else if (!key.startsWith('$')) resolveField(allProperties(def), key, key);
  }
}

/** The where condition and sort keys of one run, variables filled from the request's arguments, else their defaults. */
export function runQuery(view: CompiledView, org: Org, given: Record<string, unknown>) {
  const args = argumentsWithDefaults(view.variables, given);
  const where = view.where ? (view.fixedWhere ?? whereOf(fillTemplate(view.where, args), view.source, org)) : undefined;
  const sort = view.sort ? (view.fixedSort ?? sortOf(fillTemplate(view.sort, args), view.source)) : [];
  return { where, sort };
}

function whereOf(doc: unknown, def: ObjectDef, org?: Org): Condition | undefined {
  return parseWhereDocument(doc, def, org ? queryPolicy(org) : undefined);
}

/** A sort as the list argument takes it: a bare property name, or `{path: 1 | -1, ...}`. */
function sortOf(doc: unknown, def: ObjectDef): SortKey[] {
  return typeof doc === 'string' ? parseSort(doc, def) : parseSortDocument(doc, def);
}

/** An account id for a view's `principal` (an `_id` or an email), or undefined. */
export function resolvePrincipal(svc: Service, org: Org, principal: string): string | undefined {
  if (OBJECT_ID_PATTERN.test(principal)) {
    const def = svc.defs.byName(org.id, 'account');
    return def && svc.store.getValues(org.id, def, principal, ['email']) ? principal : undefined;
  }
  return svc.credentials.byEmail(org.id, principal)?.account_id;
}

/** A role by `_id` or code; undefined when the org has none such. */
export function resolveRole(svc: Service, org: Org, target: string): { _id: string; code?: string } | undefined {
  const def = svc.defs.byName(org.id, 'role');
  if (!def) return undefined;
  if (OBJECT_ID_PATTERN.test(target)) {
    const values = svc.store.getValues(org.id, def, target, ['code']);
    return values ? { _id: target, ...(typeof values.code === 'string' ? { code: values.code } : {}) } : undefined;
  }
  const where = parseWhereDocument({ code: target }, def);
  const { rows } = svc.store.list(org.id, def, { ...(where ? { where } : {}), sort: [], skip: 0, limit: 1 });
  return rows[0] ? { _id: rows[0]._id, code: target } : undefined;
}

function range(value: Json | undefined, name: string, floor: number, ceiling: number, fallback: number): Range {
  const v = (value ?? {}) as Record<string, Json>;
  const num = (key: string, d: number) => (typeof v[key] === 'number' ? v[key] : d);
  const out: Range = {
    settable: v.settable === true,
    min: num('min', floor),
    max: num('max', ceiling),
    defaultValue: num('defaultValue', fallback),
  };
  if (out.min < floor || out.max > ceiling || out.min > out.max) {
    throw invalid(name, `${name}.min and ${name}.max must satisfy ${floor} ≤ min ≤ max ≤ ${ceiling}.`);
  }
  if (out.defaultValue < out.min || out.defaultValue > out.max) {
    // A default outside the range would be clamped on every run: say so once, when saved.
    throw invalid(`${name}.defaultValue`, `${name}.defaultValue must lie between min and max.`);
  }
  return out;
}

function pathsSetting(value: Json | undefined, def: ObjectDef): CompiledView['paths'] {
  const v = (value ?? {}) as Record<string, Json>;
  const out: CompiledView['paths'] = { settable: v.settable === true };
  for (const key of ['defaultValue', 'limitTo'] as const) {
    const list = v[key];
    if (!Array.isArray(list)) continue;
    list.forEach((p, i) => {
      if (typeof p !== 'string' || !resolvePath(def, p)) {
        throw invalid(`paths.${key}[${i}]`, `${String(p)} is not a property of ${def.name}.`);
      }
    });
    out[key] = list as string[];
  }
  return out;
}

function aclEntries(svc: Service, org: Org, value: Json | undefined, key: string): ViewAclEntry[] {
  if (!Array.isArray(value)) return [];
  return value.map((raw, i) => {
    const e = raw as { type?: string; target?: string };
    if (e.type === 'account') {
      if (e.target === '*' || (typeof e.target === 'string' && resolvePrincipal(svc, org, e.target))) {
        return { type: 'account', target: e.target };
      }
      throw invalid(`${key}[${i}].target`, 'An account entry names an account (by _id or email) or *.');
    }
    if (e.type === 'role' && typeof e.target === 'string' && resolveRole(svc, org, e.target)) {
      return { type: 'role', target: e.target };
    }
    throw invalid(`${key}[${i}].target`, `No role ${String(e.target)} in this org.`);
  });
}

/**
 * `objectAcl` entries: who they match is checked like `acl`; `allow` is an access level (1 public …
 * 8 admin, default read). A view only reads, so a level above read gives no more than read.
 */
function objectAclEntries(svc: Service, org: Org, value: Json | undefined): ViewObjectAclEntry[] {
  const entries = aclEntries(svc, org, value, 'objectAcl');
  return entries.map((e, i) => {
    const allow = (value as { allow?: unknown }[])[i]?.allow;
    if (
      allow !== undefined &&
      allow !== null &&
      (typeof allow !== 'number' || allow < ACCESS.public || allow > ACCESS.admin)
    ) {
      throw invalid(`objectAcl[${i}].allow`, `allow is an access level from ${ACCESS.public} to ${ACCESS.admin}.`);
    }
    return { ...e, allow: Math.min(typeof allow === 'number' ? allow : ACCESS.read, ACCESS.read) };
  });
}

function invalid(path: string, reason: string): FaultError {
  return fault('validation', 'view', { path, reason });
}

/** Runs `fn`; a fault it throws comes back with `path` prefixed (`query[0].value: where.x`). */
function withPath<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FaultError) {
      throw fault('validation', 'view', {
        path: prefix,
        reason: `${err.fault.path ? `${err.fault.path}: ` : ''}${err.fault.reason ?? err.fault.message}`,
      });
    }
    throw err;
  }
}

function rethrow(err: unknown): never {
  throw err;
}
