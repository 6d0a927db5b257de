import { homedir } from 'node:os';
import { join } from 'node:path';

export class CliError extends Error {
  override name = 'CliError';
}

/** Where data lives when no --data-dir is given: $SERVICE_DATA_DIR, else the user's data folder. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SERVICE_DATA_DIR) return env.SERVICE_DATA_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? homedir(), 'typed-object-console');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'typed-object-console');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'typed-object-console');
}

export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0–65535, not ${value}`);
  return port;
}

export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new CliError(`${name} must be a non-negative integer, not ${value}`);
  return n;
}
