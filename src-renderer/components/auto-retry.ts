/**
 * Retrying on its own after the service is lost (issue 44 item 14): the wait before each attempt
 * doubles from one second up to thirty, so a service that is back is found within seconds and a
 * service that stays away is asked about twice a minute, not hammered.
 */
import { useEffect, useRef, useState } from 'react';
import type { FaultBody } from '../../src-shared/faults';

export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 30_000;

/** The wait before attempt `attempt` (0 for the first). */
export function retryDelay(attempt: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(attempt, 20)));
}

/** A fault that may change on its own: the service unreachable, or a 5xx. A 4xx will not. */
export function isRetryableFault(fault: FaultBody): boolean {
  if (fault.errCode === 'console.network.aborted') return false;
  return fault.errCode === 'console.network.unreachable' || fault.status >= 500;
}

export interface RetryState {
  /** Attempts made so far. */
  attempt: number;
  /** Whole seconds until the next one. */
  secondsLeft: number;
}

/**
 * While `active`, calls `retry` after each backoff wait (the next wait starts when `retry`'s
 * promise settles) and counts the seconds down for the words on screen. Inactive: nothing runs.
 */
export function useAutoRetry(active: boolean, retry: () => Promise<unknown>): RetryState {
  const [state, setState] = useState<RetryState>({ attempt: 0, secondsLeft: Math.ceil(retryDelay(0) / 1000) });
  const latest = useRef(retry);
  useEffect(() => {
    latest.current = retry;
  });
  useEffect(() => {
    if (!active) return;
    let attempt = 0;
    let stopped = false;
    let due = Date.now() + retryDelay(0);
    const tick = setInterval(() => {
      if (stopped) return;
      const left = due - Date.now();
      if (left > 0) {
        setState({ attempt, secondsLeft: Math.ceil(left / 1000) });
        return;
      }
      due = Infinity; // no second attempt while this one is on its way
      void latest.current().finally(() => {
        if (stopped) return;
        attempt += 1;
        due = Date.now() + retryDelay(attempt);
        setState({ attempt, secondsLeft: Math.ceil(retryDelay(attempt) / 1000) });
      });
    }, 250);
    return () => {
      stopped = true;
      clearInterval(tick);
      // The next time the service is lost, the count starts again.
      setState({ attempt: 0, secondsLeft: Math.ceil(retryDelay(0) / 1000) });
    };
  }, [active]);
  return state;
}
