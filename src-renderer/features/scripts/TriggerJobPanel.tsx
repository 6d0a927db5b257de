import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import type { ScriptRecord } from '../../api/scripts';
import { jobKeys, jobsQuery, runJobNow } from '../../api/jobs';
import { faultOf } from '../../api/api-error';
import { FaultMessage } from '../../components/FaultMessage';
import { UtcTime } from '../../components/UtcTime';

/**
 * What the open script does when nobody calls it (issue 41): a trigger's object and event, a job's
 * schedule, next run and latest runs, and "Run now". Nothing for routes and libraries.
 */
export function TriggerJobPanel({ orgClient, script }: { orgClient: OrgClient; script: ScriptRecord }) {
  if (script.type === 'trigger') {
    const c = script.configuration ?? {};
    return (
      <section className="scripts__schedule" aria-label="Trigger" data-testid="trigger-panel">
        <h2 className="pane-title">Trigger</h2>
        <p className="keys-note">
          Runs on <code data-testid="trigger-event">{c.event ?? '?'}</code> of <code>{c.object ?? '?'}</code>
          {script.weight !== undefined ? `, weight ${script.weight}` : ''}
          {script.active === false ? ' — inactive' : ''}
          {c.principal ? `, as ${c.principal}` : ', as the writer'}.
        </p>
      </section>
    );
  }
  if (script.type === 'job') return <JobPanel orgClient={orgClient} script={script} />;
  return null;
}

function JobPanel({ orgClient, script }: { orgClient: OrgClient; script: ScriptRecord }) {
  const jobs = useQuery(jobsQuery(orgClient));
  const client = useQueryClient();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const job = jobs.data?.jobs.find((j) => j._id === script._id);
  const cap = jobs.data?.cap;
  const runNow = async () => {
    setRunning(true);
    setError(null);
    try {
      await runJobNow(orgClient, script._id);
    } catch (e) {
      setError(e);
    } finally {
      setRunning(false);
      void client.invalidateQueries({ queryKey: jobKeys.all(orgClient.org) });
    }
  };
  return (
    <section className="scripts__schedule" aria-label="Job" data-testid="job-panel">
      <h2 className="pane-title">Job</h2>
      {job ? (
        <>
          <p className="keys-note">
            <code data-testid="job-cron">{job.cron}</code> (UTC){job.active ? '' : ' — inactive'}
            {job.problem ? ` — ${job.problem}` : ''}
          </p>
          <p className="keys-note" data-testid="job-next">
            Next run: {job.nextRun ? <UtcTime iso={job.nextRun} /> : 'none'}
          </p>
          {cap && (
            <p className="keys-note" data-testid="job-cap">
              {/* The org's cap counts every job's runs, scheduled and by hand (docs/scripting.md#jobs). */}
              Job runs left for the org: {cap.runsLeft.toLocaleString('en')} of{' '}
              {cap.maxJobRunsPerDay.toLocaleString('en')} a day
            </p>
          )}
          {job.lastRuns.length > 0 && (
            <ul className="scripts__runs" data-testid="job-runs">
              {job.lastRuns.map((r) => (
                <li key={`${r.kind}-${r.started}`}>
                  <UtcTime iso={r.started} /> {r.kind === 'manual' ? '(by hand)' : ''}{' '}
                  {r.outcome === null ? 'running' : r.outcome === 'ok' ? 'ok' : `fault ${r.errCode ?? ''}`}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p className="keys-note">{jobs.isPending ? 'Loading the schedule…' : 'Save the job to see its schedule.'}</p>
      )}
      <button
        type="button"
        className="button button--secondary button--small"
        data-testid="job-run-now"
        disabled={running}
        onClick={() => void runNow()}
      >
        {running ? 'Running…' : 'Run now'}
      </button>
      {error !== null && <FaultMessage fault={faultOf(error)} compact />}
    </section>
  );
}
