import type { FaultBody } from '../../src-shared/faults';
import { AuthLayout } from '../components/AuthLayout';
import { isRetryableFault, useAutoRetry } from '../components/auto-retry';
import { FaultMessage } from '../components/FaultMessage';

/** Shown until the first answers arrive; deliberately without the `app-ready` marker. */
export function BootSplash({ label }: { label: string }) {
  return (
    <div className="boot-splash" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/**
 * The start-up request failed; the console cannot go on until it succeeds. When the service may
 * come back (unreachable, a 5xx), it is asked again on its own with a growing wait (issue 44
 * item 14); "Try again" does not wait.
 */
export function BootFailure({ title, fault, onRetry }: { title: string; fault: FaultBody; onRetry: () => unknown }) {
  const retryable = isRetryableFault(fault);
  const retry = useAutoRetry(retryable, async () => {
    await onRetry();
  });
  return (
    <AuthLayout title={title}>
      <FaultMessage fault={fault} onRetry={() => void onRetry()} />
      {retryable && (
        <p className="status-line" role="status" data-testid="boot-retry">
          <span className="spinner spinner--inline" aria-hidden="true" /> Trying again on its own in {retry.secondsLeft}{' '}
          s{retry.attempt > 0 ? ` (${retry.attempt} ${retry.attempt === 1 ? 'try' : 'tries'} so far)` : ''}…
        </p>
      )}
    </AuthLayout>
  );
}
