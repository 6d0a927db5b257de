import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import {
  deploymentKeys,
  deploymentRunsQuery,
  runDeployment,
  type DeploymentRecord,
  type DeploymentRun,
  type ResourceChange,
} from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { UtcTime } from '../../components/UtcTime';
import { ChangeCounts, ChangeReview } from './ChangeReview';
import { ResultBadge, TargetText } from './deployment-badges';

/** One deployment: its manifest, a preview (dry run) or a confirmed run, and its run log. */
export function DeploymentDetail({ orgClient, deployment }: { orgClient: OrgClient; deployment: DeploymentRecord }) {
  const queryClient = useQueryClient();
  const runs = useQuery(deploymentRunsQuery(orgClient, deployment._id));
  const run = useMutation({
    mutationFn: (dryRun: boolean) => runDeployment(orgClient, deployment._id, dryRun),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deploymentKeys.runs(orgClient.org, deployment._id) }),
  });
  const [confirm, setConfirm] = useState(false);
  let manifestText = deployment.manifest;
  try {
    manifestText = JSON.stringify(JSON.parse(deployment.manifest), null, 2);
  } catch {
    // shown as stored
  }
  const preview = run.data;

  return (
    <section className="panel" aria-label={`Deployment ${deployment.name}`} data-testid="deployment-detail">
      <p className="panel__title">{deployment.label || deployment.name}</p>
      <p className="note">
        From <code>{deployment.sourceOrg ?? orgClient.org}</code> to <TargetText deployment={deployment} />
      </p>
      <pre className="config-json" tabIndex={0} aria-label="Deployment manifest JSON">
        {manifestText}
      </pre>
      <div className="form__actions">
        <button
          type="button"
          className="button button--secondary"
          data-testid="deployment-preview"
          disabled={run.isPending}
          onClick={() => {
            setConfirm(false);
            run.mutate(true);
          }}
        >
          Preview diff
        </button>
        {!confirm ? (
          <button
            type="button"
            className="button button--primary"
            data-testid="deployment-run"
            disabled={run.isPending}
            onClick={() => setConfirm(true)}
          >
            Run…
          </button>
        ) : (
          <span className="confirm" role="alertdialog" aria-label="Confirm the run">
            Write these changes into the target?
            <button
              type="button"
              className="button button--danger button--small"
              data-testid="deployment-run-confirm"
              onClick={() => {
                setConfirm(false);
                run.mutate(false);
              }}
            >
              Run
            </button>
            <button type="button" className="button button--ghost button--small" onClick={() => setConfirm(false)}>
              Cancel
            </button>
          </span>
        )}
      </div>
      {run.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Working…
        </p>
      )}
      {run.isError && <FaultMessage fault={faultOf(run.error)} compact />}
      {preview && (
        <div className="config-result" data-testid="deployment-result" data-result={preview.result}>
          <p className="panel__heading">
            {preview.dryRun ? 'Preview (nothing written)' : 'Run'}: <ResultBadge run={preview} />
          </p>
          {preview.dryRun ? (
            // Each changed resource side by side: the target's document now, and the source's.
            <ChangeReview
              changes={preview.changes as ResourceChange[]}
              sides={{
                before: `Target ${String(deployment.targetOrg ?? '')} now`,
                after: `From ${deployment.sourceOrg ?? orgClient.org}`,
              }}
            />
          ) : (
            <>
              <ChangeCounts changes={preview.changes} />
              <ul className="config-changes">
                {preview.changes
                  .filter((c) => c.change !== 'unchanged')
                  .map((c) => (
                    <li
                      key={c.resource}
                      className="config-change"
                      data-testid="deployment-change"
                      data-change={c.change}
                    >
                      <span className={`badge change--${c.change}`}>{c.change}</span>
                      <code>{c.resource}</code>
                    </li>
                  ))}
              </ul>
            </>
          )}
        </div>
      )}
      <p className="panel__heading">Run log</p>
      <RunLog runs={runs} />
    </section>
  );
}

/** Every run of a deployment, newest first: when, by whom, result and change counts. */
function RunLog({ runs }: { runs: UseQueryResult<DeploymentRun[]> }) {
  return (
    <>
      {runs.isError && <FaultMessage fault={faultOf(runs.error)} compact />}
      {runs.data && runs.data.length === 0 && <p className="note">Never run.</p>}
      {runs.data && runs.data.length > 0 && (
        <table className="config-table" data-testid="deployment-runs">
          <thead>
            <tr>
              <th>When</th>
              <th>By</th>
              <th>Result</th>
              <th>Changes</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.map((r) => (
              <tr key={r._id} data-testid="deployment-run-row" data-result={r.result}>
                <td>
                  <UtcTime iso={r.started} seconds />
                </td>
                <td>{r.by}</td>
                <td>
                  <ResultBadge run={r} />
                  {r.reason && <div className="note">{r.reason}</div>}
                </td>
                <td>
                  {['added', 'changed', 'kept']
                    .map((k) => `${r.changes.filter((c) => c.change === k).length} ${k}`)
                    .join(' · ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
