/**
 * What the spec describes and the service does not implement yet (issue #15 item 6): such a
 * request answers `kNotImplemented` (501, a fault in the spec's shape), never `notFound.route`,
 * so a client can tell "not here yet" from "no such thing". The audit behind this list, route by
 * route against service-interface.md, decisions.md and original-clients.md, is the test
 * routes/loose-ends.test.ts; a row leaves this list when its route is registered (a registered
 * route is matched first, so a stale row is harmless but the test names it).
 */
import { makeFault, type FaultBody } from '../../../src-shared/faults.js';

interface Missing {
  method: string;
  /** Matches the path after `/<org>/v2`. */
  path: RegExp;
  what: string;
}

export const NOT_IMPLEMENTED: readonly Missing[] = [
  {
    // original-clients.md §A reads "<_id>/<path>" (driver readOne) and §F writes sub-paths; a REST
    // read of one property path is not there yet.
    method: 'GET',
    path: /^\/[A-Za-z_][A-Za-z0-9_]*\/[0-9a-fA-F]{24}\/[A-Za-z_][^?]*$/,
    what:
      'Reading one property path (GET /<collection>/<_id>/<path>) is not implemented; read the record with ' +
      'paths[]=<path>, or POST /<collection>/db/readOne with {"where":"<_id>/<path>"}.',
  },
];

const ORG_PREFIX = /^\/[a-z0-9-]{1,64}\/v2(\/[^?]*)?(\?.*)?$/;

/** The fault for a request the spec describes but the service does not implement; undefined otherwise. */
export function notImplementedFault(method: string, url: string): FaultBody | undefined {
  const rest = ORG_PREFIX.exec(url)?.[1];
  if (rest === undefined) return undefined;
  const row = NOT_IMPLEMENTED.find(
    (r) => (r.method === method || (r.method === 'GET' && method === 'HEAD')) && r.path.test(rest),
  );
  return row ? makeFault('notImplemented', undefined, { reason: row.what }) : undefined;
}
