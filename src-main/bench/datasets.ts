/**
 * The data the benches measure on (issue 43): accounts from the project's own seeder, and accounts
 * from an independent generator (`scripts/gen-accounts.mjs`: another PRNG, names with 12 % "Smith"
 * and a long tail, `_id`s out of insert order, a sparser record shape) loaded the way a user loads
 * data, with the admin CLI's NDJSON import. Each is made in a data dir of its own through the
 * command line, as a user would.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type DatasetKind = 'seeded' | 'imported';

export interface DatasetSpec {
  kind: DatasetKind;
  size: number;
}

export interface Dataset extends DatasetSpec {
  dataDir: string;
  /** Short, for progress lines: `100k`, `1M`, `100k imported`. */
  label: string;
  /** The report's heading. */
  title: string;
  /** Seconds the seed, or the CLI's import, took (absent when a data dir was reused). */
  loadSeconds?: number;
  /** What the load's time covers, for the report. */
  loadNote: string;
  /** Made by the bench, so removed after it. */
  temporary: boolean;
}

const here = new URL('.', import.meta.url).pathname;
const CLI = join(here, '..', 'cli.js');
/** `scripts/` of the checkout, from `dist/main/bench/`. */
const GENERATOR = join(here, '..', '..', '..', 'scripts', 'gen-accounts.mjs');
export const ADMIN_EMAIL = 'admin@demo.example';

/** `--sizes 100000,1000000 --imported 100000` → the seeded sizes, then the imported ones. */
export function datasetSpecs(sizes: string, imported: string): DatasetSpec[] {
  const list = (s: string) =>
    s
      .split(',')
      .filter(Boolean)
      .map(Number)
      .filter((n) => n > 0);
  return [
    ...list(sizes).map((size) => ({ kind: 'seeded' as const, size })),
    ...list(imported).map((size) => ({ kind: 'imported' as const, size })),
  ];
}

/** Runs `node <args>` to its end; its stderr (progress lines) goes straight to ours. */
export function runToEnd(args: string[]): Promise<string> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.slice(0, 3).join(' ')} failed: ${code}`)),
    ),
  );
}

const sizeLabel = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

/** Makes the dataset (or reuses `reuseDir` when it already holds a database) and says how long it took. */
export async function prepareDataset(spec: DatasetSpec, password: string, reuseDir?: string): Promise<Dataset> {
  const label = `${sizeLabel(spec.size)}${spec.kind === 'imported' ? ' imported' : ''}`;
  const count = spec.size.toLocaleString('en-US');
  const title =
    spec.kind === 'seeded'
      ? `${count} accounts (the project's seeder)`
      : `${count} accounts (scripts/gen-accounts.mjs, imported with \`npm run admin -- import\`)`;
  const dataDir = reuseDir ?? mkdtempSync(join(tmpdir(), `bench-${spec.kind}-`));
  const base = { ...spec, dataDir, label, title, temporary: reuseDir === undefined };
  if (reuseDir !== undefined && existsSync(join(reuseDir, 'service.db'))) {
    console.log(`[${label}] reusing the data dir ${dataDir} (its load not measured; password from --password)`);
    return { ...base, loadNote: 'reused data dir' };
  }
  if (spec.kind === 'seeded') {
    console.log(`[${label}] seeding ${count} accounts into ${dataDir} …`);
    const out = await runToEnd([
      CLI,
      'seed',
      '--data-dir',
      dataDir,
      '--accounts',
      String(spec.size),
      '--admin-password',
      password,
    ]);
    const seeded = JSON.parse(out.trim().split('\n').pop()!) as {
      seconds: number;
      writing?: number;
      indexing?: number;
    };
    const phases =
      seeded.indexing === undefined
        ? ''
        : ` (writing ${seeded.writing} s, then indexes and statistics ${seeded.indexing} s)`;
    console.log(`[${label}] seeded in ${seeded.seconds} s${phases}`);
    return { ...base, loadSeconds: seeded.seconds, loadNote: `seeding${phases}` };
  }
  const file = join(dataDir, 'accounts.ndjson');
  console.log(`[${label}] generating ${count} accounts with scripts/gen-accounts.mjs, then importing them …`);
  await runToEnd([
    CLI,
    'admin',
    'org',
    'create',
    '--data-dir',
    dataDir,
    '--code',
    'demo',
    '--admin-email',
    ADMIN_EMAIL,
    '--admin-password',
    password,
  ]);
  await runToEnd([GENERATOR, '--count', String(spec.size), '--out', file]);
  const started = performance.now();
  const out = await runToEnd([
    CLI,
    'admin',
    'import',
    '--data-dir',
    dataDir,
    '--org',
    'demo',
    '--collection',
    'accounts',
    '--file',
    file,
  ]);
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  const result = JSON.parse(out.trim().split('\n').pop()!) as { imported: number; failed: number };
  if (result.failed > 0 || result.imported !== spec.size) throw new Error(`import: ${JSON.stringify(result)}`);
  console.log(`[${label}] imported in ${seconds} s`);
  return { ...base, loadSeconds: seconds, loadNote: "the CLI's NDJSON import (validation, one savepoint per record)" };
}
