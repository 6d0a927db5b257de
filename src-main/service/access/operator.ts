/**
 * The service operator (docs/orgs-and-apps.md): whoever owns the data folder. Over HTTP that is an
 * administrator of the operator org — the org created at first start (by the setup form, by
 * `serve --admin-email`, or by the command line), recorded then (orgs.ts `operatorOrgId`). The
 * desktop app's console signs in to that org, so its user is the operator; the command line opens
 * the folder itself and needs no check. Administrators of any other org administer their own org
 * and nothing of the service: they neither create orgs nor reach other data folders.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from './caller.js';

/** Whether the caller, calling in `org`, is the operator. */
export function isOperator(svc: Service, org: Org, caller: Caller): boolean {
  return caller.orgAdmin && svc.orgs.operatorOrgId() === org.id;
}

/** Refuses anyone but the operator; `what` completes "Only the service operator may …". */
export function requireOperator(svc: Service, org: Org, caller: Caller, what: string): void {
  if (isOperator(svc, org, caller)) return;
  throw fault('accessDenied', 'operator', {
    reason: `Only the service operator (an administrator of the org created at first start, or the command line) may ${what}.`,
  });
}
