import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { parseManifest } from './manifest.js';

/** Checks a deployment record before it is written: the orgs exist and differ, the manifest parses. */
export function checkDeployment(svc: Service, org: Org, doc: Doc): void {
  const source = typeof doc.sourceOrg === 'string' && doc.sourceOrg !== '' ? doc.sourceOrg : org.code;
  if (!svc.orgs.byCode(source)) throw invalid('sourceOrg', `There is no org ${source} in this data folder.`);
  if (typeof doc.targetOrg !== 'string' || !svc.orgs.byCode(doc.targetOrg)) {
    throw invalid('targetOrg', `There is no org ${String(doc.targetOrg)} in this data folder.`);
  }
  if (doc.targetOrg === source) throw invalid('targetOrg', 'A deployment goes to another org than its source.');
  if (typeof doc.name === 'string' && OBJECT_ID_PATTERN.test(doc.name)) throw invalid('name', 'A name is not an _id.');
  let manifest: unknown;
  try {
    manifest = JSON.parse(String(doc.manifest));
  } catch {
    throw invalid('manifest', 'manifest is the export manifest as JSON text.');
  }
  try {
    parseManifest(manifest);
  } catch (err) {
    throw invalid('manifest', err instanceof FaultError ? `${err.fault.path}: ${err.fault.reason}` : String(err));
  }
}

function invalid(path: string, reason: string) {
  return fault('validation', 'deployment', { path, reason });
}
