import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { faultOf } from '../../api/api-error';
import {
  createDeployment,
  deploymentKeys,
  deploymentRunsQuery,
  deploymentsQuery,
  deploymentTarget,
  orgsQuery,
  runDeployment,
  type DeploymentRecord,
  type DeploymentRun,
} from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { QueryState } from '../../components/QueryState';
import { UtcTime } from '../../components/UtcTime';
import { ChangeCounts } from './ChangeReview';

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
          empty={<p>No deployments yet: a deployment is a stored export (a manifest) that runs into another org.</p>}
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
                  <tr key={d._id} aria-selected={d._id === selectedId} data-testid="deployment-row" data-name={d.name}>
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
  );
}

function TargetText({ deployment }: { deployment: DeploymentRecord }) {
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

function ResultBadge({ run }: { run: DeploymentRun }) {
  const cls = run.result === 'complete' ? 'badge--ok' : run.result === 'failed' ? 'badge--warn' : 'badge--muted';
  return <span className={`badge ${cls}`}>{run.result}</span>;
}

function DeploymentDetail({ orgClient, deployment }: { orgClient: OrgClient; deployment: DeploymentRecord }) {
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
          <ChangeCounts changes={preview.changes} />
          <ul className="config-changes">
            {preview.changes
              .filter((c) => c.change !== 'unchanged')
              .map((c) => (
                <li key={c.resource} className="config-change" data-testid="deployment-change" data-change={c.change}>
                  <span className={`badge change--${c.change}`}>{c.change}</span>
                  <code>{c.resource}</code>
                </li>
              ))}
          </ul>
        </div>
      )}
      <p className="panel__heading">Run log</p>
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
    </section>
  );
}

function NewDeploymentForm({
  orgClient,
  onDone,
}: {
  orgClient: OrgClient;
  onDone: (created: DeploymentRecord | null) => void;
}) {
  const queryClient = useQueryClient();
  const orgs = useQuery(orgsQuery(orgClient));
  const [name, setName] = useState('');
  const [targetOrg, setTargetOrg] = useState('');
  const [manifest, setManifest] = useState('{\n  "includes": ["*"]\n}');
  const create = useMutation({
    mutationFn: () => createDeployment(orgClient, { name: name.trim(), targetOrg, manifest }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: deploymentKeys.all(orgClient.org) });
      onDone(created);
    },
  });
  const others = (orgs.data ?? []).filter((o) => o.code !== orgClient.org);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel__section" data-testid="deployment-form" onSubmit={submit}>
      <p className="panel__heading">New deployment</p>
      <div className="form-grid">
        <label className="field">
          <span className="field__label">Name</span>
          <input
            className="input input--mono"
            data-testid="deployment-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">Target org</span>
          <select
            className="select"
            data-testid="deployment-target-org"
            value={targetOrg}
            onChange={(e) => setTargetOrg(e.target.value)}
          >
            <option value="">{orgs.isPending ? 'Loading…' : 'Choose…'}</option>
            {others.map((o) => (
              <option key={o.code} value={o.code}>
                {o.name} ({o.code})
              </option>
            ))}
          </select>
        </label>
        <label className="field field--wide">
          <span className="field__label">Manifest (JSON, as on the Export tab)</span>
          <textarea
            className="input input--mono"
            data-testid="deployment-manifest"
            spellCheck={false}
            value={manifest}
            onChange={(e) => setManifest(e.target.value)}
          />
        </label>
      </div>
      {orgs.isError && <FaultMessage fault={faultOf(orgs.error)} compact />}
      {create.isError && <FaultMessage fault={faultOf(create.error)} compact />}
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          data-testid="deployment-create"
          disabled={create.isPending}
        >
          Create
        </button>
        <button type="button" className="button button--ghost" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
