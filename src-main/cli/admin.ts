import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { finished } from 'node:stream/promises';
import { parseListQuery } from '../../src-shared/query/parse.js';
import { FaultError } from '../../src-shared/faults.js';
import { runImportCommand } from './admin-import.js';
import { exportQuery, type ExportFormat } from '../service/records/file-export.js';
import { selectionOf } from '../service/records/expand.js';
import { CliError } from './args.js';
import { openOrg } from './open-org.js';
import { progressReporter } from './progress.js';
import { runAccountCommand, runAppCommand, runOrgCommand } from './admin-commands.js';
import { backupCommand, restoreCommand } from './backup.js';
import { runEnvCommand, runOrgCreate } from './admin-env.js';
import { runPolicyCommand } from './admin-policy.js';
import { openService } from '../service/open-service.js';
import { resolve } from 'node:path';
import { defaultDataDir } from './args.js';

const USAGE = `usage: npm run admin -- <command> --data-dir DIR --org ORG [options]
  import  --collection NAME --file F.ndjson [--triggers]          --triggers: each record's create triggers run
  export  --collection NAME [--where JSON] [--sort JSON|name] [--skip N] [--paths a,b] [--expand a,b] [--format ndjson|csv] [--out FILE]
  app create --label L [--signing] [--principal-override] [--expose] | app list | app rotate-secret --key K | app regenerate-rsa --key K
  account create --email E --password P [--role R]
  org set KEY VALUE
  org create --code C --admin-email E --admin-password P [--name N]   (no --org needed)
  env export [--manifest m.json] [--out FILE|DIR]                    configuration as NDJSON
  env import --in FILE [--dry-run] [--backup] [--as ADMIN_EMAIL]     prints added/changed/kept per resource
  policy list | policy disable --name N | policy enable --name N      the org's request policies (no policy applies here)
  backup  --out FILE [--force]           online, while the service runs (the master key is not included)
  restore --from FILE [--force]          only while no service runs on the data dir`;

/** Options every admin command shares; the rest of argv goes to the sub-command. */
function common(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, org: { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--data-dir' || argv[i] === '--org') i++;
    else if (!argv[i]!.startsWith('--data-dir=') && !argv[i]!.startsWith('--org=')) rest.push(argv[i]!);
  }
  return {
    dataDir: values['data-dir'] as string | undefined,
    org: values.org as string | undefined,
    positionals,
    rest,
  };
}

export async function adminCommand(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  // Whole-database commands: they must not open (and so create or migrate) the data dir first.
  if (command === 'backup') return backupCommand(args);
  if (command === 'restore') return restoreCommand(args);
  const { dataDir, org: orgCode, rest } = common(args);
  if (command === 'org' && rest[0] === 'create') {
    const svc = openService({ dataDir: resolve(dataDir ?? defaultDataDir()) });
    try {
      return printJson(await runOrgCreate(svc, rest.slice(1)));
    } finally {
      svc.close();
    }
  }
  const { svc, org } = openOrg(dataDir, orgCode);
  try {
    switch (command) {
      case 'import':
        return await importCommand(svc, org, rest);
      case 'export':
        return await exportCommand(svc, org, rest);
      case 'app':
        return printJson(await runAppCommand(svc, org, rest));
      case 'account':
        return printJson(await runAccountCommand(svc, org, rest));
      case 'org':
        return printJson(await runOrgCommand(svc, org, rest));
      case 'policy':
        return printJson(runPolicyCommand(svc, org, rest));
      case 'env': {
        const printed = await runEnvCommand(svc, org, rest);
        return printed === undefined ? undefined : printJson(printed);
      }
      default:
        throw new CliError(`unknown admin command ${command}\n${USAGE}`);
    }
  } catch (err) {
    if (err instanceof FaultError) throw new CliError(`${err.fault.errCode}: ${err.fault.reason ?? err.fault.message}`);
    throw err;
  } finally {
    svc.close();
  }
}

function printJson(value: unknown): void {
  console.log(JSON.stringify(value));
}

function collectionOf(svc: ReturnType<typeof openOrg>['svc'], orgId: number, name: string | undefined) {
  if (!name) throw new CliError('--collection is required');
  const def = svc.defs.byCollection(orgId, name) ?? svc.defs.byName(orgId, name);
  if (!def) throw new CliError(`no collection named ${name}`);
  return def;
}

async function importCommand(
  svc: ReturnType<typeof openOrg>['svc'],
  org: ReturnType<typeof openOrg>['org'],
  argv: string[],
) {
  const report = await runImportCommand(svc, org, argv, progressReporter('imported lines'));
  for (const e of report.errors) console.error(`line ${e.line}: ${e.reason}`);
  if (report.failed > report.errors.length)
    console.error(`… and ${report.failed - report.errors.length} more bad lines`);
  console.log(JSON.stringify({ imported: report.imported, failed: report.failed }));
  if (report.failed > 0) process.exitCode = 3;
}

async function exportCommand(
  svc: ReturnType<typeof openOrg>['svc'],
  org: ReturnType<typeof openOrg>['org'],
  argv: string[],
) {
  const { values } = parseArgs({
    args: argv,
    options: {
      collection: { type: 'string' },
      where: { type: 'string' },
      sort: { type: 'string' },
      skip: { type: 'string' },
      paths: { type: 'string' },
      expand: { type: 'string' },
      format: { type: 'string', default: 'ndjson' },
      out: { type: 'string' },
    },
  });
  const def = collectionOf(svc, org.id, values.collection);
  const format = values.format as ExportFormat;
  if (format !== 'ndjson' && format !== 'csv') throw new CliError('--format is ndjson or csv');
  const query = parseListQuery(
    {
      ...(values.where ? { where: values.where } : {}),
      ...(values.sort ? { sort: values.sort } : {}),
      ...(values.skip ? { skip: values.skip } : {}),
      ...(values.paths ? { paths: values.paths.split(',').map((p) => p.trim()) } : {}),
    },
    def,
  );
  const list = (v: string | undefined) => v?.split(',').map((p) => p.trim());
  const selection = selectionOf(svc, org, def, {
    ...(values.paths ? { paths: list(values.paths) } : {}),
    ...(values.expand ? { expand: list(values.expand) } : {}),
  });
  if (selection.paths) query.paths = selection.paths;
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  const progress = progressReporter('exported records');
  const count = await exportQuery(svc, org, def, query, format, out, progress, selection.expand);
  if (values.out) {
    out.end();
    await finished(out);
  }
  console.error(`exported ${count} records`);
}
