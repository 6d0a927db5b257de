/**
 * `npm run bench:scale` (issue 43; not part of `npm test`): where the service goes at ten million
 * accounts on this machine. In order, on one data dir:
 *
 *   1. seeding (target < 10 min), then the database's size on disk;
 *   2. `serve` started: time to its first answer and to a logged-in first page (target < 2 s);
 *   3. a count of all accounts (the console's pager total), three times;
 *   4. an export of 1,000,000 records through the console's export path (e2e/perf/export-path.ts);
 *   5. the service's RSS peak through 2–4 (target < 400 MB);
 *   6. Q1–Q5 throughput and p50 against the floor on the same file (`bench.js` on the data dir);
 *   7. the console's first Browse page in Chromium (e2e/perf/first-page.ts; target < 300 ms).
 *
 *   --accounts 10000000   --data-dir DIR (reuse a seeded one; else a temporary dir, removed after)
 *   --ways session,token-ps512,signed-v2   --rounds 10   --export 1000000   --skip-console
 *
 * Checks the free disk first: about 1.3 KB an account for the database, and as much again for the
 * index rebuild's sort files and the WAL while seeding.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareDataset, runToEnd } from './datasets.js';
import { send } from './http-client.js';
import { rssSampler } from './rss.js';
import { adminSetup } from './ways-in.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '10000000' },
    'data-dir': { type: 'string' },
    ways: { type: 'string', default: 'session,token-ps512,signed-v2' },
    rounds: { type: 'string', default: '10' },
    export: { type: 'string', default: '1000000' },
    'skip-console': { type: 'boolean', default: false },
    password: { type: 'string', default: 'bench password 123' },
  },
});
const ACCOUNTS = Number(values.accounts);
const PASSWORD = values.password;
const here = new URL('.', import.meta.url).pathname;
const BYTES_PER_ACCOUNT = 1300;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
const report = (line: string) => console.log(line);

function dirBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.startsWith('service.db') || f.startsWith('replay'))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

function checkDisk(dir: string): void {
  const fs = statfsSync(dir);
  const free = fs.bavail * fs.bsize;
  const needed = 2 * ACCOUNTS * BYTES_PER_ACCOUNT;
  const gb = (b: number) => `${(b / 1e9).toFixed(1)} GB`;
  report(`Free disk at ${dir}: ${gb(free)}; a seed of ${ACCOUNTS.toLocaleString('en-US')} needs about ${gb(needed)}.`);
  if (free < needed) throw new Error('not enough free disk for this size (--accounts, or another --data-dir)');
}

/** Starts `serve`; resolves with the child and the ms from spawn to its first answered request. */
async function startService(dataDir: string) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(here, '..', 'cli.js'), 'serve', '--data-dir', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Service:\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const listening = performance.now() - t0;
  try {
    const info = await send(port, '/_service/info');
    if (info.status !== 200) throw new Error(`first answer: ${info.status}`);
    const firstAnswer = performance.now() - t0;
    const setup = await adminSetup(port, '/demo/v2', PASSWORD);
    const page = await send(port, '/demo/v2/accounts?limit=100', { headers: setup.admin });
    if (page.status !== 200) throw new Error(`first page: ${page.status}`);
    return { child, port, setup, listening, firstAnswer, firstPage: performance.now() - t0 };
  } catch (err) {
    child.kill(); // a failed start must not leave the service running after the bench
    throw err;
  }
}

const stop = (child: ReturnType<typeof spawn>) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });

async function main() {
  report(`bench:scale, ${ACCOUNTS.toLocaleString('en-US')} accounts; load average ${load()} (${cpus().length} cores)`);
  const dataDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-scale-'));
  try {
    if (!values['data-dir']) checkDisk(dataDir);
    // Seeded into this very dir (prepareDataset seeds a dir that holds no database yet).
    const ds = await prepareDataset({ kind: 'seeded', size: ACCOUNTS }, PASSWORD, dataDir);
    if (ds.loadSeconds !== undefined) {
      const ok = ds.loadSeconds < 600 ? '✓' : '✗';
      report(`Seeding: ${ds.loadSeconds} s ${ok} (target < 600 s); ${ds.loadNote}; load average ${load()}`);
    }
    report(`Database on disk: ${(dirBytes(dataDir) / 1e9).toFixed(2)} GB (service.db, its WAL and the replay journal)`);

    const svc = await startService(dataDir);
    const memory = rssSampler(svc.child.pid!);
    try {
      const ok = svc.firstPage < 2000 ? '✓' : '✗';
      report(
        `serve → listening ${svc.listening.toFixed(0)} ms, first answer ${svc.firstAnswer.toFixed(0)} ms, ` +
          `logged in with a first page of 100 accounts ${svc.firstPage.toFixed(0)} ms ${ok} (target < 2,000 ms)`,
      );
      const counts: string[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const res = await send(svc.port, '/demo/v2/accounts/db/count', {
          method: 'POST',
          headers: { ...svc.setup.admin, 'content-type': 'application/json' },
          body: '{}',
        });
        if (res.status !== 200) throw new Error(`count: ${res.status} ${res.body}`);
        counts.push(`${(performance.now() - t0).toFixed(0)} ms (${(JSON.parse(res.body) as { data: number }).data})`);
      }
      report(`Count of all accounts (POST /accounts/db/count, the console's pager total): ${counts.join(', ')}`);
      const exported = JSON.parse(
        (
          await runToEnd([
            join(here, 'console-export.js'),
            '--port',
            String(svc.port),
            '--password',
            PASSWORD,
            '--records',
            values.export,
          ])
        )
          .trim()
          .split('\n')
          .pop()!,
      ) as { seconds: number; records: number; bytes: number; heapPeakMb: number; rssPeakMb: number };
      report(
        `Export of ${exported.records.toLocaleString('en-US')} records through the console's export path: ` +
          `${exported.seconds} s, ${(exported.bytes / 1e6).toFixed(0)} MB of NDJSON kept as blobs until saved (client heap peak ${exported.heapPeakMb} MB, RSS peak ${exported.rssPeakMb} MB)`,
      );
      memory.sample();
      const rssOk = memory.peak.totalMb < 400 ? '✓' : '✗';
      report(
        `Service RSS peak through start, count and export: ${memory.peak.totalMb.toFixed(0)} MB ` +
          `(anonymous ${memory.peak.anonMb.toFixed(0)} MB) ${rssOk} (target < 400 MB); load average ${load()}`,
      );
    } finally {
      memory.stop();
      await stop(svc.child);
    }

    report(`\nQ1–Q5 against the floor on the same file (bench.js --data-dir; load average ${load()}):`);
    const benchOut = await runToEnd([
      join(here, 'bench.js'),
      '--data-dir',
      dataDir,
      '--sizes',
      String(ACCOUNTS),
      '--imported',
      '0',
      '--paths',
      'no',
      '--ways',
      values.ways,
      '--rounds',
      values.rounds,
      '--walks',
      '1',
      '--password',
      PASSWORD,
    ]);
    report(benchOut.trim());

    if (!values['skip-console']) {
      report(`\nThe console's first Browse page (Chromium; load average ${load()}):`);
      report((await runToEnd([join(here, 'console.js'), '--data-dir', dataDir, '--password', PASSWORD])).trim());
    }
    report(`\nload average at the end: ${load()}`);
  } finally {
    if (!values['data-dir']) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`bench:scale failed: ${(err as Error).message}`);
  process.exit(1);
});
