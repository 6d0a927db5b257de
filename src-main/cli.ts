#!/usr/bin/env node
/**
 * Command-line entry: `serve` (headless mode), `seed` (demo data) and `admin` (data-dir tools).
 * Errors print one clear line and exit non-zero; nothing here prints secrets unless asked to.
 */
import { CliError } from './cli/args.js';
import { serveCommand } from './cli/serve.js';
import { seedCommand } from './cli/seed.js';
import { adminCommand } from './cli/admin.js';

const USAGE = `usage: cli <command> [options]
  serve  --data-dir DIR --port PORT [--org demo] [--admin-email E --admin-password P]
  seed   --data-dir DIR [--org demo] --accounts N [--seed S] [--admin-password P]
  admin  <import|export|app|account|org> … (admin help for details)`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serveCommand(rest);
    case 'seed':
      return seedCommand(rest);
    case 'admin':
      return adminCommand(rest);
    default:
      throw new CliError(command ? `unknown command ${command}\n${USAGE}` : USAGE);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const e = err as { name?: string; message?: string; code?: string };
  const known =
    e.name === 'CliError' || e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || e.code?.startsWith('ERR_PARSE_ARGS');
  console.error(`error: ${known ? e.message : (e.message ?? String(err))}`);
  process.exit(known ? 2 : 1);
});
