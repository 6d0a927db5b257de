/**
 * Where the sandbox worker's JavaScript is. Built (`npm run build`): esbuild emits
 * dist/main/scripting-worker.js, and this module is bundled into an entry in dist/main/ (cli.js,
 * service-worker.js) or one folder below (bench/*.js), so both places are tried. From TypeScript
 * source (vitest, tsx): Node 20 cannot start a `.ts` worker, so the worker is bundled on the fly
 * with esbuild (a devDependency) into node_modules/.cache/ of the repo, where its npm imports
 * (quickjs-emscripten-core) still resolve; one file per process, renamed into place atomically.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let cached: Promise<URL> | undefined;

export function resolveWorkerUrl(): Promise<URL> {
  cached ??= locate();
  return cached;
}

async function locate(): Promise<URL> {
  const here = fileURLToPath(import.meta.url);
  const dir = dirname(here);
  if (!here.endsWith('.ts')) {
    for (const candidate of [join(dir, 'scripting-worker.js'), join(dir, '..', 'scripting-worker.js')]) {
      if (existsSync(candidate)) return pathToFileURL(candidate);
    }
    throw new Error(`scripting-worker.js not found next to ${here}; run npm run build:main`);
  }
  const repoRoot = join(dir, '..', '..', '..');
  const outDir = join(repoRoot, 'node_modules', '.cache', 'scripting-sandbox');
  mkdirSync(outDir, { recursive: true });
  const tmpFile = join(outDir, `worker-${process.pid}-${Date.now()}.mjs`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(dir, 'worker.ts')],
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
