/**
 * `npm run bench:paths`: the new paths alone (paths.ts) on a seeded data dir — the same
 * measurements `npm run bench` makes after its first seeded dataset.
 *
 *   --accounts 100000 (seeded; the cursor walk reads up to 100,000 of them)   --data-dir DIR (reuse)
 *   --rounds 10 --duration 1 --connections 4 --memory-runs 10000 --walks 3 --password P
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareDataset } from './datasets.js';
import { startChild } from './start-child.js';
import { adminSetup } from './ways-in.js';
import { allowLongScripts, measurePaths, printPaths } from './paths.js';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '100000' },
    'data-dir': { type: 'string' },
    rounds: { type: 'string', default: '10' },
    duration: { type: 'string', default: '1' },
    connections: { type: 'string', default: '4' },
    'memory-runs': { type: 'string', default: '10000' },
    walks: { type: 'string', default: '3' },
    password: { type: 'string', default: 'bench password 123' },
  },
});
const here = new URL('.', import.meta.url).pathname;
const accounts = Number(values.accounts);
console.log(
  `load average at the start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);
const ds = await prepareDataset({ kind: 'seeded', size: accounts }, values.password, values['data-dir']);
allowLongScripts(ds.dataDir);
const svc = await startChild(
  [join(here, '..', 'cli.js'), 'serve', '--data-dir', ds.dataDir, '--port', '0'],
  /Service:\s+http:\/\/127\.0\.0\.1:(\d+)\//,
);
try {
  const setup = await adminSetup(Number(svc.match[1]), '/demo/v2', values.password);
  const report = await measurePaths(setup, svc.child.pid!, {
    rounds: Number(values.rounds),
    duration: Number(values.duration),
    connections: Number(values.connections),
    memoryRuns: Number(values['memory-runs']),
    cursorRecords: Math.min(100_000, accounts),
    walks: Number(values.walks),
  });
  printPaths(report);
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
} finally {
  svc.child.kill();
  if (ds.temporary) rmSync(ds.dataDir, { recursive: true, force: true });
}
