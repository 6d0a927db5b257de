import type { FaultBody } from '../../src-shared/faults';
import { AuthLayout } from '../components/AuthLayout';
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

/** The start-up request failed; the console cannot go on until it succeeds. */
export function BootFailure({ title, fault, onRetry }: { title: string; fault: FaultBody; onRetry: () => void }) {
  return (
    <AuthLayout title={title}>
      <FaultMessage fault={fault} onRetry={onRetry} />
    </AuthLayout>
  );
}
