import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { faultOf } from '../api/api-error';
import { FaultMessage } from './FaultMessage';

interface QueryStateProps<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError' | 'refetch'>;
  /** "Loading applications…" */
  loading: string;
  /** Shown instead of `children` when `isEmpty(data)` holds. */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  /** `data-testid` of the empty state. */
  emptyTestId?: string;
  compact?: boolean;
  children: (data: T) => ReactNode;
}

/**
 * The three states every list and detail goes through before its content: a spinner while the
 * first answer is on its way, the service's fault (with "Try again") when it failed, and an empty
 * state when the answer holds nothing. Content renders only with data in hand.
 */
export function QueryState<T>({ query, loading, empty, isEmpty, emptyTestId, compact, children }: QueryStateProps<T>) {
  if (query.isError) {
    return <FaultMessage fault={faultOf(query.error)} compact={compact} onRetry={() => void query.refetch()} />;
  }
  if (query.isPending || query.data === undefined) {
    return (
      <p className="status-line" role="status">
        <span className="spinner" aria-hidden="true" /> {loading}
      </p>
    );
  }
  if (empty !== undefined && isEmpty?.(query.data)) {
    return (
      <div className="empty-state" data-testid={emptyTestId}>
        {empty}
      </div>
    );
  }
  return <>{children(query.data)}</>;
}
