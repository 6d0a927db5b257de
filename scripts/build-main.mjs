// Bundles the main-side entries with esbuild. npm packages stay external (resolved from
// node_modules at run time), so native better-sqlite3 and electron are never bundled.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    format: 'esm',
    entryPoints: {
      cli: 'src-main/cli.ts',
      'service-worker': 'src-main/service/worker.ts',
      // Worker threads, found at run time next to (or one folder above) the bundle that starts
      // them (see src-main/service/workers/bundled-worker.ts, which lists them too).
      'scripting-worker': 'src-main/service/scripting/worker.ts',
      'seed-worker': 'src-main/service/demo/seed-worker.ts',
      'checkpoint-worker': 'src-main/service/db/checkpoint-worker.ts',
      'shell/main': 'src-main/shell/main.ts',
      'bench/bench': 'src-main/bench/bench.ts',
      'bench/floor': 'src-main/bench/floor.ts',
      'bench/console': 'e2e/perf/first-page.ts',
      'bench/load': 'src-main/bench/load.ts',
      'bench/token-verify': 'src-main/bench/token-verify.ts',
      'bench/signed-verify': 'src-main/bench/signed-verify.ts',
      'bench/alternate': 'src-main/bench/alternate.ts',
      'bench/framework-ladder': 'src-main/bench/framework-ladder.ts',
      'bench/framework-ladder-server': 'src-main/bench/framework-ladder-server.ts',
      'bench/profile-layers': 'src-main/bench/profile-layers.ts',
      'bench/triggers': 'src-main/bench/triggers.ts',
      'bench/scripts': 'src-main/bench/scripts.ts',
      'bench/sandbox-timing': 'src-main/bench/sandbox-timing.ts',
      'bench/views': 'src-main/bench/views.ts',
      'bench/paths': 'src-main/bench/paths-main.ts',
      'bench/scale': 'src-main/bench/scale.ts',
      'bench/console-export': 'e2e/perf/export-path.ts',
    },
    outdir: 'dist/main',
  }),
  // The window's preload: CommonJS, because a sandboxed preload cannot be an ES module.
  build({
    ...common,
    format: 'cjs',
    entryPoints: { 'shell/preload': 'src-main/shell/preload.ts' },
    outExtension: { '.js': '.cjs' },
    outdir: 'dist/main',
  }),
]);
