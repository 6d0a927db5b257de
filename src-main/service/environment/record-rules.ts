import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc, Json } from '../objects/validate.js';
import { compileView } from '../views/compile-view.js';
import { VIEW_DEF } from '../objects/view-def.js';
import { DEPLOYMENT_DEF } from '../objects/deployment-def.js';
import { checkDeployment } from './deployment-rules.js';
import { sealDeploymentCredentials } from './deployment-credentials.js';

/**
 * Rules a record must meet beyond its definition, checked before it is written: a view must
 * compile (its query parses against its source object); a deployment must name existing orgs and
 * a manifest that parses, and its credentials are encrypted before they are stored; then the
 * validators registered for the type (`svc.recordValidators`: a script must compile, a route script
 * needs a free method + path). `current`: the stored record on update, so a PATCH is checked as the
 * record it would leave.
 */
export function checkRecordRules(
  svc: Service,
  org: Org,
  def: ObjectDef,
  values: Record<string, Json>,
  current?: { _id: string; doc: Doc },
  replace = false,
): void {
  const merged: Doc = replace || !current ? { ...values } : { ...current.doc, ...values };
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  if (def.name === VIEW_DEF.name) compileView(svc, org, current?._id ?? '', merged);
  else if (def.name === DEPLOYMENT_DEF.name) {
    checkDeployment(svc, org, merged);
    sealDeploymentCredentials(svc, values);
  }
  svc.recordValidators.check(def.name, { org, merged, ...(current ? { selfId: current._id } : {}) });
}
