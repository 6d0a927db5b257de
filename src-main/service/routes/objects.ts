import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { requirePrincipal, type Principal } from '../http/context.js';
import { createAccount } from '../accounts/accounts.js';
import { normaliseEmail } from '../accounts/credentials.js';
import { presentRecord } from '../objects/present.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { validateInput, type Json } from '../objects/validate.js';
import { ObjectStore } from '../objects/store.js';
import { canRead, canWrite, readScope, selfProtectedProperties } from '../objects/access.js';
import { rawListArgs } from './list-args.js';

interface CollectionParams {
  collection: string;
}
interface InstanceParams extends CollectionParams {
  id: string;
}

/** Records of every collection: `/<collection>` and `/<collection>/<_id>`. */
export function objectRoutes(svc: Service) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: CollectionParams }>('/:collection', async (request) => {
      const { org } = request.ctx;
      const principal = requirePrincipal(request);
      const def = collectionDef(svc, org, request.params.collection);
      return listRecords(svc, org, principal, def, request.query, '');
    });

    app.get<{ Params: InstanceParams }>('/:collection/:id', async (request) => {
      const { org } = request.ctx;
      const principal = requirePrincipal(request);
      const def = collectionDef(svc, org, request.params.collection);
      const id = instanceId(request.params.id);
      const record = svc.store.get(org.id, def, id);
      if (!record || !canRead(principal, def, id)) throw notFoundInstance(def, id);
      const query = request.query as Record<string, unknown>;
      const paths = rawListArgs(query, '').paths;
      let out = presentRecord(def, record, readScope(principal, def).level);
      if (paths) out = projectPaths(out, parseListQuery({ paths }, def).paths ?? []) as typeof out;
      for (const prop of def.properties) {
        if (prop.type !== 'List' || !prop.refObject) continue;
        if (paths && !paths.some((p) => p === prop.name || p.startsWith(`${prop.name}.`))) continue;
        const listDef = svc.defs.byName(org.id, prop.refObject);
        if (!listDef) continue;
        out[prop.name] = listRecords(svc, org, principal, listDef, query, `${prop.name}.`, [
          ObjectStore.contextEquals(id),
        ]) as unknown as Json;
      }
      return out;
    });

    app.post<{ Params: CollectionParams }>('/:collection', async (request) => {
      const { org } = request.ctx;
      const principal = requirePrincipal(request);
      const def = collectionDef(svc, org, request.params.collection);
      if (!canWrite(principal, def)) throw denied(def);
      if (def.name === 'account') {
        const record = await createAccount(svc, org, request.body as never, principal.accountId);
        return presentRecord(def, record, readScope(principal, def).level);
      }
      const values = validated(def, request.body, 'create');
      const record = svc.store.insert(org.id, def, values, { updaterId: principal.accountId });
      return presentRecord(def, record, readScope(principal, def).level);
    });

    const update = (replace: boolean) => async (request: FastifyRequest<{ Params: InstanceParams }>) => {
      const { org } = request.ctx;
      const principal = requirePrincipal(request);
      const def = collectionDef(svc, org, request.params.collection);
      const id = instanceId(request.params.id);
      if (!canRead(principal, def, id)) throw notFoundInstance(def, id);
      if (!canWrite(principal, def, id)) throw denied(def);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const protectedKeys = selfProtectedProperties(principal, def, body);
      if (protectedKeys.length > 0) {
        throw fault('accessDenied', 'property', {
          path: protectedKeys[0],
          reason: `You cannot change ${protectedKeys.join(', ')} of your own account.`,
        });
      }
      const values = validated(def, body, replace ? 'create' : 'update');
      const record = svc.db.transaction(() => {
        const r = svc.store.update(org.id, def, id, values, { updaterId: principal.accountId, replace });
        if (r && def.name === 'account' && typeof values.email === 'string') {
          svc.credentials.setEmail(org.id, id, normaliseEmail(values.email));
        }
        return r;
      })();
      if (!record) throw notFoundInstance(def, id);
      return presentRecord(def, record, readScope(principal, def).level);
    };
    app.patch<{ Params: InstanceParams }>('/:collection/:id', update(false));
    app.put<{ Params: InstanceParams }>('/:collection/:id', update(true));

    app.delete<{ Params: InstanceParams }>('/:collection/:id', async (request) => {
      const { org } = request.ctx;
      const principal = requirePrincipal(request);
      const def = collectionDef(svc, org, request.params.collection);
      const id = instanceId(request.params.id);
      if (!canWrite(principal, def, id) || (def.name === 'account' && id === principal.accountId)) throw denied(def);
      const deleted = svc.db.transaction(() => {
        const ok = svc.store.delete(org.id, def, id);
        if (ok && def.name === 'account') {
          svc.credentials.remove(org.id, id);
          svc.sessions.endForAccount(org.id, id, 'deleted');
        }
        return ok;
      })();
      if (!deleted) throw notFoundInstance(def, id);
      return { object: 'result', data: true };
    });
  };
}

/** Runs a list query given raw query-string arguments (optionally `prefix.`-ed, for list properties). */
function listRecords(
  svc: Service,
  org: Org,
  principal: Principal,
  def: ObjectDef,
  queryString: unknown,
  prefix: string,
  extra: { sql: string; params: unknown[] }[] = [],
) {
  const query = parseListQuery(rawListArgs(queryString as Record<string, unknown>, prefix), def, {
    allowNegations: !org.settings.disableNegation,
  });
  const scope = readScope(principal, def);
  const { rows, hasMore } = svc.store.list(org.id, def, query, [...scope.extraWhere, ...extra]);
  const data = rows.map((r) => {
    const obj = presentRecord(def, r, scope.level);
    return query.paths ? projectPaths(obj, query.paths) : obj;
  });
  return { object: 'list', data, hasMore };
}

export function collectionDef(svc: Service, org: Org, collection: string): ObjectDef {
  const def = svc.defs.byCollection(org.id, collection);
  if (!def) throw fault('notFound', 'object', { reason: `There is no collection named ${collection.slice(0, 100)}.` });
  return def;
}

function instanceId(id: string): string {
  const lower = id.toLowerCase();
  if (!OBJECT_ID_PATTERN.test(lower)) {
    throw fault('invalidArgument', 'invalidObjectId', { reason: 'Object ids are 24 hexadecimal characters.' });
  }
  return lower;
}

function validated(def: ObjectDef, body: unknown, mode: 'create' | 'update'): Record<string, Json> {
  const { values, faults } = validateInput(def, body, mode);
  if (faults.length > 0) throw fault('validation', undefined, { faults, reason: `The ${def.name} is not valid.` });
  return values;
}

const notFoundInstance = (def: ObjectDef, id: string) =>
  fault('notFound', 'instance', { reason: `No ${def.name} with _id ${id}.` });
const denied = (def: ObjectDef) =>
  fault('accessDenied', undefined, { reason: `You do not have write access to ${def.collection}.` });
