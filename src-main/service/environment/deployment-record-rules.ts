import type { Service } from '../service.js';
import { recordRules } from '../records/rules.js';
import { DEPLOYMENT_DEF } from '../objects/deployment-def.js';
import { checkDeployment } from './deployment-rules.js';
import { sealDeploymentCredentials } from './deployment-credentials.js';
import { checkDeploymentAccess } from './deployment-access.js';

/**
 * A deployment record, on every write (records/rules.ts): it names existing orgs and a manifest
 * that parses, its credentials are sealed before they are stored, and the caller who writes it may
 * reach every other org and folder it names only with credentials those issued
 * (deployment-access.ts).
 */
export function registerDeploymentRecordRules(svc: Service): void {
  recordRules(svc).register(DEPLOYMENT_DEF.name, 'target', ({ org, values, merged, current, caller }) => {
    checkDeployment(svc, org, merged);
    sealDeploymentCredentials(svc, values);
    // Whose access is checked: the caller's (an operator's load of a file names no caller).
    if (caller === undefined) return;
    checkDeploymentAccess(svc, org, caller, current ? { ...current.doc, ...values } : values);
  });
}
