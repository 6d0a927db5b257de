/**
 * Applying resources to an org, kind by kind. Every function here writes, and is called inside the
 * import's one transaction: a fault anywhere rolls everything back. Records (roles, views,
 * scripts, custom records) are written through the records service (records/load-write.ts), so the
 * record rules of their type apply as on every other write.
 */
import { fault, FaultError, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { CUSTOM_NAME_PATTERN, type ObjectDef, type PropertyDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { validateOrgSettings } from '../orgs/settings.js';
import type { RsaKeyPair } from '../crypto/rsa.js';
import {
  assertNamesOnce,
  checkNewObject,
  checkPropertyChange,
  checkPropertyCount,
  checkPropertyDef,
  countProperties,
} from '../objects/definition-rules.js';
import { validateInput, type Json } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { reference, type StoredRecord } from '../objects/stored-record.js';
import { validateAppSettings } from '../apps/settings.js';
import type { AppKind } from '../apps/apps.js';
import { loadRecord } from '../records/load-write.js';
import { recordRules } from '../records/rules.js';
import { VIEW_DEF } from '../objects/view-def.js';
import { findView } from '../views/run-view.js';
import { allRecords, roleKey, scriptKey, type ResourceDoc } from './resources.js';
import { resourceKind } from './resource-kinds.js';
import { applyConfigValue } from './config-values.js';
import { canonical } from './diff.js';

export interface ApplyContext {
  svc: Service;
  org: Org;
  /** The account the import runs as (owner of created records). */
  actorId: string;
  /** Key pairs generated before the transaction, one per app the import creates. */
  pairs: RsaKeyPair[];
  /** What the before triggers changed, by resource (import-triggers.ts; only when the import runs them). */
  triggered?: ReadonlyMap<string, Record<string, Json>>;
}

/** Order of kinds: what others refer to comes first. */
const KIND_ORDER = ['object', 'role', 'env', 'config', 'app', 'view', 'script', 'policy'];
export const kindRank = (doc: ResourceDoc) => {
  const i = KIND_ORDER.indexOf(doc.object);
  return i === -1 ? KIND_ORDER.length : i;
};
/** A record of a custom object type (`c_thing.<_id>`), not configuration. */
export const isRecordResource = (doc: ResourceDoc) => !KIND_ORDER.includes(doc.object);

/** Applies one resource; throws a fault whose reason says what is wrong with it. */
export function applyResource(ctx: ApplyContext, doc: ResourceDoc): void {
  switch (doc.object) {
    case 'object':
      return applyObject(ctx, doc);
    case 'role':
      return applyRole(ctx, doc);
    case 'env':
      return applySettings(ctx, doc);
    case 'config':
      return applyConfigValue(ctx.svc, ctx.org, doc);
    case 'app':
      return applyApp(ctx, doc);
    case 'view':
      return applyView(ctx, doc);
    case 'script':
      return applyScript(ctx, doc);
    default: {
      // A kind another folder registered (the org's policies), else a record of a custom type.
      const kind = resourceKind(ctx.svc, doc.object);
      return kind ? kind.apply(ctx.svc, ctx.org, doc) : applyRecord(ctx, doc);
    }
  }
}

/** Roles name their includes by key, which may be roles of the same import: resolved after all exist. */
export function applyRoleIncludes(ctx: ApplyContext, doc: ResourceDoc): void {
  const { svc, org } = ctx;
  const def = svc.defs.byName(org.id, 'role')!;
  const role = findRole(ctx, keyOf(doc));
  if (!role) return;
  const include = (Array.isArray(doc.include) ? doc.include : []).map((k, i) => {
    const target = findRole(ctx, String(k));
    if (!target) throw fault('validation', 'import', { path: `include[${i}]`, reason: `No role ${String(k)}.` });
    return target._id;
  });
  loadRecord(svc, org, def, { include }, { current: role, actorId: ctx.actorId });
}

function keyOf(doc: ResourceDoc): string {
  return doc.resource.slice(doc.resource.indexOf('.') + 1);
}

function applyObject({ svc, org }: ApplyContext, doc: ResourceDoc): void {
  const name = String(doc.name);
  if (keyOf(doc) !== name) throw invalid('name', `The resource is object.${keyOf(doc)} but names ${name}.`);
  const existing = svc.defs.byName(org.id, name);
  const incoming = Array.isArray(doc.properties) ? (doc.properties as unknown[]) : [];
  const faults: FaultBody[] = [];
  const props = incoming
    .map((p, i) => importedProperty(p, `properties[${i}]`, faults))
    .filter((p): p is PropertyDef => p !== undefined);
  if (faults.length > 0)
    throw fault('validation', 'import', { faults, path: faults[0]!.path, reason: faults[0]!.reason });
  assertNamesOnce(props);
  let def: ObjectDef;
  if (!existing) {
    if (!CUSTOM_NAME_PATTERN.test(name)) throw invalid('name', `No built-in object ${name} in this org.`);
    def = { ...checkNewObject({ name, label: doc.label, properties: [] }), properties: props };
    checkPropertyCount(props);
  } else {
    const kept = existing.properties.filter((p) => !props.some((n) => n.name === p.name));
    // The rules of PATCH /schemas: custom properties only, the same type.
    for (const p of props) {
      const before = existing.properties.find((e) => e.name === p.name);
      if (before) checkPropertyChange(before, p);
    }
    def = {
      ...existing,
      ...(existing.custom && typeof doc.label === 'string' ? { label: doc.label.slice(0, 200) } : {}),
      properties: [...kept, ...props],
    };
    checkPropertyCount(def.properties, countProperties(existing.properties));
  }
  svc.defs.save(org.id, def);
  // Indexes the imported definition no longer asks for (unique or indexed turned off) go too.
  svc.store.applyDefinition(org.id, def);
}

/** A custom property (`c_` names), or a list property of a custom object (its name is free). */
function importedProperty(input: unknown, path: string, faults: FaultBody[]): PropertyDef | undefined {
  const p = input as Record<string, unknown> | null;
  if (p && typeof p.name === 'string' && !p.name.startsWith('c_') && p.type === 'List') {
    const checked = checkPropertyDef({ ...p, name: 'c_list' }, path, 0, faults);
    return checked && /^[a-z][a-z0-9_]{0,62}$/.test(p.name)
      ? { ...checked, name: p.name, custom: p.custom === true }
      : undefined;
  }
  return checkPropertyDef(input, path, 0, faults);
}

export function findRole({ svc, org }: ApplyContext, key: string) {
  const def = svc.defs.byName(org.id, 'role')!;
  if (OBJECT_ID_PATTERN.test(key)) {
    const r = svc.store.get(org.id, def, key);
    if (r) return r;
  }
  for (const r of allRecords(svc, org, def)) if (roleKey(r.doc) === key) return r;
  return undefined;
}

function applyRole(ctx: ApplyContext, doc: ResourceDoc): void {
  const { svc, org } = ctx;
  const def = svc.defs.byName(org.id, 'role')!;
  const key = keyOf(doc);
  if (roleKey({ name: doc.name as Json, ...(doc.code !== undefined ? { code: doc.code as Json } : {}) }) !== key) {
    throw invalid('code', `The resource is role.${key} but the role's code (or name) is not ${key}.`);
  }
  const { values, faults } = validateInput(def, { name: doc.name, code: doc.code, scopes: doc.scopes }, 'create');
  if (faults.length > 0)
    throw fault('validation', 'import', { faults, path: faults[0]!.path, reason: faults[0]!.reason });
  // A role's scopes must parse and name what exists: a rule of every role write (records/rules.ts).
  const existing = findRole(ctx, key);
  if (existing) loadRecord(svc, org, def, values, { current: existing, actorId: ctx.actorId });
  else loadRecord(svc, org, def, { ...values, include: [] }, { actorId: ctx.actorId });
}

function applySettings({ svc, org }: ApplyContext, doc: ResourceDoc): void {
  // The one validator of org settings (orgs/settings.ts): names, types and ranges, as `org set`.
  // An export made before the operator's limits, the counters and the config values were left out
  // of `env` still names them: ignored where they equal this org's own (absent = none), refused
  // where they differ, so an import neither raises a cap nor rewinds a counter.
  const here = svc.orgs.byId(org.id)?.settings ?? org.settings;
  const same = (name: 'scriptLimits' | 'scriptCounters' | 'scriptConfig', value: unknown) =>
    canonical(value ?? {}) === canonical(here[name] ?? {});
  svc.orgs.updateSettings(org, validateOrgSettings(doc.settings, 'settings.', same));
}

function applyApp(ctx: ApplyContext, doc: ResourceDoc): void {
  const { svc, org } = ctx;
  const label = keyOf(doc);
  const kind = doc.kind as AppKind;
  if (kind !== 'session' && kind !== 'signing') throw invalid('kind', 'kind is session or signing.');
  const { object: _o, resource: _r, kind: _k, principal, name, ...rest } = doc;
  if (rest.label !== label)
    throw invalid('label', `The resource is app.${label} but the label is ${String(rest.label)}.`);
  // `name` is the app's own name (the original's; name mapping), or its label when it has none
  // (resources.ts exportApps: mdctl files documents by name).
  const named = name !== undefined && (name !== label || rest.allowNameMapping === true);
  const settings = validateAppSettings(named ? { ...rest, name } : rest, kind);
  if (!named) (settings as { name?: string | null }).name = null;
  if (typeof principal === 'string') {
    const account = svc.credentials.byEmail(org.id, principal);
    if (!account) throw invalid('principal', `No account ${principal} in this org.`);
    settings.principalId = account.account_id;
  } else settings.principalId = null;
  const existing = svc.apps.list(org.id).find((a) => a.settings.label === label);
  if (existing) {
    if (existing.kind !== kind) throw invalid('kind', `The app ${label} is a ${existing.kind} app here.`);
    if (existing.key === org.settings.consoleAppKey && settings.enabled === false) {
      throw invalid('enabled', 'The console application of the org cannot be disabled.');
    }
    svc.apps.update(existing, settings);
    return;
  }
  const pair = ctx.pairs.pop();
  if (!pair) throw new Error('no key pair prepared for a new app');
  svc.apps.createWithPair(org.id, kind, { ...settings, label }, svc.nowIso(), pair);
}

function applyView(ctx: ApplyContext, doc: ResourceDoc): void {
  const { svc, org } = ctx;
  const def = svc.defs.byName(org.id, VIEW_DEF.name)!;
  const { object: _o, resource: _r, ...body } = doc;
  if (body.name !== keyOf(doc))
    throw invalid('name', `The resource is view.${keyOf(doc)} but names ${String(body.name)}.`);
  const { values, faults } = validateInput(def, body, 'create');
  if (faults.length > 0)
    throw fault('validation', 'import', { faults, path: faults[0]!.path, reason: faults[0]!.reason });
  upsert(ctx, def, values, findView(svc, org, String(body.name)));
}

/** Replaces the record the resource names (keeping its owner), or creates it owned by the importer. */
function upsert(ctx: ApplyContext, def: ObjectDef, values: Record<string, Json>, current?: StoredRecord, id?: string) {
  const { svc, org, actorId } = ctx;
  if (current) loadRecord(svc, org, def, values, { current, replace: true, actorId });
  else
    loadRecord(
      svc,
      org,
      def,
      { ...values, owner: reference('account', actorId) },
      { actorId, meta: id ? { _id: id } : {} },
    );
}

/** A script by name (else by `_id`); its source was compiled before the transaction (import.ts). */
function applyScript(ctx: ApplyContext, doc: ResourceDoc): void {
  const { svc, org } = ctx;
  if (!recordRules(svc).has('script')) {
    throw fault('unsupportedOperation', 'import', { reason: 'This import cannot check scripts.' });
  }
  const def = svc.defs.byName(org.id, 'script');
  if (!def) throw invalid('object', 'This org has no script type.');
  const key = keyOf(doc);
  const byId = OBJECT_ID_PATTERN.test(key);
  const { object: _o, resource: _r, _id, ...body } = doc;
  if (byId ? _id !== key : body.name !== key) {
    throw invalid('name', `The resource is script.${key} but the script's name (or _id) is not ${key}.`);
  }
  const { values, faults } = validateInput(def, body, 'create');
  if (faults.length > 0)
    throw fault('validation', 'import', { faults, path: faults[0]!.path, reason: faults[0]!.reason });
  const config = values.configuration as Record<string, Json> | null | undefined;
  if (config && typeof config.principal === 'string' && !OBJECT_ID_PATTERN.test(config.principal)) {
    const account = svc.credentials.byEmail(org.id, config.principal);
    if (!account) throw invalid('configuration.principal', `No account ${config.principal} in this org.`);
    values.configuration = { ...config, principal: account.account_id };
  }
  const existing = byId
    ? svc.store.get(org.id, def, key)
    : [...allRecords(svc, org, def)].find((r) => scriptKey(r._id, r.doc) === key);
  // The script rules (it compiles; a route's method and path are free) run on the write.
  upsert(ctx, def, values, existing, byId ? key : undefined);
}

function applyRecord(ctx: ApplyContext, doc: ResourceDoc): void {
  const { svc, org } = ctx;
  const def = svc.defs.byName(org.id, doc.object);
  if (!def || !def.custom) throw invalid('object', `${doc.object} is not a custom object type of this org.`);
  const { object: _o, resource: _r, _id, ...body } = doc;
  if (typeof _id !== 'string' || !OBJECT_ID_PATTERN.test(_id) || keyOf(doc) !== _id) {
    throw invalid('_id', `A record resource is ${def.name}.<_id> with the same _id in the document.`);
  }
  // What its before triggers changed is validated with the rest of the record.
  const changes = ctx.triggered?.get(doc.resource);
  const { values, faults } = validateInput(def, changes ? { ...body, ...changes } : body, 'create');
  if (faults.length > 0)
    throw fault('validation', 'import', { faults, path: faults[0]!.path, reason: faults[0]!.reason });
  upsert(ctx, def, values, svc.store.get(org.id, def, _id), _id);
}

function invalid(path: string, reason: string): FaultError {
  return fault('validation', 'import', { path, reason });
}

/** A resource's fault as a child fault of the import: `path` is the resource, the reason says where in it. */
export function resourceFault(resource: string, err: unknown): FaultBody {
  const body = err instanceof FaultError ? err.fault : undefined;
  const inner = body?.path ? `${body.path}: ` : '';
  return makeFault(body ? (body.errCode.split('.')[1] as never) : 'error', body?.errCode.split('.')[2], {
    path: resource,
    reason: `${resource}: ${inner}${body?.reason ?? body?.message ?? (err as Error).message}`,
  });
}
