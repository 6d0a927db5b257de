// Gives Electron its own better-sqlite3 build in .electron-native/, leaving node_modules' Node
// build untouched (tests and headless mode use that one). Tries the prebuilt binary for Electron's
// ABI first, then compiles against Electron's headers. Both need network access to their hosts,
// which users' machines have; on build machines without it we never get here (no Electron binary).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { electronVersion } from './electron-binary.mjs';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '..');
const target = join(root, '.electron-native', 'better-sqlite3');
const binary = join(target, 'build', 'Release', 'better_sqlite3.node');

export function ensureElectronNative() {
  if (existsSync(binary)) return binary;
  const source = dirname(require.resolve('better-sqlite3/package.json'));
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true, filter: (p) => !p.includes(`${join('build', '')}`) });
  const version = electronVersion();
  console.log(`Building better-sqlite3 for Electron ${version} in .electron-native/ (one time)…`);
  const run = (cmd, args) =>
    spawnSync(cmd, args, { cwd: target, stdio: 'inherit', shell: process.platform === 'win32' });
  const prebuilt = run(process.execPath, [
    require.resolve('prebuild-install/bin.js'),
    '--runtime=electron',
    `--target=${version}`,
  ]);
  if (prebuilt.status !== 0 || !existsSync(binary)) {
    const gyp = run(process.execPath, [
      require.resolve('node-gyp/bin/node-gyp.js'),
      'rebuild',
      '--release',
      `--target=${version}`,
      '--dist-url=https://electronjs.org/headers',
    ]);
    if (gyp.status !== 0 || !existsSync(binary)) throw new Error('could not build better-sqlite3 for Electron');
  }
  return binary;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) ensureElectronNative();
