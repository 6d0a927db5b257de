/**
 * The service as a separate operating-system process, for the tests that need real parallelism
 * (two processes on one data dir) or a real crash (SIGKILL). Tests only.
 *
 * The CLI is bundled with the same esbuild settings as `scripts/build-main.mjs`, but into a cache
 * folder keyed by the sources' sizes and mtimes: `dist/` may be missing (CI runs unit tests before
 * the build) or stale (a developer edited the service), and a test of stale code proves nothing.
 * Test files running in parallel share the bundle; the rename makes its publication atomic.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The CLI, and the worker threads a test's service starts (found next to it, as in dist/). */
const BUNDLED = {
  cli: join(REPO_ROOT, 'src-main/cli.ts'),
  'scripting-worker': join(REPO_ROOT, 'src-main/service/scripting/worker.ts'),
};

function sourceStamp(): string {
  const hash = createHash('sha256');
  hash.update(`${Object.keys(BUNDLED).join(',')}\n`);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const s = statSync(path);
        hash.update(`${path}:${s.size}:${s.mtimeMs}\n`);
      }
    }
  };
  walk(join(REPO_ROOT, 'src-main'));
  walk(join(REPO_ROOT, 'src-shared'));
  return hash.digest('hex').slice(0, 16);
}

/** Path of a CLI bundle built from the current sources (built on first use). */
export async function currentCliBundle(): Promise<string> {
  // Under node_modules, so the bundle's external imports (better-sqlite3, fastify) resolve.
  const dir = join(REPO_ROOT, 'node_modules', '.cache', 'service-under-test', sourceStamp());
  const cli = join(dir, 'cli.js');
  if (existsSync(cli)) return cli;
  const tmp = `${dir}.${randomBytes(4).toString('hex')}.tmp`;
  await build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    packages: 'external',
    format: 'esm',
    logLevel: 'warning',
    entryPoints: BUNDLED,
    outdir: tmp,
  });
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another test file published it first
  }
  return cli;
}

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output(): string;
  /** SIGKILL: no shutdown code runs, exactly like a crash or a power cut of the process. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `cli.js serve` on `dataDir` and a free port; resolves once it prints its console URL. */
export async function startServiceProcess(
  cli: string,
  dataDir: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [cli, 'serve', '--data-dir', dataDir, '--port', '0', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SERVICE_ADMIN_EMAIL: '', SERVICE_ADMIN_PASSWORD: '', ...env },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 20_000);
    const check = () => {
      const m = /Console:\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePort(Number(m[1]));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${out}`));
    });
  });
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => out,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}

/** Runs `cli.js admin …` to completion; resolves with its exit code and output. */
export function runAdmin(cli: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, 'admin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((r) => child.once('exit', (code) => r({ code: code ?? -1, stdout, stderr })));
}
