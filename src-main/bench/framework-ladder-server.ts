/**
 * One rung of the framework ladder (`framework-ladder.ts`): Q5, one record by `_id`, answered
 * through Fastify with one more piece of the service's request path on each rung. The record is
 * read with the floor's own statement and written as the floor writes it, so the rungs differ from
 * the floor only in the framework and the per-request machinery around the handler.
 *
 *   node dist/main/bench/framework-ladder-server.js DB_FILE TABLE RUNG
 *
 * Rungs, each including the one before:
 * - `fastify`: a bare Fastify route under `/:org/v2/:collection/:id`, no hooks, no schema;
 * - `guard`: the service's request guard and fault handling (`installFaultHandling`: Host check,
 *   response headers, URL length);
 * - `cookie`: `@fastify/cookie`, as the service registers it;
 * - `prehandler`: an empty preHandler where the org scope's is;
 * - `validators`: the route's type-only schemas (`pathParams`, `ANY_QUERY`) run as validators, as
 *   every service route's did before `type-only-schemas.ts`;
 * - `type-only`: the same schemas, dropped from validation by `dropTypeOnlySchemas` (the service now).
 */
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import Database from 'better-sqlite3';
import { systemClock } from '../service/clock.js';
import { installFaultHandling } from '../service/http/faults-plugin.js';
import { ANY_QUERY, pathParams } from '../service/http/route-schemas.js';
import { dropTypeOnlySchemas } from '../service/http/type-only-schemas.js';
import { floorRecordText, floorSql, hasKeyColumns } from './workloads.js';
import { RUNG_NAMES, type Rung } from './framework-ladder-rungs.js';

const [file, table, rungArg] = process.argv.slice(2);
const rung = RUNG_NAMES.indexOf(rungArg as Rung);
if (!file || !table || rung < 0) {
  throw new Error(`usage: framework-ladder-server.js DB_FILE TABLE ${RUNG_NAMES.join('|')}`);
}
const at = (name: Rung) => rung >= RUNG_NAMES.indexOf(name);

const db = new Database(file, { readonly: true });
// The floor's memory settings (floor.ts), so no rung gets a bigger cache than the floor.
db.pragma('cache_size = -32768');
db.pragma('mmap_size = 33554432');
const byId = db.prepare(floorSql(table, hasKeyColumns(db, table)).q5).raw(true);

const server = Fastify({ logger: false });
if (at('guard')) installFaultHandling(server, systemClock, () => undefined);
if (at('cookie')) await server.register(fastifyCookie);
if (at('type-only')) server.addHook('onRoute', dropTypeOnlySchemas);
await server.register(
  async (scope) => {
    if (at('prehandler')) scope.addHook('preHandler', (_request, _reply, done) => done());
    const schema = at('validators') ? { params: pathParams('collection', 'id'), querystring: ANY_QUERY } : undefined;
    scope.get<{ Params: { id: string } }>('/:collection/:id', schema ? { schema } : {}, (request, reply) => {
      const row = byId.get(request.params.id) as [string, string] | undefined;
      if (!row) return reply.code(404).send();
      return reply.type('application/json; charset=utf-8').send(floorRecordText(row));
    });
  },
  { prefix: '/:org/v2' },
);
await server.listen({ host: '127.0.0.1', port: 0 });
const address = server.server.address();
console.log(`LADDER_PORT=${typeof address === 'object' && address ? address.port : 0}`);
