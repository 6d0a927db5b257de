import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { deploymentRunsQuery, deploymentsQuery } from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import { QueryState } from '../../components/QueryState';
import { UtcTime } from '../../components/UtcTime';
import { DeploymentDetail } from './DeploymentDetail';
import { ResultBadge, TargetText } from './deployment-badges';
import { NewDeploymentForm } from './NewDeploymentForm';
import { PeerRuns } from './PeerRuns';

interface DeploymentsPanelProps {
  orgClient: OrgClient;
  selectedId: string | undefined;
  onSelect: (id: string | undefined) => void;
}

/** Deployments: stored exports into another target; each listed with its last run, previewed, run, logged. */
export function DeploymentsPanel({ orgClient, selectedId, onSelect }: DeploymentsPanelProps) {
  const deployments = useQuery(deploymentsQuery(orgClient));
  const [creating, setCreating] = useState(false);
  const selected = deployments.data?.find((d) => d._id === selectedId);

  return (
    <>
      <div className="config-split">
        <section className="panel" aria-label="Deployments">
          <div className="form__actions">
            <p className="panel__title">Deployments</p>
            <button
              type="button"
              className="button button--secondary button--small"
              data-testid="deployment-new"
              onClick={() => setCreating(true)}
            >
              New deployment
            </button>
          </div>
          <QueryState
            query={deployments}
            loading="Loading deployments…"
            isEmpty={(data) => data.length === 0}
            emptyTestId="deployments-empty"
            empty={
              <p>
                No deployments yet: a deployment is a stored export (a manifest) that runs into another org, with a
                credential that org issued.
              </p>
            }
          >
            {(data) => (
              <table className="config-table" data-testid="deployments-table">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Target</th>
                    <th>Last run</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((d) => (
                    <tr
                      key={d._id}
                      aria-selected={d._id === selectedId}
                      data-testid="deployment-row"
                      data-name={d.name}
                    >
                      <td>
                        <button type="button" className="row-link" onClick={() => onSelect(d._id)}>
                          {d.label || d.name}
                        </button>
                      </td>
                      <td>
                        <TargetText deployment={d} />
                      </td>
                      <td>
                        <LastRun orgClient={orgClient} id={d._id} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </QueryState>
          {creating && (
            <NewDeploymentForm
              orgClient={orgClient}
              onDone={(created) => {
                setCreating(false);
                if (created) onSelect(created._id);
              }}
            />
          )}
        </section>
        {selected ? (
          <DeploymentDetail key={selected._id} orgClient={orgClient} deployment={selected} />
        ) : (
          <div className="empty-state">
            <p className="empty-state__title">Pick a deployment</p>
            <p>See its manifest, preview the diff, run it and read its log.</p>
          </div>
        )}
      </div>
      <PeerRuns orgClient={orgClient} />
    </>
  );
}

function LastRun({ orgClient, id }: { orgClient: OrgClient; id: string }) {
  const runs = useQuery(deploymentRunsQuery(orgClient, id));
  const last = runs.data?.[0];
  if (runs.isPending) return <span className="note">…</span>;
  if (!last) return <span className="note">never</span>;
  return (
    <span data-testid="deployment-last-run">
      <ResultBadge run={last} /> <UtcTime iso={last.finished} />
    </span>
  );
}
