import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, isRetryableFault, MAX_RETRY_MS, retryDelay } from './auto-retry';

const fault = (errCode: string, status: number) => ({
  object: 'fault' as const,
  name: 'error',
  code: 'k',
  errCode,
  status,
  message: '',
});

describe('auto retry', () => {
  it('waits one second, then twice as long each time, never more than thirty', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(retryDelay(-1)).toBe(FIRST_RETRY_MS);
    expect(retryDelay(1e9)).toBe(MAX_RETRY_MS);
  });

  it('retries what may change on its own (unreachable, 5xx), not refusals or a cancel', () => {
    expect(isRetryableFault(fault('console.network.unreachable', 0))).toBe(true);
    expect(isRetryableFault(fault('service.error', 503))).toBe(true);
    expect(isRetryableFault(fault('service.accessDenied', 403))).toBe(false);
    expect(isRetryableFault(fault('console.network.aborted', 0))).toBe(false);
    expect(isRetryableFault(fault('console.noOrg', 0))).toBe(false);
  });
});
