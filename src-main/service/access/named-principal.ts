/**
 * Records that make others run as an account (issue 38 medium 5): a view's `principal` (the view's
 * query runs as it) and a route script's `configuration.principal` (the route runs as it, for any
 * caller its acl admits, anonymous ones included). Naming a principal is acting as it, so only a
 * caller who could act as that account may name it: an org administrator, or the account itself.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { Caller } from './caller.js';

/** The principal a record of `objectName` names, with the path it is at; undefined when none. */
export function principalNamedBy(
  objectName: string,
  doc: Readonly<Record<string, unknown>>,
): { path: string; value: string } | undefined {
  let value: unknown;
  let path: string;
  if (objectName === 'view') {
    value = doc.principal;
    path = 'principal';
  } else if (objectName === 'script') {
    const config = doc.configuration;
    value = typeof config === 'object' && config !== null ? (config as Record<string, unknown>).principal : undefined;
    path = 'configuration.principal';
  } else return undefined;
  return typeof value === 'string' && value !== '' ? { path, value } : undefined;
}

/**
 * Trust boundary: refuses a write that leaves `doc` (the record as it would be stored) naming a
 * principal the caller could not act as. Checked on every write, not only when the principal
 * changes: editing the script or query of a record that runs as an administrator is acting as it.
 */
export function assertMayNamePrincipal(
  svc: Service,
  org: Org,
  caller: Caller,
  objectName: string,
  doc: Readonly<Record<string, unknown>>,
): void {
  const named = principalNamedBy(objectName, doc);
  if (named === undefined || caller.orgAdmin) return;
  if (!caller.anonymous && accountIdNamed(svc, org, named.value) === caller.accountId) return;
  throw fault('accessDenied', 'principal', {
    path: named.path,
    reason: 'Only org administrators may name another account as the principal a record runs as.',
  });
}

/** The account an `_id` or an email names in the org, or undefined. */
function accountIdNamed(svc: Service, org: Org, value: string): string | undefined {
  const id = value.trim().toLowerCase();
  if (OBJECT_ID_PATTERN.test(id)) return id;
  return svc.credentials.byEmail(org.id, value.trim())?.account_id;
}
