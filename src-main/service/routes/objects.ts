import type { FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { presentRecord, presentRecordText, presentsVerbatim } from '../objects/present.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { StoredRecord } from '../objects/stored-record.js';
import {
  REQUIRED,
  levelOf,
  readableProperties,
  requireScope,
  stripProperties,
  type Caller,
} from '../access/objects.js';
import { requireCaller, type OrgRequest } from '../http/context.js';
import { ANY_BODY, ANY_QUERY, pathParams, type TypedServer } from '../http/route-schemas.js';
import { createRecord, deleteRecord, patchRecord } from '../driver/records.js';
import { deleteOps, parsePatchBody, postOps, putOps, type PatchOp } from '../objects/patch-ops.js';
import { rawListArgs } from './list-args.js';
import { addListProperties, COLLECTION_LIST, hasListProperties, listRecords } from './object-lists.js';

const collection = { params: pathParams('collection') };
const instance = { params: pathParams('collection', 'id') };
const subPath = { params: pathParams('collection', 'id', '*'), body: ANY_BODY };

/** A write to one instance: its path parameters and its body (the domain checks it). */
type InstanceRequest = FastifyRequest & { params: { collection: string; id: string }; body: unknown };

/**
 * Records of every collection: `/<collection>` and `/<collection>/<_id>`. Every operation is
 * decided by the access model of access/objects.ts: token scopes first (they do not depend on
 * what is stored, so a refusal reveals nothing), then the caller's level on the instance. An
 * instance the caller cannot read answers notFound, exactly like one that does not exist.
 * Lists (and list properties) are built in object-lists.ts.
 */
export function objectRoutes(svc: Service) {
  return async (server: TypedServer) => {
    // Not async either: a list page awaits nothing.
    server.get('/:collection', { schema: { ...collection, querystring: ANY_QUERY } }, (request, reply) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      const page = listRecords(svc, org, caller, def, request.query, COLLECTION_LIST);
      if (typeof page === 'string') reply.type('application/json; charset=utf-8').send(page);
      else reply.send(page);
    });

    // Not async: a promise per request costs measurably. Most of these requests (no query string)
    // never get here: direct-instance-read.ts answers them with the same steps without Fastify.
    server.get('/:collection/:id', { schema: { ...instance, querystring: ANY_QUERY } }, (request, reply) => {
      const out = readInstance(svc, request, request.params.collection, request.params.id, request.query);
      if (typeof out === 'string') reply.type('application/json; charset=utf-8').send(out);
      else reply.send(out); // a sync handler answers through reply and returns nothing
    });

    server.post('/:collection', { schema: { ...collection, body: ANY_BODY } }, async (request) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      // One implementation with the driver's insertOne (driver/records.ts).
      const record = await createRecord(svc, org, caller, def, request.body);
      return present(svc, org, caller, def, record);
    });

    // PATCH (operation arrays or a merge), PUT (a partial set) and the sub-path routes (§F) all
    // become PATCH operations applied by patchRecord in one write transaction.
    const patchWith =
      (toOps: (body: unknown, subPath?: string) => PatchOp[], answer: 'record' | 'result' = 'record') =>
      async (request: InstanceRequest, subPath?: string) => {
        const { org } = request.ctx;
        const caller = requireCaller(svc, request);
        const def = collectionDef(svc, org, request.params.collection);
        const id = instanceId(request.params.id);
        const ops = toOps(request.body, subPath === '' ? undefined : subPath);
        const { record } = patchRecord(svc, org, caller, def, id, ops);
        return answer === 'result' ? { object: 'result', data: true } : present(svc, org, caller, def, record);
      };
    const patchBody = (body: unknown, subPath?: string) => parsePatchBody(body === undefined ? {} : body, subPath);
    const whole = { schema: { ...instance, body: ANY_BODY } };
    const patch = patchWith(patchBody);
    const put = patchWith((body) => putOps(body === undefined ? {} : body));
    server.patch('/:collection/:id', whole, (request) => patch(request));
    server.put('/:collection/:id', whole, (request) => put(request));
    const putAt = patchWith(putOps);
    const postAt = patchWith((body, path) => postOps(path ?? '', body));
    const deleteAt = patchWith((_body, path) => deleteOps(path ?? ''), 'result');
    server.patch('/:collection/:id/*', { schema: subPath }, (request) => patch(request, request.params['*']));
    server.put('/:collection/:id/*', { schema: subPath }, (request) => putAt(request, request.params['*']));
    server.post('/:collection/:id/*', { schema: subPath }, (request) => postAt(request, request.params['*']));
    server.delete('/:collection/:id/*', { schema: subPath }, (request) => deleteAt(request, request.params['*']));

    server.delete('/:collection/:id', { schema: instance }, async (request) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      const id = instanceId(request.params.id);
      // One implementation with the driver's deleteOne (driver/records.ts).
      deleteRecord(svc, org, caller, def, id);
      return { object: 'result', data: true };
    });
  };
}

/** GET /:collection/:id: the stored text when it can be sent as it is, else the presented record. */
export function readInstance(
  svc: Service,
  request: Pick<OrgRequest, 'ctx'>,
  collection: string,
  idParam: string,
  query: Record<string, unknown> | undefined,
): string | object {
  const { org } = request.ctx;
  const caller = requireCaller(svc, request);
  const def = collectionDef(svc, org, collection);
  const id = instanceId(idParam);
  const allowed = requireScope(caller, 'read', def, id);
  const { record, level } = readable(svc, org, caller, def, id);
  const paths = rawListArgs(query, '').paths;
  // The commonest read, a whole record with nothing nested: written out from its stored text.
  if (!paths && allowed === 'all' && presentsVerbatim(def) && !hasListProperties(def)) {
    return presentRecordText(def, record, level);
  }
  let out = stripProperties(presentRecord(def, record, level), allowed);
  if (paths) out = projectPaths(out, parseListQuery({ paths }, def).paths ?? []) as typeof out;
  addListProperties(svc, org, caller, def, out, { level, allowed, paths, query });
  return out;
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

export function instanceId(id: string): string {
  const lower = id.toLowerCase();
  if (!OBJECT_ID_PATTERN.test(lower)) {
    throw fault('invalidArgument', 'invalidObjectId', { reason: 'Object ids are 24 hexadecimal characters.' });
  }
  return lower;
}

const notFoundInstance = (def: ObjectDef, id: string) =>
  fault('notFound', 'instance', { reason: `No ${def.name} with _id ${id}.` });
