import { deploymentTarget, type DeploymentRecord, type DeploymentRun } from '../../api/environment';

/** Where a deployment writes: one chip per target kind, or a dash. */
export function TargetText({ deployment }: { deployment: DeploymentRecord }) {
  const target = deploymentTarget(deployment);
  if (target.length === 0) return <span className="note">—</span>;
  return (
    <span data-testid="deployment-target">
      {target.map((t) => (
        <span key={t.kind} className="view-chip">
          {t.kind}: {t.value}
        </span>
      ))}
    </span>
  );
}

/** A run's result (complete, failed, …) as a coloured badge. */
export function ResultBadge({ run }: { run: DeploymentRun }) {
  const cls = run.result === 'complete' ? 'badge--ok' : run.result === 'failed' ? 'badge--warn' : 'badge--muted';
  return <span className={`badge ${cls}`}>{run.result}</span>;
}
