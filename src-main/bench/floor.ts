/**
 * The benchmark's floor: the same answers as the service for the workloads, written the way a
 * skilled hand would write them with nothing else to do — hand-written SQL served by indexes, a
 * bare node:http handler (no framework, no auth, no parsing), and each record written out by
 * splicing `_id`, `object` and `access` into its stored JSON text (no JSON.parse/stringify per
 * record). The service's figures are reported as ratios to this.
 *
 * Indexes: the floor's SQL names the expressions exactly as the service's expression indexes do, so
 * the indexes the service already keeps serve it; a hand-writer would create the same composite
 * ones. It opens the file read-only, and refuses to start when a statement's plan does not use the
 * intended index (so a change to the service's indexes cannot quietly slow the floor down).
 */
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { checkPlan, queryPlan } from './query-plan.js';
import {
  FLOOR_PLANS,
  floorGroupText,
  floorRecordText,
  floorSql,
  hasKeyColumns,
  Q3_RANGE,
  SIGNED_FLOOR_PREFIX,
  WALK_PAGE,
} from './workloads.js';
import { nonceStoreFile, parseSigningKeys, signedChecker } from './floor-signed.js';

const [file, table] = process.argv.slice(2);
if (!file || !table) throw new Error('usage: floor.js DB_FILE TABLE (signing apps: FLOOR_SIGNING_KEYS=key:secret,…)');
const db = new Database(file, { readonly: true });
// The same memory settings as the service (db/open.ts), so neither side gets a bigger cache.
db.pragma('cache_size = -32768');
db.pragma('mmap_size = 33554432');
const sql = floorSql(table, hasKeyColumns(db, table));
type Key = keyof typeof sql;

const sample: Record<Key, unknown[]> = {
  q1: [],
  q2first: [],
  q2: ['0'],
  q3: [Q3_RANGE.from, Q3_RANGE.to],
  q4: [],
  q5: ['0'],
  qa: [],
  qm: [Q3_RANGE.from],
};
for (const key of Object.keys(sql) as Key[]) {
  const { lines, problems } = checkPlan(
    queryPlan(db, sql[key], sample[key]),
    table,
    FLOOR_PLANS[key](table),
    // QM groups by a computed month (a temporary B-tree); Q1 merges its branches in index order.
    key === 'qm' ? 1 : 0,
  );
  if (problems.length > 0) throw new Error(`floor ${key}: ${problems.join('; ')}\n  ${lines.join('\n  ')}`);
}

// Rows as [_id, doc] arrays: the cheapest shape better-sqlite3 returns.
const stmt = Object.fromEntries(Object.entries(sql).map(([k, v]) => [k, db.prepare(v).raw(true)])) as Record<
  Key,
  Database.Statement
>;

type Row = [id: string, doc: string];

function list(rows: Row[], limit: number, text: (row: never) => string = floorRecordText): string {
  const n = Math.min(rows.length, limit);
  let out = '{"object":"list","data":[';
  for (let i = 0; i < n; i++) out += (i === 0 ? '' : ',') + text(rows[i] as never);
  return `${out}],"hasMore":${rows.length > limit}}`;
}

/**
 * The authenticating floor (issue 43): under `/<org>/v2/` the same answers, each only after the
 * request's signature is checked and its nonce recorded (floor-signed.ts); 401 otherwise.
 */
const secrets = parseSigningKeys(process.env.FLOOR_SIGNING_KEYS);
const signedOk = secrets.size > 0 ? signedChecker(nonceStoreFile(file), secrets) : () => false;

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  if (path.startsWith(SIGNED_FLOOR_PREFIX)) {
    path = path.slice(SIGNED_FLOOR_PREFIX.length - 1);
    if (!signedOk(req.headers, path, url)) {
      res.writeHead(401).end();
      return;
    }
  }
  const param = (name: string) => (q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get(name));
  let body: string;
  switch (path) {
    case '/q1':
      body = list(stmt.q1.all() as Row[], 100);
      break;
    case '/q2': {
      const after = param('after');
      body = list((after ? stmt.q2.all(after) : stmt.q2first.all()) as Row[], WALK_PAGE);
      break;
    }
    case '/q3':
      body = list(stmt.q3.all(Q3_RANGE.from, Q3_RANGE.to) as Row[], 100);
      break;
    case '/q4':
      body = list(stmt.q4.all() as Row[], 100);
      break;
    case '/qa':
      body = list(stmt.qa.all() as Row[], 100, floorGroupText);
      break;
    case '/qm':
      body = list(stmt.qm.all(Q3_RANGE.from) as Row[], 100, floorGroupText);
      break;
    case '/q5': {
      const row = stmt.q5.get(param('id')) as Row | undefined;
      if (!row) {
        res.writeHead(404).end();
        return;
      }
      body = floorRecordText(row);
      break;
    }
    default:
      res.writeHead(404).end();
      return;
  }
  // With its length, not chunked: one write, and the client need not parse chunk framing.
  res
    .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    .end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`FLOOR_PORT=${typeof address === 'object' && address ? address.port : 0}`);
});
