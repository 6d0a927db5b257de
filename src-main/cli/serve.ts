import { parseArgs } from 'node:util';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openService } from '../service/open-service.js';
import type { SynchronousMode } from '../service/db/open.js';
import { buildApp, listen } from '../service/app.js';
import { bootstrapOrg } from '../service/orgs/bootstrap.js';
import { CliError, defaultDataDir, parsePort } from './args.js';

export const DEFAULT_PORT = 7788;

/** The built console sits beside the built main bundle: dist/main/cli.js → dist/renderer. */
export function builtConsoleDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
}

export interface RunningService {
  port: number;
  org?: string;
  close(): Promise<void>;
}

/**
 * Headless mode: open the data dir, create the first org and administrator when asked to, serve
 * the API and the console on 127.0.0.1.
 */
export async function startHeadless(opts: {
  dataDir: string;
  port: number;
  org: string;
  adminEmail?: string;
  adminPassword?: string;
  consoleDir?: string;
  masterKey?: Buffer;
  nativeBinding?: string;
  synchronous?: SynchronousMode;
  log?: (line: string) => void;
}): Promise<RunningService> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const svc = openService({
    dataDir: opts.dataDir,
    ...(opts.masterKey ? { masterKey: opts.masterKey } : {}),
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    ...(opts.synchronous ? { synchronous: opts.synchronous } : {}),
  });
  if (svc.orgs.list().length === 0 && opts.adminEmail && opts.adminPassword) {
    await bootstrapOrg(svc, { code: opts.org, adminEmail: opts.adminEmail, adminPassword: opts.adminPassword });
    log(`Created org "${opts.org}" with administrator ${opts.adminEmail}.`);
  }
  const app = await buildApp(svc, { consoleDir: opts.consoleDir ?? builtConsoleDir() });
  let port: number;
  try {
    port = await listen(app, opts.port);
  } catch (err) {
    svc.db.close();
    if ((err as { code?: string }).code === 'EADDRINUSE') throw new CliError(`port ${opts.port} is already in use`);
    throw err;
  }
  const orgs = svc.orgs.list();
  const org = orgs.find((o) => o.code === opts.org) ?? orgs[0];
  log(`Data dir: ${opts.dataDir}`);
  log(`Service:  http://127.0.0.1:${port}/${org?.code ?? '<org>'}/v2`);
  log(`Console:  http://127.0.0.1:${port}/console/${org ? '' : '  (first-run setup)'}`);
  return {
    port,
    ...(org ? { org: org.code } : {}),
    close: async () => {
      await app.close();
      svc.db.close();
    },
  };
}

export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      org: { type: 'string', default: 'demo' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      synchronous: { type: 'string', default: 'normal' },
    },
    strict: true,
  });
  const synchronous = values.synchronous;
  if (synchronous !== 'full' && synchronous !== 'normal') throw new CliError('--synchronous must be full or normal');
  const running = await startHeadless({
    synchronous,
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    port: parsePort(values.port, DEFAULT_PORT),
    org: values.org ?? 'demo',
    adminEmail: values['admin-email'] ?? process.env.SERVICE_ADMIN_EMAIL,
    adminPassword: values['admin-password'] ?? process.env.SERVICE_ADMIN_PASSWORD,
  });
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
