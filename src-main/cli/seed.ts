import { parseArgs } from 'node:util';
import { CLI_BATCH, CLI_GENERATORS, seedOrg } from '../service/demo/seeder.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import { openService } from '../service/open-service.js';
import { CliError, defaultDataDir, positiveInt } from './args.js';
import { progressReporter } from './progress.js';
import { resolve } from 'node:path';

/**
 * `seed --data-dir DIR --org demo --accounts N [--seed S]`: deterministic demo data. Creates the
 * org first (with the given or a demo administrator) when the data dir has none.
 */
export async function seedCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      org: { type: 'string', default: 'demo' },
      accounts: { type: 'string' },
      seed: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
    },
    strict: true,
  });
  const accounts = positiveInt('--accounts', values.accounts, 1000);
  if (accounts < 1) throw new CliError('--accounts must be at least 1');
  const svc = openService({ dataDir: resolve(values['data-dir'] ?? defaultDataDir()) });
  try {
    const code = values.org ?? 'demo';
    let org = svc.orgs.byCode(code);
    if (!org) {
      const adminEmail = values['admin-email'] ?? process.env.SERVICE_ADMIN_EMAIL ?? `admin@${code}.example`;
      const adminPassword = values['admin-password'] ?? process.env.SERVICE_ADMIN_PASSWORD;
      if (!adminPassword) throw new CliError(`org "${code}" does not exist: give --admin-password to create it`);
      org = (await bootstrapOrg(svc, { code, adminEmail, adminPassword })).org;
      console.error(`Created org "${code}" with administrator ${adminEmail}.`);
    }
    const started = Date.now();
    let indexing: number | undefined;
    const result = await seedOrg(svc, org, {
      accounts,
      seed: positiveInt('--seed', values.seed, 1),
      onProgress: progressReporter('seeding accounts'),
      onPhase: (phase) => {
        if (phase === 'indexing') indexing = Date.now();
      },
      batchSize: CLI_BATCH,
      generators: CLI_GENERATORS,
    });
    const ended = Date.now();
    const secs = (ms: number) => Number((ms / 1000).toFixed(1));
    // The two phases apart, so a slow seed says whether writing or the index rebuild grew.
    const phases =
      indexing === undefined ? {} : { writing: secs(indexing - started), indexing: secs(ended - indexing) };
    console.log(JSON.stringify({ ...result, seconds: secs(ended - started), ...phases }));
  } finally {
    svc.close();
  }
}
