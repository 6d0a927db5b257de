/**
 * Host functions for the rest of the original's script API (issue 40): `org.objects.objects`
 * (object definitions read as records), `org.read(path)` (`runtime`: what libraries register),
 * `org.push`, and on accounts `register(doc)` and `admin.read/update`. Each goes through the
 * driver host function it wraps, so the caller's (or `script.as` principal's) rights apply.
 */
import { fault } from '../../../src-shared/faults.js';
import { readPath } from '../../../src-shared/query/evaluate.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { HostCallContext, HostFunction, HostFunctions } from './run-types.js';
import { libraryRegistrations, libraryScripts } from './host-library.js';

const DEFINITION_OBJECTS = new Set(['object', 'objects']);
const MAX_DEFINITIONS = 1000;

/** `where` of a definitions query: equality on (dotted) keys, or `{$in: [...]}`. */
function matches(doc: Record<string, unknown>, where: unknown): boolean {
  if (where === undefined || where === null) return true;
  if (typeof where !== 'object' || Array.isArray(where)) {
    throw fault('invalidArgument', 'query', { reason: 'Definitions are matched by an object of paths.' });
  }
  return Object.entries(where as Record<string, unknown>).every(([path, want]) => {
    const have = readPath(doc, path);
    if (want && typeof want === 'object' && Array.isArray((want as { $in?: unknown }).$in)) {
      return ((want as { $in: unknown[] }).$in as unknown[]).includes(have);
    }
    return have === want;
  });
}

function definitions(svc: Service, org: Org, operation: string, options: unknown): unknown {
  const o = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>;
  const all = svc.defs
    .all(org.id)
    .slice(0, MAX_DEFINITIONS)
    .map((d) => ({ object: 'object', ...(structuredClone(d) as unknown as Record<string, unknown>) }))
    .filter((d) => matches(d, o.where ?? o.match));
  const skip = typeof o.skip === 'number' ? o.skip : 0;
  const limit = typeof o.limit === 'number' ? o.limit : all.length;
  switch (operation) {
    case 'cursor':
      return { object: 'list', data: all.slice(skip, skip + limit), hasMore: skip + limit < all.length };
    case 'count':
      return all.length;
    case 'readOne': {
      const first = all[0];
      if (!first && o.throwNotFound !== false)
        throw fault('notFound', 'object', { reason: 'No such object definition.' });
      return first ?? null;
    }
    default:
      throw fault('accessDenied', 'object', {
        reason: 'Object definitions are changed through /schemas, not from scripts.',
      });
  }
}

function runtime(svc: Service, org: Org) {
  const out = {
    routes: [] as unknown[],
    triggers: [] as unknown[],
    jobs: [] as unknown[],
    policies: [] as unknown[],
    objects: [] as unknown[],
  };
  for (const lib of libraryScripts(svc, org)) {
    if (!lib.active) continue;
    for (const reg of libraryRegistrations(lib)) {
      const entry = {
        ...reg,
        metadata: { ...reg.metadata, resource: `script#type(library).name(${lib.exportName ?? lib._id})` },
      };
      // As the original's runtime: its policies too (applied by policies/, docs/scripting.md#policies).
      out[reg.type === 'policy' ? 'policies' : (`${reg.type}s` as 'routes' | 'triggers' | 'jobs')].push(entry);
    }
  }
  return out;
}

export function extraHost(svc: Service, org: Org, driver: HostFunction): HostFunctions {
  return {
    driver(this: HostCallContext, ...args: unknown[]) {
      const [objectName, operation, options] = args;
      if (typeof objectName === 'string' && DEFINITION_OBJECTS.has(objectName)) {
        return definitions(svc, org, String(operation), options);
      }
      return driver.apply(this, args);
    },
    'org.read'(path: unknown) {
      const p = typeof path === 'string' ? path : '';
      const base = { _id: String(org.id), object: 'org', code: org.code, name: org.name, runtime: runtime(svc, org) };
      if (p === '') return base;
      const value = readPath(base, p);
      if (value === undefined) throw fault('notFound', 'property', { path: p, reason: `The org has no ${p}.` });
      return value;
    },
    /** `org.push('roles', role | roles)`: new roles as role records (the caller's rights apply); the org's roles. */
    async 'org.push'(this: HostCallContext, path: unknown, values: unknown) {
      if (path !== 'roles') {
        throw fault('notImplemented', 'org.push', {
          path: String(path),
          reason: 'Only roles are pushed onto the org from scripts; other org properties change through the console.',
        });
      }
      const list = Array.isArray(values) ? values : [values];
      if (list.length === 0 || list.length > 100) {
        throw fault('invalidArgument', 'org.push', { reason: 'Push 1 to 100 roles.' });
      }
      for (const role of list) await driver.call(this, 'role', 'insertOne', { document: role });
      const page = (await driver.call(this, 'role', 'cursor', { limit: 1000, sort: { created: 1 } })) as {
        data?: unknown[];
      };
      return page.data ?? [];
    },
    'accounts.register'(this: HostCallContext, doc: unknown) {
      return driver.call(this, 'account', 'insertOne', { document: doc, lean: false });
    },
    'accounts.admin'(this: HostCallContext, action: unknown, id: unknown, path: unknown, doc: unknown) {
      if (typeof id !== 'string')
        throw fault('invalidArgument', 'account', { path: '_id', reason: 'Pass an account _id.' });
      if (action === 'read') {
        return driver.call(this, 'account', 'readOne', {
          where: { _id: id },
          ...(typeof path === 'string' ? { path } : {}),
        });
      }
      return driver.call(this, 'account', 'updateOne', { match: { _id: id }, update: { $set: doc }, lean: false });
    },
  };
}
