import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { faultOf } from '../../api/api-error';
import { cancelDemoJob, getDemoJob, startDemoJob, type DemoJob } from '../../api/demo-data';
import type { OrgClient } from '../../api/org-client';
import { queryKeys } from '../../api/query-keys';
import { FaultMessage } from '../../components/FaultMessage';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { DemoDataRoute, Route } from '../../routing/route';
import { Field, FieldError } from '../../components/Field';
import { MAX_SEED_ACCOUNTS } from '../../../src-shared/contracts/demo-data';

/** The service's cap (one constant for both sides). */
const MAX_ACCOUNTS = MAX_SEED_ACCOUNTS;

interface DemoDataScreenProps {
  orgClient: OrgClient;
  route: DemoDataRoute;
  navigate: (route: Route) => void;
}

/** Seeds N demo accounts through the jobs API and follows the job's progress. */
export function DemoDataScreen({ orgClient, route, navigate }: DemoDataScreenProps) {
  const queryClient = useQueryClient();
  const [countText, setCountText] = useState('1000');
  const [seedText, setSeedText] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const count = /^\d{1,7}$/.test(countText.trim().replace(/[,_\s]/g, ''))
    ? Number(countText.replace(/[,_\s]/g, ''))
    : NaN;
  const countValid = count >= 1 && count <= MAX_ACCOUNTS;
  const seed = seedText.trim() === '' ? undefined : Number(seedText);
  const seedValid = seed === undefined || Number.isSafeInteger(seed);

  const start = useMutation({
    mutationFn: () => startDemoJob(orgClient, count, seed),
    onSuccess: (job) => {
      queryClient.setQueryData(queryKeys.demoJob(orgClient.org, job.id), job);
      setJobId(job.id);
    },
  });
  const job = useQuery({
    queryKey: queryKeys.demoJob(orgClient.org, jobId ?? ''),
    queryFn: ({ signal }) => getDemoJob(orgClient, jobId ?? '', signal),
    enabled: jobId !== null,
    // Poll while the job runs; stop once it has finished, failed or been cancelled.
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 500 : false),
    staleTime: 0,
  });
  const cancel = useMutation({
    mutationFn: () => cancelDemoJob(orgClient, jobId ?? ''),
    onSettled: () => job.refetch(),
  });
  const running = job.data?.state === 'running';
  const finished = job.data !== undefined && job.data.state !== 'running';
  useEffect(() => {
    if (!finished) return;
    // New accounts exist now: cached account lists are stale.
    void queryClient.invalidateQueries({ queryKey: queryKeys.collection(orgClient.org, 'accounts') });
    void queryClient.invalidateQueries({ queryKey: queryKeys.accounts(orgClient.org) });
  }, [finished, queryClient, orgClient.org]);

  return (
    <section className="screen" aria-labelledby="demo-title">
      <ScreenHeader
        title="Demo data"
        titleId="demo-title"
        description={
          <>
            Seed accounts with realistic names, emails, enrollments and study groups:{' '}
            <code>POST /{orgClient.org}/v2/demo-data/jobs</code>
          </>
        }
      />
      <form
        className="panel panel--narrow"
        onSubmit={(e) => {
          e.preventDefault();
          if (countValid && seedValid && !running) start.mutate();
        }}
      >
        <div className="prop-row">
          <Field
            label="Accounts to create"
            error={countValid ? undefined : `Enter a whole number from 1 to ${MAX_ACCOUNTS.toLocaleString('en')}.`}
          >
            <input
              className={countValid ? 'input input--mono' : 'input input--mono input--invalid'}
              inputMode="numeric"
              data-testid="seed-count"
              value={countText}
              aria-invalid={!countValid || undefined}
              onChange={(e) => setCountText(e.target.value)}
            />
          </Field>
          <Field label="Random seed (optional)">
            <input
              className={seedValid ? 'input input--mono' : 'input input--mono input--invalid'}
              inputMode="numeric"
              data-testid="seed-seed"
              value={seedText}
              placeholder="same seed, same data"
              onChange={(e) => setSeedText(e.target.value)}
            />
          </Field>
        </div>
        <div className="form__actions">
          <button
            type="submit"
            className="button button--primary"
            data-testid="seed-start"
            disabled={!countValid || !seedValid || running || start.isPending}
          >
            {start.isPending ? 'Starting…' : 'Seed accounts'}
          </button>
          {running && (
            <button
              type="button"
              className="button button--secondary"
              data-testid="seed-cancel"
              onClick={() => cancel.mutate()}
              disabled={cancel.isPending}
            >
              Cancel
            </button>
          )}
        </div>
        {start.isError && <FaultMessage fault={faultOf(start.error)} onRetry={() => start.mutate()} compact />}
        {job.isError && <FaultMessage fault={faultOf(job.error)} onRetry={() => void job.refetch()} compact />}
        {cancel.isError && <FaultMessage fault={faultOf(cancel.error)} compact />}
        {job.data && <JobProgress job={job.data} />}
        {job.data?.state === 'done' && (
          <button
            type="button"
            className="button button--link"
            onClick={() =>
              navigate({
                screen: 'browse',
                collection: 'accounts',
                paths: [],
                limit: 100,
                skip: 0,
                view: 'table',
                org: route.org,
              })
            }
          >
            Browse the accounts
          </button>
        )}
      </form>
    </section>
  );
}

const STATE_WORDS: Record<DemoJob['state'], string> = {
  running: 'Seeding…',
  done: 'Done.',
  failed: 'Failed.',
  cancelled: 'Cancelled.',
};

function JobProgress({ job }: { job: DemoJob }) {
  const percent = job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;
  // After the last record the service rebuilds the indexes it dropped for the bulk load: a phase
  // of its own, so a bar at 100 % that keeps "running" says what it is doing.
  const indexing = job.state === 'running' && job.phase === 'indexing';
  return (
    <div className="job" data-testid="seed-progress" data-state={job.state} role="status" aria-live="polite">
      {indexing ? (
        <progress aria-label="Rebuilding indexes" data-testid="seed-indexing" />
      ) : (
        <progress max={job.total || 1} value={job.done} aria-label="Seeding progress" />
      )}
      <p>
        <strong data-testid="seed-state">{indexing ? 'Rebuilding indexes…' : STATE_WORDS[job.state]}</strong>{' '}
        {job.done.toLocaleString('en')} of {job.total.toLocaleString('en')} accounts written ({percent}%)
        {indexing && ' · the new accounts are searchable when the indexes are built'}
      </p>
      {job.error && <FieldError>{job.error}</FieldError>}
    </div>
  );
}
