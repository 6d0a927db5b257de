/**
 * What a job script record must meet on every write: a five-field cron schedule, and, when it
 * names a principal, a usable account of the org — a job that could never run is refused at save.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { parseSchedule } from './registry.js';
import { recordRules } from '../records/rules.js';

export function assertJobConfig(svc: Service, org: Org, merged: Doc): void {
  if (merged.type !== 'job') return;
  const c = (
    typeof merged.configuration === 'object' && merged.configuration !== null ? merged.configuration : {}
  ) as Record<string, unknown>;
  parseSchedule(c.cron);
  if (typeof c.principal === 'string' && c.principal !== '') {
    const found = lookupAccountPrincipal(svc, org, c.principal);
    if (!('principal' in found)) {
      throw fault('validation', 'invalidReference', { path: 'configuration.principal', reason: found.problem });
    }
  }
}

/** Makes every write of a script record check it (the shared write path's registry). */
export function registerJobRules(svc: Service): void {
  recordRules(svc).register('script', 'job-rules', ({ org, merged }) => assertJobConfig(svc, org, merged));
}
