import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/api-error';
import { useConsoleClient } from '../api/client-context';
import { useAutoRetry } from './auto-retry';

/** A request failed because the service could not be reached at all. */
function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.errCode === 'console.network.unreachable';
}

/**
 * Shown while the service cannot be reached (issue 44 item 14): as soon as a request finds it
 * gone, a banner says so and the console asks the service again on its own, waiting longer each
 * time (auto-retry.ts). When it answers, everything that failed meanwhile is asked again and the
 * banner goes; "Try now" does not wait.
 */
export function ServiceLostBanner() {
  const queryClient = useQueryClient();
  const client = useConsoleClient();
  const [lost, setLost] = useState(false);

  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated') return;
        const { status, error } = event.query.state;
        if (status === 'error' && isUnreachable(error)) setLost(true);
      }),
    [queryClient],
  );

  const probe = async () => {
    try {
      await client.getServiceInfo();
    } catch {
      return;
    }
    setLost(false);
    await queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
  };
  const retry = useAutoRetry(lost, probe);
  if (!lost) return null;
  return (
    <div className="service-lost" role="status" data-testid="service-lost">
      <span className="spinner spinner--inline" aria-hidden="true" />
      <span>
        The service is not answering. Trying again on its own
        {retry.attempt > 0 ? ` (${retry.attempt} ${retry.attempt === 1 ? 'try' : 'tries'} so far)` : ''} in{' '}
        <span data-testid="service-lost-seconds">{retry.secondsLeft}</span> s…
      </span>
      <button
        type="button"
        className="button button--ghost button--small"
        data-testid="service-lost-now"
        onClick={() => void probe()}
      >
        Try now
      </button>
    </div>
  );
}
