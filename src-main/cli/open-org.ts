import { resolve } from 'node:path';
import { openService } from '../service/open-service.js';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { CliError, defaultDataDir } from './args.js';

/** Opens a data dir (works while a service runs on it: SQLite WAL + busy timeout) and finds the org. */
export function openOrg(dataDir: string | undefined, orgCode: string | undefined): { svc: Service; org: Org } {
  const svc = openService({ dataDir: resolve(dataDir ?? defaultDataDir()) });
  const code = orgCode ?? 'demo';
  const org = svc.orgs.byCode(code);
  if (!org) {
    svc.close();
    throw new CliError(
      `no org "${code}" in this data dir (create it with \`npm run serve -- --admin-email … --admin-password …\`)`,
    );
  }
  return { svc, org };
}
