import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import { validateScopes } from '../../../src-shared/scopes/index.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { createAccount } from '../accounts/accounts.js';
import { assertScopesExist } from '../access/scope-schema.js';
import { presentListText, presentRecord, presentRecordText, presentsVerbatim } from '../objects/present.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { validateInput, type Json } from '../objects/validate.js';
import { ObjectStore, reference, type StoredRecord } from '../objects/store.js';
import type { SqlFragment } from '../query/sql-fragment.js';
import {
  ACCESS,
  REQUIRED,
  assertAccountPropertiesAllowed,
  assertConnectionAllowed,
  assertQueryable,
  assertWholeObject,
  assertWritable,
  canCreate,
  levelOf,
  levelsOf,
  readableCondition,
  readableProperties,
  requireScope,
  scopeAllows,
  stripProperties,
  type Caller,
} from '../access/objects.js';
import { requireCaller } from '../http/context.js';
import { patchRecord } from '../access/object-writes.js';
import { deleteOps, parsePatchBody, postOps, putOps, type PatchOp } from '../objects/patch-ops.js';
import { rawListArgs } from './list-args.js';

interface CollectionParams {
  collection: string;
}
interface InstanceParams extends CollectionParams {
  id: string;
}

/**
 * Records of every collection: `/<collection>` and `/<collection>/<_id>`. Every operation is
 * decided by the access model of access/objects.ts: token scopes first (they do not depend on
 * what is stored, so a refusal reveals nothing), then the caller's level on the instance. An
 * instance the caller cannot read answers notFound, exactly like one that does not exist.
 */
export function objectRoutes(svc: Service) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: CollectionParams }>('/:collection', async (request, reply) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      const page = listRecords(svc, org, caller, def, request.query, COLLECTION_LIST);
      return typeof page === 'string' ? reply.type('application/json; charset=utf-8').send(page) : page;
    });

    // Not async: the hottest route awaits nothing, and a promise per request costs measurably.
    app.get<{ Params: InstanceParams }>('/:collection/:id', (request, reply) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      const id = instanceId(request.params.id);
      const allowed = requireScope(caller, 'read', def, id);
      const { record, level } = readable(svc, org, caller, def, id);
      const query = request.query as Record<string, unknown>;
      const paths = rawListArgs(query, '').paths;
      if (!paths && allowed === 'all' && presentsVerbatim(def) && !hasListProperties(def)) {
        // The commonest read, a whole record with nothing nested: written out from its stored text.
        reply.type('application/json; charset=utf-8').send(presentRecordText(def, record, level));
        return;
      }
      let out = stripProperties(presentRecord(def, record, level), allowed);
      if (paths) out = projectPaths(out, parseListQuery({ paths }, def).paths ?? []) as typeof out;
      for (const prop of def.properties) {
        if (!isListProperty(prop)) continue;
        if (paths && !paths.some((p) => p === prop.name || p.startsWith(`${prop.name}.`))) continue;
        if (allowed !== 'all' && !allowed.some((p) => p === prop.name || p.startsWith(`${prop.name}.`))) continue;
        const listDef = svc.defs.byName(org.id, prop.refObject);
        if (!listDef || !scopeAllows(caller, 'read', listDef)) continue;
        // Whoever may share the instance sees all of its connections; others only those they may read.
        const contextual = level >= ACCESS.share;
        out[prop.name] = listRecords(svc, org, caller, listDef, query, {
          prefix: `${prop.name}.`,
          where: [ObjectStore.contextEquals(id)],
          contextual,
        }) as unknown as Json;
      }
      reply.send(out); // a sync handler answers through reply and returns nothing
    });

    app.post<{ Params: CollectionParams }>('/:collection', async (request) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      assertWritable(requireScope(caller, 'create', def), request.body);
      if (!canCreate(caller, def)) {
        throw fault('accessDenied', undefined, { reason: `You may not create ${def.collection}.` });
      }
      assertAccountPropertiesAllowed(caller, def, request.body, 'create');
      let record: StoredRecord;
      if (def.name === 'account') {
        record = await createAccount(svc, org, request.body as never, caller.accountId);
      } else {
        const values = validated(def, request.body, 'create');
        if (def.name === 'role') assertRoleScopesExist(svc, org.id, values);
        if (def.name === 'connection') assertConnectionAllowed(svc, org, caller, values);
        values.owner = reference('account', caller.accountId);
        record = svc.store.insert(org.id, def, values, { updaterId: caller.accountId });
      }
      return present(svc, org, caller, def, record);
    });

    // PATCH (operation arrays or a merge), PUT (a partial set) and the sub-path routes (§F) all
    // become PATCH operations applied by patchRecord in one write transaction.
    const patchWith =
      (toOps: (body: unknown, subPath?: string) => PatchOp[], answer: 'record' | 'result' = 'record') =>
      async (request: FastifyRequest<{ Params: InstanceParams & { '*'?: string } }>) => {
        const { org } = request.ctx;
        const caller = requireCaller(svc, request);
        const def = collectionDef(svc, org, request.params.collection);
        const id = instanceId(request.params.id);
        const subPath = request.params['*'];
        const ops = toOps(request.body, subPath === '' ? undefined : subPath);
        const record = patchRecord(svc, org, caller, def, id, ops);
        return answer === 'result' ? { object: 'result', data: true } : present(svc, org, caller, def, record);
      };
    const patchBody = (body: unknown, subPath?: string) => parsePatchBody(body === undefined ? {} : body, subPath);
    app.patch<{ Params: InstanceParams }>('/:collection/:id', patchWith(patchBody));
    app.put<{ Params: InstanceParams }>(
      '/:collection/:id',
      patchWith((body) => putOps(body === undefined ? {} : body)),
    );
    app.patch<{ Params: InstanceParams }>('/:collection/:id/*', patchWith(patchBody));
    app.put<{ Params: InstanceParams }>('/:collection/:id/*', patchWith(putOps));
    app.post<{ Params: InstanceParams }>(
      '/:collection/:id/*',
      patchWith((body, path) => postOps(path ?? '', body)),
    );
    app.delete<{ Params: InstanceParams }>(
      '/:collection/:id/*',
      patchWith((_body, path) => deleteOps(path ?? ''), 'result'),
    );

    app.delete<{ Params: InstanceParams }>('/:collection/:id', async (request) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      const id = instanceId(request.params.id);
      assertWholeObject(requireScope(caller, 'delete', def, id), 'deleting an object');
      const { level } = readable(svc, org, caller, def, id);
      if (level < REQUIRED.delete) throw denied(def, 'delete', level);
      if (def.name === 'account' && id === caller.accountId) {
        throw fault('accessDenied', undefined, { reason: 'You cannot delete your own account.' });
      }
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

interface ListOptions {
  /** Query-string arguments are read as `prefix<name>` (a list property's own arguments). */
  prefix?: string;
  /** Conditions the caller does not control (the instance a list property belongs to). */
  where?: readonly SqlFragment[];
  /** A list property of an instance the caller may share: every entry is readable. */
  contextual?: boolean;
  /** Whole records may be answered as one JSON text built from their stored text. */
  asText?: boolean;
}

/** A collection's own list: the hottest list there is, so its options are built once. */
const COLLECTION_LIST: ListOptions = { asText: true };

/**
 * Runs a list query given raw query-string arguments. The read condition is part of the SQL, so
 * `limit`, `skip` and `hasMore` count only what the caller may see.
 */
function listRecords(svc: Service, org: Org, caller: Caller, def: ObjectDef, queryString: unknown, opts: ListOptions) {
  const { prefix = '', where: extra = [], contextual = false, asText = false } = opts;
  const listAllowed = requireScope(caller, 'read', def);
  const query = parseListQuery(rawListArgs(queryString as Record<string, unknown>, prefix), def, {
    allowNegations: !org.settings.disableNegation,
  });
  assertQueryable(listAllowed, query);
  const condition = contextual ? undefined : readableCondition(svc, org, caller, def);
  const where = [...(condition ? [condition] : []), ...extra];
  // Records shown whole (no projection, no property-limited scope) go out as their stored text.
  if (asText && !contextual && !query.paths && caller.scopes === undefined && presentsVerbatim(def)) {
    const { rows, hasMore } = svc.store.list(org.id, def, query, where);
    return presentListText(def, rows, levelsOf(svc, org, caller, def, rows), hasMore);
  }
  const { rows, hasMore } = svc.store.list(org.id, def, query, where);
  const levels = levelsOf(svc, org, caller, def, rows);
  const data = rows.map((r, i) => {
    const level = contextual ? Math.max(levels[i] ?? 0, ACCESS.read) : (levels[i] ?? 0);
    const obj = stripProperties(presentRecord(def, r, level), readableProperties(caller, def, r._id));
    return query.paths ? projectPaths(obj, query.paths) : obj;
  });
  return { object: 'list', data, hasMore };
}

const listPropertiesByDef = new WeakMap<ObjectDef, boolean>();

/** Whether a definition has list properties; asked on every read, so remembered per definition. */
function hasListProperties(def: ObjectDef): boolean {
  let has = listPropertiesByDef.get(def);
  if (has === undefined) {
    has = def.properties.some(isListProperty);
    listPropertiesByDef.set(def, has);
  }
  return has;
}

/** List properties (a patient file's `connections`): read as nested list envelopes. */
function isListProperty(prop: ObjectDef['properties'][number]): prop is typeof prop & { refObject: string } {
  return prop.type === 'List' && prop.refObject !== undefined && prop.refObject !== '';
}

/** The record and the caller's level on it; notFound when it is missing or the caller cannot read it. */
function readable(svc: Service, org: Org, caller: Caller, def: ObjectDef, id: string) {
  const record = svc.store.getText(org.id, def, id);
  const level = record ? levelOf(svc, org, caller, def, record) : 0;
  if (!record || level < REQUIRED.read) throw notFoundInstance(def, id);
  return { record, level };
}

/** A written record as the caller sees it: their level on it, stripped to what they may read. */
function present(svc: Service, org: Org, caller: Caller, def: ObjectDef, record: StoredRecord) {
  const level = levelOf(svc, org, caller, def, record);
  return stripProperties(presentRecord(def, record, level), readableProperties(caller, def, record._id));
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
  // A role's scopes are chains the token checks will parse: refuse bad ones when they are written.
  if (def.name === 'role' && Array.isArray(values.scopes)) validateScopes(values.scopes);
  return values;
}

function assertRoleScopesExist(svc: Service, orgId: number, values: Record<string, Json>): void {
  if (Array.isArray(values.scopes)) assertScopesExist(svc, orgId, values.scopes as string[], 'scopes');
}

const notFoundInstance = (def: ObjectDef, id: string) =>
  fault('notFound', 'instance', { reason: `No ${def.name} with _id ${id}.` });
const denied = (def: ObjectDef, operation: 'update' | 'delete', level: number) =>
  fault('accessDenied', undefined, {
    reason: `You need ${operation} access (${REQUIRED[operation]}) on this ${def.name}; you have ${level}.`,
  });
