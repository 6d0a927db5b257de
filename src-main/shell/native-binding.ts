import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * better-sqlite3 built for Electron's ABI lives apart from node_modules (which keeps the plain-Node
 * build for tests and headless mode): `.electron-native/better-sqlite3/build/Release`. Packaged
 * apps carry an Electron build in node_modules already, so they need no override.
 */
export function electronNativeBinding(appRoot: string, isPackaged: boolean): string | undefined {
  if (isPackaged) return undefined;
  const file = join(appRoot, '.electron-native', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  return existsSync(file) ? file : undefined;
}
