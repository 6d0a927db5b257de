import type { FastifyRequest } from 'fastify';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { levelOf, type Caller } from '../access/objects.js';
import { requireCaller, type OrgRequest } from '../http/context.js';
import { ANY_BODY, ANY_QUERY, pathParams, type TypedServer } from '../http/route-schemas.js';
import { deleteOps, parsePatchBody, postOps, putOps, type PatchOp } from '../objects/patch-ops.js';
import { collectionDef, instanceId } from '../records/object-def.js';
import { COLLECTION_LIST, listFromArgs } from '../records/list-from-args.js';
import { readInstance as readRecordInstance } from '../records/read.js';
import { presentFor } from '../records/presentation.js';
import { createTriggered, deleteTriggered, patchTriggered } from '../records/triggered-writes.js';

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
 * Every operation is the records service's (records/), shared with the driver API and scripts;
 * this module turns requests into its calls and its answers into replies.
 */
export function objectRoutes(svc: Service) {
  return async (server: TypedServer) => {
    // Not async either: a list page awaits nothing.
    // Most of these requests never get here: direct-reads.ts answers them with the same steps
    // without Fastify (all but those of an org with request policies, or with an encoded path).
    server.get('/:collection', { schema: { ...collection, querystring: ANY_QUERY } }, (request, reply) => {
      const page = listRecords(svc, request, request.params.collection, request.query);
      if (typeof page === 'string') reply.type('application/json; charset=utf-8').send(page);
      else reply.send(page);
    });

    // Not async: a promise per request costs measurably.
    server.get('/:collection/:id', { schema: { ...instance, querystring: ANY_QUERY } }, (request, reply) => {
      const out = readInstance(svc, request, request.params.collection, request.params.id, request.query);
      if (typeof out === 'string') reply.type('application/json; charset=utf-8').send(out);
      else reply.send(out); // a sync handler answers through reply and returns nothing
    });

    server.post('/:collection', { schema: { ...collection, body: ANY_BODY } }, async (request) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      const record = await createTriggered(svc, org, caller, def, request.body);
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
        const { record } = await patchTriggered(svc, org, caller, def, id, ops);
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
      await deleteTriggered(svc, org, caller, def, id);
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
  return readRecordInstance(svc, org, caller, def, instanceId(idParam), query);
}

/** `GET /:collection` for both roads (this route and direct-reads.ts): a page of records, usually as text. */
export function listRecords(
  svc: Service,
  request: Pick<OrgRequest, 'ctx'>,
  collection: string,
  query: unknown,
): ReturnType<typeof listFromArgs> {
  const { org } = request.ctx;
  const caller = requireCaller(svc, request);
  const def = collectionDef(svc, org, collection);
  return listFromArgs(svc, org, caller, def, query, COLLECTION_LIST);
}

/** A written record as the caller sees it: their level on it, stripped to what they may read. */
function present(svc: Service, org: Org, caller: Caller, def: ObjectDef, record: StoredRecord) {
  return presentFor(caller, def, record, levelOf(svc, org, caller, def, record));
}
