/**
 * The deployment run log (table `deployment_runs`). Every run is logged in the org holding the
 * deployment; a run that read or wrote another org with that org's credential is logged there
 * too (docs/orgs-and-apps.md: "recorded in the other side's log"), with `from` saying which deployment of
 * which org ran, who ran it there, and by which credential — so an org sees every run that
 * reached it, and can revoke the credential it issued.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';

/** One resource's outcome in a target: added, changed, unchanged or kept (a dry run's answer adds the documents). */
export interface TargetChange {
  resource: string;
  change: string;
  before?: unknown;
  after?: unknown;
}

/** What the other side's log says about a run of a deployment held elsewhere. */
export interface PeerInfo {
  /** What the run did here: read this org (`source`) or wrote it (`target`). */
  side: 'source' | 'target';
  /** The org holding the deployment. */
  org: string;
  /** True when that org is in another data folder (a folder target). */
  otherFolder?: boolean;
  /** The deployment's name and `_id` there. */
  deployment: string;
  deploymentId: string;
  /** Who ran it there, as that org names its account (informational: not an identity here). */
  by: string;
  /** The credential this org issued that let the run in (`token <jti>`, `app <key>`, …). */
  credential: string;
}

export interface DeploymentRun {
  object: 'deploymentRun';
  _id: number;
  deployment: string;
  /** The org's own runs: the caller's email. Runs from elsewhere: the account the credential names here. */
  by: string;
  started: string;
  finished: string;
  dryRun: boolean;
  result: 'dry-run' | 'complete' | 'failed';
  reason?: string;
  /** Per resource: added, changed, unchanged or kept; a dry run's answer also carries `before` / `after`. */
  changes: TargetChange[];
  /** Runs of a deployment held by another org. */
  from?: PeerInfo;
}

export type NewRun = Omit<DeploymentRun, 'object' | '_id' | 'finished'>;

export function logRun(svc: Service, org: Org, run: NewRun): DeploymentRun {
  const finished = svc.nowIso();
  const info = svc.db
    .prepare(
      'INSERT INTO deployment_runs (org_id, deployment_id, by_email, started, finished, dry_run, result, reason, changes, peer) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
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
      run.from ? JSON.stringify(run.from) : null,
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
  peer: string | null;
}

/** The runs of one of the org's own deployments, newest first. */
export function deploymentRuns(svc: Service, org: Org, deploymentId: string, limit = 100): DeploymentRun[] {
  const rows = svc.db
    .prepare(
      'SELECT * FROM deployment_runs WHERE org_id = ? AND deployment_id = ? AND peer IS NULL ORDER BY id DESC LIMIT ?',
    )
    .all(org.id, deploymentId, limit) as RunRow[];
  return rows.map(toRun);
}

/** Runs of other orgs' deployments that read or wrote this org, newest first. */
export function peerRuns(svc: Service, org: Org, limit = 100): DeploymentRun[] {
  const rows = svc.db
    .prepare('SELECT * FROM deployment_runs WHERE org_id = ? AND peer IS NOT NULL ORDER BY id DESC LIMIT ?')
    .all(org.id, limit) as RunRow[];
  return rows.map(toRun);
}

function toRun(r: RunRow): DeploymentRun {
  return {
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
    ...(r.peer ? { from: JSON.parse(r.peer) as PeerInfo } : {}),
  };
}
