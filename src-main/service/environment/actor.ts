import { fault } from '../../../src-shared/faults.js';
import { parseWhereDocument } from '../../../src-shared/query/parse.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';

/**
 * The account a command-line import writes as: the given administrator (by email, looked up in
 * this org only — an email names an account within its org, docs/orgs-and-apps.md), else the org's first
 * administrator. Deployments never use it: another org is written as the account its credential
 * names (deployment-access.ts).
 */
export function administratorOf(svc: Service, org: Org, email?: string): string {
  const def = svc.defs.byName(org.id, 'account')!;
  if (email !== undefined) {
    const id = svc.credentials.byEmail(org.id, email)?.account_id;
    const roles = id ? svc.store.getValues(org.id, def, id, ['roles'])?.roles : undefined;
    if (!id || typeof roles !== 'string' || !roles.includes(BUILTIN_ROLES.administrator)) {
      throw fault('accessDenied', 'principal', { reason: `${email} is not an administrator of ${org.code}.` });
    }
    return id;
  }
  const where = parseWhereDocument({ roles: BUILTIN_ROLES.administrator }, def);
  const first = svc.store.list(org.id, def, { ...(where ? { where } : {}), sort: [], skip: 0, limit: 1 }).rows[0];
  if (!first) throw fault('notFound', 'account', { reason: `${org.code} has no administrator.` });
  return first._id;
}
