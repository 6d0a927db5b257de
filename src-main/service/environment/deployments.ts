/**
 * Running a deployment: export the source org with the stored manifest, diff it against the
 * target, and (unless a dry run) apply it through the import path, all or nothing, in whichever
 * kind of target it names (deployment-targets.ts). Every run is logged in the org holding the
 * deployment with who ran it, when, the diff and the result; a run that read or wrote another org
 * (with that org's credential, deployment-access.ts) is logged there as well (deployment-log.ts).
 */
import { fault } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import { parseWhereDocument } from '../../../src-shared/query/parse.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { requireOperator } from '../access/operator.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { parseManifest } from './manifest.js';
import { checkDeployment, targetKindOf } from './deployment-rules.js';
import { authorizeSource, type Side } from './deployment-access.js';
import { exportDocuments } from './export.js';
import { deployToTarget, logPeerRun, reasonOf, type DeployInput } from './deployment-targets.js';
import { logRun, type DeploymentRun } from './deployment-log.js';
import { DEPLOYMENT_DEF } from '../objects/deployment-def.js';
import type { ResourceDoc } from './resources.js';

export { deploymentRuns, peerRuns, type DeploymentRun } from './deployment-log.js';

export function findDeployment(svc: Service, org: Org, nameOrId: string): StoredRecord | undefined {
  const def = svc.defs.byName(org.id, DEPLOYMENT_DEF.name);
  if (!def) return undefined;
  if (OBJECT_ID_PATTERN.test(nameOrId)) return svc.store.get(org.id, def, nameOrId);
  const where = parseWhereDocument({ name: nameOrId }, def);
  return svc.store.list(org.id, def, { ...(where ? { where } : {}), sort: [], skip: 0, limit: 1 }).rows[0];
}

/**
 * The caller must be an administrator of the org holding the deployment (a token also needs
 * `deployment.execute.<_id>` or `.<name>`); the other orgs it reads or writes let it in by their
 * credentials, checked again now (deployment-access.ts); another data folder is the operator's.
 */
export async function runDeployment(
  svc: Service,
  org: Org,
  caller: Caller,
  callerEmail: string,
  nameOrId: string,
  dryRun: boolean,
  opts: { triggers?: boolean } = {},
): Promise<DeploymentRun> {
  const record = findDeployment(svc, org, nameOrId);
  if (caller.scopes !== undefined) {
    const aliases = record ? [record._id, String(record.doc.name)].filter((a) => a !== nameOrId) : [];
    const decision = checkScope(caller.scopes, { kind: 'deployment', identifier: nameOrId, aliases });
    if (!decision.allowed) throw fault('accessDenied', 'scope', { reason: decision.explanation });
  }
  if (!caller.orgAdmin) throw fault('accessDenied', 'principal', { reason: 'Org administrators only.' });
  if (!record) throw fault('notFound', 'deployment', { reason: `There is no deployment ${nameOrId.slice(0, 100)}.` });
  const started = svc.nowIso();
  const deployment = { name: String(record.doc.name), id: record._id };
  const base = { deployment: record._id, by: callerEmail, started, dryRun };
  const peer = {
    deployment,
    holder: org,
    caller: { accountId: caller.accountId, email: callerEmail },
    dryRun,
    started,
  };
  let source: Side | undefined;
  try {
    // Checked again: orgs, rights and credentials may have changed since the deployment was saved.
    checkDeployment(svc, org, record.doc);
    if (targetKindOf(record.doc) === 'folder') requireOperator(svc, org, caller, 'deploy into another data folder');
    source = authorizeSource(svc, org, record.doc, deployment);
    const docs = exportDocuments(svc, source.org, parseManifest(JSON.parse(String(record.doc.manifest))));
    const manifest = parseManifest(docs.find((d) => d.object === 'manifest'));
    const resources = docs.filter((d) => typeof d.resource === 'string') as ResourceDoc[];
    const input: DeployInput = {
      doc: record.doc,
      docs,
      resources,
      manifest,
      ...peer,
      triggers: opts.triggers === true,
    };
    const changes = await deployToTarget(svc, input);
    // The logs keep the diff (resource and change); the documents themselves come with a dry run's answer only.
    const outcome = {
      result: dryRun ? ('dry-run' as const) : ('complete' as const),
      changes: changes.map((c) => ({ resource: c.resource, change: c.change })),
    };
    logPeerRun(svc, source, peer, 'source', outcome);
    const run = logRun(svc, org, { ...base, ...outcome });
    return dryRun ? { ...run, changes } : run;
  } catch (err) {
    const reason = reasonOf(err);
    if (source) logPeerRun(svc, source, peer, 'source', { result: 'failed', reason, changes: [] });
    logRun(svc, org, { ...base, result: 'failed', reason, changes: [] });
    throw err;
  }
}
