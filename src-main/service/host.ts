/**
 * Hosting: open a data dir, create the first org and administrator when asked to, serve the API
 * and the console on 127.0.0.1. The command line (`cli serve`), the service worker thread (which
 * the Electron shell starts) and the benchmarks all host the service through this one function, so
 * the service never depends on any of them.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SynchronousMode } from './db/open.js';
import { openService } from './open-service.js';
import { buildServer, listen } from './server.js';
import { bootstrapOrg } from './bootstrap.js';

/** The built console sits beside the built main bundle: dist/main/cli.js → dist/renderer. */
export function builtConsoleDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
}

/** The port is taken: callers turn this into their own kind of message. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(readonly port: number) {
    super(`port ${port} is already in use`);
  }
}

export interface RunningService {
  port: number;
  org?: string;
  close(): Promise<void>;
}

export interface HostOptions {
  dataDir: string;
  port: number;
  org: string;
  adminEmail?: string;
  adminPassword?: string;
  consoleDir?: string;
  masterKey?: Buffer;
  nativeBinding?: string;
  /** `full` makes an acknowledged write survive a power cut (issue #13 item 8); default `normal`. */
  synchronous?: SynchronousMode;
  log?: (line: string) => void;
}

export async function hostService(opts: HostOptions): Promise<RunningService> {
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
  // Claimed before serving. Another service on this data dir keeps it: this one then serves
  // everything but signed requests, which it refuses rather than miss replays (replay-journal.ts).
  if (!svc.replays.claim(svc.clock.now())) {
    log('Another service on this data dir holds its replay journal: signed requests are refused here.');
  }
  const server = await buildServer(svc, { consoleDir: opts.consoleDir ?? builtConsoleDir(), defaultOrg: opts.org });
  let port: number;
  try {
    port = await listen(server, opts.port);
  } catch (err) {
    svc.close();
    if ((err as { code?: string }).code === 'EADDRINUSE') throw new PortInUseError(opts.port);
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
      await server.close();
      svc.close();
    },
  };
}
