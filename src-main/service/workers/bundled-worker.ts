/**
 * Where a worker thread's JavaScript is. Built (`npm run build`): esbuild emits each worker as its
 * own entry in dist/main/ (`<name>.js`), and the module asking is bundled into an entry in
 * dist/main/ (cli.js, service-worker.js) or one folder below (bench/*.js), so both places are
 * tried. From TypeScript source (vitest, tsx): Node 20 cannot start a `.ts` worker, so the worker
 * is bundled on the fly with esbuild (a devDependency) into node_modules/.cache/<name>/ of the
 * repo, where its npm imports still resolve; one file per process, renamed into place atomically.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The workers the build emits (scripts/build-main.mjs), by entry name, with their source. */
export const WORKER_SOURCES = {
  'scripting-worker': 'src-main/service/scripting/worker.ts',
  'seed-worker': 'src-main/service/demo/seed-worker.ts',
  'checkpoint-worker': 'src-main/service/db/checkpoint-worker.ts',
} as const;
export type WorkerName = keyof typeof WORKER_SOURCES;

const located = new Map<WorkerName, Promise<URL>>();

/** The URL to give `new Worker(…)` for a worker, located (or bundled) once per process. */
export function resolveWorkerUrl(name: WorkerName): Promise<URL> {
  let url = located.get(name);
  if (!url) {
    url = locate(name);
    located.set(name, url);
  }
  return url;
}

async function locate(name: WorkerName): Promise<URL> {
  const here = fileURLToPath(import.meta.url);
  const dir = dirname(here);
  if (!here.endsWith('.ts')) {
    for (const candidate of [join(dir, `${name}.js`), join(dir, '..', `${name}.js`)]) {
      if (existsSync(candidate)) return pathToFileURL(candidate);
    }
    throw new Error(`${name}.js not found next to ${here}; run npm run build:main`);
  }
  const repoRoot = join(dir, '..', '..', '..');
  const outDir = join(repoRoot, 'node_modules', '.cache', name);
  mkdirSync(outDir, { recursive: true });
  const tmpFile = join(outDir, `worker-${process.pid}-${Date.now()}.mjs`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(repoRoot, WORKER_SOURCES[name])],
    outfile: tmpFile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  // One file per process: test files run in parallel processes and must not overwrite each other.
  const mine = join(outDir, `worker-${process.pid}.mjs`);
  renameSync(tmpFile, mine);
  return pathToFileURL(mine);
}
