/**
 * The benchmark's floor: the same answers as the service for the five workloads, from hand-written
 * SQL on the same SQLite file through a minimal node:http handler (no framework, no parsing, no
 * auth). The service's figures are reported as ratios to this.
 */
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { registerQueryFunctions } from '../service/query/compile.js';
import { floorSql, Q3_RANGE } from './workloads.js';

const [file, table] = process.argv.slice(2);
if (!file || !table) throw new Error('usage: floor.js DB_FILE TABLE');
const db = new Database(file, { readonly: true });
// The same memory settings as the service (db/open.ts), so neither side gets a bigger cache.
db.pragma('cache_size = -32768');
db.pragma('mmap_size = 67108864');
registerQueryFunctions(db);
const sql = floorSql(table);
const stmt = Object.fromEntries(Object.entries(sql).map(([k, v]) => [k, db.prepare(v)])) as Record<
  keyof typeof sql,
  Database.Statement
>;

type Row = { _id: string; doc: string };
const present = (r: Row) => ({ _id: r._id, object: 'account', access: 8, ...(JSON.parse(r.doc) as object) });
const list = (rows: Row[], limit: number) =>
  JSON.stringify({ object: 'list', data: rows.slice(0, limit).map(present), hasMore: rows.length > limit });

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  let body: string;
  switch (url.pathname) {
    case '/q1':
      body = list(stmt.q1.all() as Row[], 100);
      break;
    case '/q2': {
      const after = url.searchParams.get('after');
      body = list((after ? stmt.q2.all(after) : stmt.q2first.all()) as Row[], 1000);
      break;
    }
    case '/q3':
      body = list(stmt.q3.all(Q3_RANGE.from, Q3_RANGE.to) as Row[], 100);
      break;
    case '/q4':
      body = list(stmt.q4.all() as Row[], 100);
      break;
    case '/q5': {
      const row = stmt.q5.get(url.searchParams.get('id')) as Row | undefined;
      body = row ? JSON.stringify(present(row)) : '{}';
      break;
    }
    default:
      res.writeHead(404).end();
      return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`FLOOR_PORT=${typeof address === 'object' && address ? address.port : 0}`);
});
