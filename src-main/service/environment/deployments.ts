/**
 * Running a deployment: export the source org with the stored manifest, diff it against the
 * target, and (unless a dry run) apply it through the import path, all or nothing, in whichever
 * kind of target it names (deployment-targets.ts). Every run is logged in the org holding the
 * deployment with who ran it, when, the diff and the result.
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import { checkScope } from '../../../src-shared/scopes/index.js';
import { parseWhereDocument } from '../../../src-shared/query/parse.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { parseManifest } from './manifest.js';
import { checkDeployment, checkDeploymentSource, sourceCodeOf } from './deployment-rules.js';
import { exportDocuments } from './export.js';
import { deployToTarget, type DeploymentHost, type TargetChange } from './deployment-targets.js';
import { DEPLOYMENT_DEF } from '../objects/deployment-def.js';
import type { ResourceDoc } from './resources.js';

export interface DeploymentRun {
  object: 'deploymentRun';
  _id: number;
  deployment: string;
  by: string;
  started: string;
  finished: string;
  dryRun: boolean;
  result: 'dry-run' | 'complete' | 'failed';
  reason?: string;
  /** Per resource: added, changed, unchanged or kept; a dry run's answer also carries `before` / `after`. */
  changes: TargetChange[];
}

export function findDeployment(svc: Service, org: Org, nameOrId: string): StoredRecord | undefined {
  const def = svc.defs.byName(org.id, DEPLOYMENT_DEF.name);
  if (!def) return undefined;
  if (OBJECT_ID_PATTERN.test(nameOrId)) return svc.store.get(org.id, def, nameOrId);
  const where = parseWhereDocument({ name: nameOrId }, def);
  return svc.store.list(org.id, def, { ...(where ? { where } : {}), sort: [], skip: 0, limit: 1 }).rows[0];
}

/**
 * The caller must be an org administrator here, in the source (the run reads it for them) and in
 * the target (the run writes there as them); a token needs `deployment.execute.<_id>` (or
 * `.<name>`), which is enough by itself — for its account, whose rights are checked as above.
 */
export async function runDeployment(
  svc: Service,
  org: Org,
  caller: Caller,
  callerEmail: string,
  nameOrId: string,
  dryRun: boolean,
  host: DeploymentHost,
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
  const base = { deployment: record._id, by: callerEmail, started, dryRun };
  try {
    // Checked again as the caller: orgs and rights may have changed since the deployment was saved.
    checkDeployment(svc, org, record.doc);
    checkDeploymentSource(svc, org, record.doc, callerEmail);
    const source = svc.orgs.byCode(sourceCodeOf(org, record.doc))!;
    const docs = exportDocuments(svc, source, parseManifest(JSON.parse(String(record.doc.manifest))));
    const manifest = parseManifest(docs.find((d) => d.object === 'manifest'));
    const resources = docs.filter((d) => typeof d.resource === 'string') as ResourceDoc[];
    const changes = await deployToTarget(
      svc,
      { doc: record.doc, docs, resources, manifest, callerEmail, dryRun },
      host,
    );
    // The log keeps the diff (resource and change); the documents themselves come with a dry run's answer only.
    const run = logRun(svc, org, {
      ...base,
      result: dryRun ? 'dry-run' : 'complete',
      changes: changes.map((c) => ({ resource: c.resource, change: c.change })),
    });
    return dryRun ? { ...run, changes } : run;
  } catch (err) {
    const reason = err instanceof FaultError ? (err.fault.reason ?? err.fault.message) : (err as Error).message;
    logRun(svc, org, { ...base, result: 'failed', reason, changes: [] });
    throw err;
  }
}

function logRun(svc: Service, org: Org, run: Omit<DeploymentRun, 'object' | '_id' | 'finished'>): DeploymentRun {
  const finished = svc.nowIso();
  const info = svc.db
    .prepare(
      `INSERT INTO deployment_runs (org_id, deployment_id, by_email, started, finished, dry_run, result, reason, changes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      org.id,
      run.deployment,
      run.by,
      run.started,
      finished,
      run.dryRun ? 1 : 0,
      run.result,
      run.reason ?? null,
      JSON.stringify(run.changes),
    );
  return { object: 'deploymentRun', _id: Number(info.lastInsertRowid), finished, ...run };
}

interface RunRow {
  id: number;
  deployment_id: string;
  by_email: string;
  started: string;
  finished: string;
  dry_run: number;
  result: DeploymentRun['result'];
  reason: string | null;
  changes: string;
}

/** The runs of one deployment, newest first. */
export function deploymentRuns(svc: Service, org: Org, deploymentId: string, limit = 100): DeploymentRun[] {
  const rows = svc.db
    .prepare('SELECT * FROM deployment_runs WHERE org_id = ? AND deployment_id = ? ORDER BY id DESC LIMIT ?')
    .all(org.id, deploymentId, limit) as RunRow[];
  return rows.map((r) => ({
    object: 'deploymentRun',
    _id: r.id,
    deployment: r.deployment_id,
    by: r.by_email,
    started: r.started,
    finished: r.finished,
    dryRun: r.dry_run === 1,
    result: r.result,
    ...(r.reason ? { reason: r.reason } : {}),
    changes: JSON.parse(r.changes) as DeploymentRun['changes'],
  }));
}
