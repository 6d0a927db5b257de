import type { Service } from '../service.js';
import { driverAnswer, runDriverOperation } from '../driver/driver.js';
import { requireCaller } from '../http/context.js';
import { pathParams, type TypedServer } from '../http/route-schemas.js';
import { collectionDef, instanceId } from '../records/object-def.js';
import { listPropertyFromArgs } from '../records/read.js';

/**
 * `GET /<collection>/<_id>/<path>`: the value at one property path of a record (docs/compatibility.md
 * §A reads `"<_id>/<path>"`, §F writes the same sub-paths), answered `{object:"result", data}`.
 * It is the driver's `readOne` with `where: "<_id>/<path>"`, so the scopes, the caller's level on
 * the record, the property scopes that strip what a token may not read, and the faults
 * (`notFound.instance`, `notFound.property`) are the driver's and the record read's.
 */
export function objectPathRoutes(svc: Service) {
  return async (server: TypedServer) => {
    const schema = { params: pathParams('collection', 'id', '*') };
    server.get('/:collection/:id/*', { schema }, async (request) => {
      const { org } = request.ctx;
      const caller = requireCaller(svc, request);
      const def = collectionDef(svc, org, request.params.collection);
      const id = instanceId(request.params.id);
      // A list property is a list: its arguments (where, pipeline, expand[], …) apply to its entries.
      const list = listPropertyFromArgs(svc, org, caller, def, id, request.params['*'], request.query);
      if (list !== undefined) return list;
      const where = `${id}/${request.params['*']}`;
      const result = await runDriverOperation(svc, org, caller, def.name, 'readOne', { where });
      if (result.kind === 'stream') throw new Error('readOne answers one value, never a stream');
      return driverAnswer(result);
    });
  };
}
