import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { hostService, PortInUseError } from '../service/host.js';
import { CliError, defaultDataDir, parsePort } from './args.js';

export const DEFAULT_PORT = 7788;

/** `cli serve`: headless mode until SIGINT/SIGTERM. */
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
  const running = await hostService({
    synchronous,
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    port: parsePort(values.port, DEFAULT_PORT),
    org: values.org ?? 'demo',
    adminEmail: values['admin-email'] ?? process.env.SERVICE_ADMIN_EMAIL,
    adminPassword: values['admin-password'] ?? process.env.SERVICE_ADMIN_PASSWORD,
  }).catch((err: unknown) => {
    throw err instanceof PortInUseError ? new CliError(err.message) : err;
  });
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
