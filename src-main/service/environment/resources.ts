/**
 * The resources of an environment export, in one normal form for export, import and diff. Every
 * reference between resources is by name (a role by its code, an account by its email, an object
 * type by its name), never by `_id`, so an export from one org imports into another. What differs
 * between orgs by nature (ids, timestamps, owners, app keys, secrets, private keys) is left out.
 */
import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import type { Service } from '../service.js';
import type { Org, OrgSettings } from '../orgs/orgs.js';
import type { Doc, Json } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { DEFAULT_APP_SETTINGS } from '../apps/apps.js';
import { VIEW_DEF } from '../objects/view-def.js';
import { selects, type Manifest } from './manifest.js';
import { ACL_KEYS, aclRoleKeys } from './object-acls.js';
import { readEntries, type AclFields } from '../access/levels.js';

export interface ResourceDoc {
  object: string;
  resource: string;
  [key: string]: unknown;
}

/** Every record in `_id` order (the compiler's tiebreaker); `iterate` ignores the limit. */
const EVERYTHING: ListQuery = { sort: [], skip: 0, limit: 1 };
/** Properties every record carries that say nothing about configuration. */
const RECORD_META = new Set(['created', 'updated', 'updater', 'owner', 'access', 'object']);

export function allRecords(svc: Service, org: Org, def: ObjectDef) {
  return svc.store.iterate(org.id, def, EVERYTHING);
}

/** A role's name in exports: its code, else its name. */
export function roleKey(doc: Doc): string {
  return typeof doc.code === 'string' && doc.code !== '' ? doc.code : String(doc.name);
}

export function roleKeysById(svc: Service, org: Org): Map<string, string> {
  const def = svc.defs.byName(org.id, 'role');
  const out = new Map<string, string>();
  if (def) for (const r of allRecords(svc, org, def)) out.set(r._id, roleKey(r.doc));
  return out;
}

export function emailOf(svc: Service, org: Org, accountId: string): string | undefined {
  return svc.credentials.byAccount(org.id, accountId)?.email;
}

export function exportObjects(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  const out: ResourceDoc[] = [];
  const roles = roleKeysById(svc, org);
  for (const def of svc.defs.all(org.id)) {
    if (!selects(manifest.sections.objects, def.name)) continue;
    const acls = exportedAcls(svc, org, def, roles);
    if (def.custom) {
      out.push({
        object: 'object',
        resource: `object.${def.name}`,
        name: def.name,
        label: def.label,
        custom: true,
        properties: def.properties,
        ...(def.compoundIndexes ? { compoundIndexes: def.compoundIndexes } : {}),
        ...acls,
      });
    } else {
      // Built-in types are the same everywhere; only their custom properties and ACLs set by an
      // administrator are configuration.
      const custom = def.properties.filter((p) => p.custom);
      if (custom.length > 0 || Object.keys(acls).length > 0) {
        out.push({
          object: 'object',
          resource: `object.${def.name}`,
          name: def.name,
          custom: false,
          properties: custom,
          ...acls,
        });
      }
    }
  }
  return out;
}

export function exportRoles(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  const def = svc.defs.byName(org.id, 'role');
  if (!def) return [];
  const keys = roleKeysById(svc, org);
  const out: ResourceDoc[] = [];
  for (const r of allRecords(svc, org, def)) {
    const key = roleKey(r.doc);
    if (!selects(manifest.sections.roles, key)) continue;
    out.push({
      object: 'role',
      resource: `role.${key}`,
      name: r.doc.name,
      ...(typeof r.doc.code === 'string' ? { code: r.doc.code } : {}),
      scopes: Array.isArray(r.doc.scopes) ? r.doc.scopes : [],
      include: (Array.isArray(r.doc.include) ? r.doc.include : []).map((id) => keys.get(String(id)) ?? String(id)),
    });
  }
  return out;
}

/** Apps by label, with their settings only: the key, secret and RSA pair belong to one org and stay there. */
export function exportApps(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  const out: ResourceDoc[] = [];
  const seen = new Set<string>();
  for (const app of svc.apps.list(org.id)) {
    const { principalId, name: appName, ...settings } = app.settings;
    const name = app.settings.label;
    if (seen.has(name) || !selects(manifest.sections.apps, name)) continue;
    seen.add(name);
    const principal = principalId ? emailOf(svc, org, principalId) : undefined;
    out.push({
      object: 'app',
      resource: `app.${name}`,
      // mdctl names each exported file after the document's `name` (ExportSection.name): without
      // it every app would be written to the same `env/apps/app.json`. The app's own name when it
      // has one (the original's), else its label.
      name: appName ?? name,
      kind: app.kind,
      ...settings,
      ...(principal ? { principal } : {}),
    });
  }
  return out;
}

export function exportViews(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  const def = svc.defs.byName(org.id, VIEW_DEF.name);
  if (!def) return [];
  const roles = roleKeysById(svc, org);
  const out: ResourceDoc[] = [];
  for (const r of allRecords(svc, org, def)) {
    const name = String(r.doc.name);
    if (!selects(manifest.sections.views, name)) continue;
    const doc = withoutMeta(r.doc);
    if (typeof doc.principal === 'string' && OBJECT_ID_PATTERN.test(doc.principal)) {
      doc.principal = emailOf(svc, org, doc.principal) ?? doc.principal;
    }
    for (const key of ['acl', 'objectAcl'] as const) {
      if (!Array.isArray(doc[key])) continue;
      doc[key] = (doc[key] as AclEntryLike[]).map((e) => entryByName(svc, org, roles, e)) as Json;
    }
    out.push({ object: 'view', resource: `view.${name}`, ...doc });
  }
  return out;
}

interface AclEntryLike {
  type?: string;
  target?: string;
}

/** An ACL entry with its role named by key and its account by email: ids mean nothing in another org. */
function entryByName<E extends AclEntryLike>(svc: Service, org: Org, roles: Map<string, string>, e: E): E {
  const target = String(e.target);
  if (e.type === 'role') return { ...e, target: roles.get(target) ?? target };
  if (e.type === 'account' && OBJECT_ID_PATTERN.test(target))
    return { ...e, target: emailOf(svc, org, target) ?? target };
  return e;
}

/**
 * The `defaultAcl` and `createAcl` a definition stores (not its fallbacks, which are the same in
 * every org), by name. An import sets them once its roles exist (apply-object-acls.ts).
 */
function exportedAcls(svc: Service, org: Org, def: ObjectDef, roles: Map<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ACL_KEYS) {
    const stored = (def as ObjectDef & AclFields)[key];
    if (stored !== undefined) out[key] = readEntries(stored).map((e) => entryByName(svc, org, roles, e));
  }
  return out;
}

/** A script's name in exports: its name, else its `_id` (kept on import, like a record's). */
export function scriptKey(id: string, doc: Doc): string {
  return typeof doc.name === 'string' && doc.name !== '' ? doc.name : id;
}

/** Scripts by name, with a route's principal by email (an `_id` means nothing in another org). */
export function exportScripts(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  const def = svc.defs.byName(org.id, 'script');
  if (!def) return [];
  const out: ResourceDoc[] = [];
  for (const r of allRecords(svc, org, def)) {
    const key = scriptKey(r._id, r.doc);
    if (!selects(manifest.sections.scripts, key)) continue;
    const doc = withoutMeta(r.doc);
    const config = doc.configuration as Record<string, Json> | null | undefined;
    if (config && typeof config.principal === 'string' && OBJECT_ID_PATTERN.test(config.principal)) {
      doc.configuration = { ...config, principal: emailOf(svc, org, config.principal) ?? config.principal };
    }
    out.push({ object: 'script', resource: `script.${key}`, ...(key === r._id ? { _id: r._id } : {}), ...doc });
  }
  return out;
}

/**
 * The org's settings as the original's `env` document: mdctl keeps only the object types it knows
 * (`env`, `app`, `role`, …) and writes this one to `env/env.json`, which its import finds again
 * under the manifest's `env` section. Exports before this named it `org` / `org.settings`; the
 * import still reads those (ndjson-input.ts).
 */
export function exportSettings(org: Org, manifest: Manifest): ResourceDoc[] {
  if (!selects(manifest.sections.settings, 'settings') && !selects(manifest.sections.settings, '*')) return [];
  // Left out (NOT_EXPORTED_SETTINGS, orgs/settings.ts): the console app's key (this org's own),
  // the operator's limits (they never leave the org), the scripts' counters (runtime state) and
  // their config values (their own `config.<key>` resources, config-values.ts). An import into
  // another org would otherwise be refused, or carry what only the operator may set.
  const {
    consoleAppKey: _console,
    scriptLimits: _limits,
    scriptCounters: _counters,
    scriptConfig: _config,
    ...settings
  } = org.settings;
  return [{ object: 'env', resource: 'env', settings }];
}

export function exportRecords(svc: Service, org: Org, manifest: Manifest): ResourceDoc[] {
  const out: ResourceDoc[] = [];
  for (const [name, sel] of manifest.records) {
    const def = svc.defs.byName(org.id, name) ?? svc.defs.byCollection(org.id, name);
    if (!def || !def.custom) continue;
    for (const r of allRecords(svc, org, def)) {
      if (!selects(sel, r._id)) continue;
      out.push({ object: def.name, resource: `${def.name}.${r._id}`, _id: r._id, ...withoutMeta(r.doc) });
    }
  }
  return out;
}

/**
 * The resource name a document has in exports, derived from its own fields: mdctl's file tree
 * drops `resource` when it writes a document to disk (`mdctl-export-adapter-tree`), so an import of
 * such a folder names each document this way. Undefined when the document carries no name.
 */
export function resourceNameOf(doc: Record<string, unknown>): string | undefined {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const named = (prefix: string, name: string | undefined) => (name ? `${prefix}.${name}` : undefined);
  switch (doc.object) {
    case 'env':
      return 'env';
    case 'object':
    case 'view':
      return named(String(doc.object), text(doc.name));
    case 'role':
      return named('role', text(doc.code) ?? text(doc.name));
    case 'app':
      return named('app', text(doc.label) ?? text(doc.name));
    case 'script':
      return named('script', text(doc.name) ?? text(doc._id));
    case 'policy':
    case 'config':
      return named(doc.object, text(doc.name));
    default:
      return typeof doc.object === 'string' ? named(doc.object, text(doc._id)) : undefined;
  }
}

/** What each resource needs to exist first (`manifest-dependencies`). */
export function dependenciesOf(doc: ResourceDoc): string[] {
  if (doc.object === 'view') {
    const deps = [`object.${String(doc.sourceObject)}`];
    for (const e of (doc.acl as { type?: string; target?: string }[] | undefined) ?? []) {
      if (e.type === 'role') deps.push(`role.${String(e.target)}`);
    }
    return deps;
  }
  if (doc.object === 'role') return ((doc.include as string[] | undefined) ?? []).map((k) => `role.${k}`);
  if (doc.object === 'object') {
    return ((doc.properties as PropertyDef[] | undefined) ?? [])
      .filter((p) => p.refObject)
      .map((p) => `object.${p.refObject!}`)
      .concat(aclRoleKeys(doc).map((k) => `role.${k}`));
  }
  if (!['app', 'env', 'config', 'script', 'policy'].includes(doc.object)) return [`object.${doc.object}`];
  return [];
}

export type { OrgSettings };
export const APP_SETTING_NAMES = Object.keys(DEFAULT_APP_SETTINGS);

function withoutMeta(doc: Doc): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(doc)) if (!RECORD_META.has(k)) out[k] = v;
  return out;
}
