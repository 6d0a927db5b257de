/**
 * `node dist/main/bench/console-export.js --port P --password PW [--records 1000000]`: an export of
 * the first N accounts through the console's export path, on a running service — the console's own
 * `runExport` (keyset pages of 1,000 on `_id`, each encoded as NDJSON and kept in memory until the
 * file is saved), fed by the same list requests the console sends. What it leaves out is the
 * browser's part: the page's JavaScript engine instead of Node's, and the Blob made at the end.
 * Prints one JSON line: seconds, records, pages, bytes kept, the process's peak heap.
 */
import { parseArgs } from 'node:util';
import { request } from 'node:http';
import { blobSink, runExport } from '../../src-renderer/features/object-browser/result-grid/export-runner';
import type { ListRequest, ObjectRecord } from '../../src-renderer/api/records';
import type { ListPage } from '../../src-renderer/api/types';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    password: { type: 'string' },
    email: { type: 'string', default: 'admin@demo.example' },
    records: { type: 'string', default: '1000000' },
  },
});
if (!values.port || !values.password) throw new Error('usage: --port P --password PW [--records N]');
const PORT = Number(values.port);
const RECORDS = Number(values.records);
const BASE = '/demo/v2';

function call(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: PORT, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
        );
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

async function login(): Promise<Record<string, string>> {
  const info = JSON.parse((await call('GET', '/_service/info', {})).body) as {
    data: { orgs: { consoleAppKey: string }[] };
  };
  const key = info.data.orgs[0]!.consoleAppKey;
  const res = await call(
    'POST',
    `${BASE}/accounts/login`,
    { 'content-type': 'application/json', 'service-client-key': key },
    JSON.stringify({ email: values.email, password: values.password }),
  );
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.body}`);
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');
  return { 'service-client-key': key, cookie };
}

/** The query string the console sends for a list request (objects as JSON, as its client encodes them). */
function query(r: ListRequest): string {
  const args: [string, string][] = [];
  if (r.where && Object.keys(r.where).length > 0) args.push(['where', JSON.stringify(r.where)]);
  if (r.sort) args.push(['sort', JSON.stringify(r.sort)]);
  if (r.skip) args.push(['skip', String(r.skip)]);
  args.push(['limit', String(r.limit)]);
  return args.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

async function main() {
  const headers = await login();
  let fetched = 0;
  let heapPeak = 0;
  let rssPeak = 0;
  const fetchPage = async (r: ListRequest): Promise<ListPage<ObjectRecord>> => {
    const res = await call('GET', `${BASE}/accounts?${query(r)}`, headers);
    if (res.status !== 200) throw new Error(`page: ${res.status} ${res.body.slice(0, 200)}`);
    const page = JSON.parse(res.body) as { data: ObjectRecord[]; hasMore: boolean };
    fetched += page.data.length;
    const memory = process.memoryUsage();
    heapPeak = Math.max(heapPeak, memory.heapUsed);
    rssPeak = Math.max(rssPeak, memory.rss);
    // The export ends after RECORDS, as if the collection ended there.
    return { items: page.data, hasMore: page.hasMore && fetched < RECORDS };
  };
  // The console's own sink: each page becomes a Blob (Node's, like the browser's, holds its bytes
  // outside the JavaScript heap), so the heap peak is what the console's heap would hold.
  const sink = blobSink('application/x-ndjson');
  const started = performance.now();
  const result = await runExport(
    fetchPage,
    { sort: { _id: 1 }, paths: [] },
    'ndjson',
    [],
    () => undefined,
    new AbortController().signal,
    sink.write,
  );
  const seconds = (performance.now() - started) / 1000;
  const bytes = sink.bytes();
  console.log(
    JSON.stringify({
      seconds: Number(seconds.toFixed(1)),
      records: result.records,
      pages: Math.ceil(result.records / 1000),
      bytes,
      heapPeakMb: Math.round(heapPeak / 1024 / 1024),
      rssPeakMb: Math.round(rssPeak / 1024 / 1024),
    }),
  );
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
