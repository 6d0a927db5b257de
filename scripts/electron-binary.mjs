// Finds the Electron binary WITHOUT require('electron'): on Electron 45 that starts a download and
// throws where the binary is missing. We read path.txt beside electron's package.json instead.
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** @returns {{ path: string } | { missing: string }} */
export function findElectronBinary(env = process.env) {
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, process.platform === 'win32' ? 'electron.exe' : 'electron');
    return isExecutable(p) ? { path: p } : { missing: `ELECTRON_OVERRIDE_DIST_PATH has no executable at ${p}` };
  }
  let pkgDir;
  try {
    pkgDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed' };
  }
  let rel;
  try {
    rel = readFileSync(join(pkgDir, 'path.txt'), 'utf8').trim();
  } catch {
    return { missing: "Electron's binary has not been downloaded (no electron/path.txt)" };
  }
  const p = join(pkgDir, 'dist', rel);
  return isExecutable(p) ? { path: p } : { missing: `Electron's binary is not executable at ${p}` };
}

export function electronVersion() {
  const pkg = createRequire(import.meta.url)('electron/package.json');
  return pkg.version;
}

function isExecutable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
