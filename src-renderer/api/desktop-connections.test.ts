import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { hostOf, switchConnection } from './desktop-connections';

describe('switching the connection', () => {
  it('clears every cached answer of the old service and starts the console again', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['org', 'demo', 'accounts'], [{ _id: 'a' }]);
    const steps: string[] = [];
    const active = await switchConnection(
      queryClient,
      async () => {
        steps.push('activate');
        return { local: true, url: 'http://127.0.0.1:4100' };
      },
      () => steps.push(`reload with ${queryClient.getQueryCache().getAll().length} cached`),
    );
    expect(active).toEqual({ local: true, url: 'http://127.0.0.1:4100' });
    expect(steps).toEqual(['activate', 'reload with 0 cached']);
  });

  it('keeps the cache when main refuses the switch', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['x'], 1);
    let reloaded = false;
    await expect(
      switchConnection(
        queryClient,
        () => Promise.reject(new Error('no secret')),
        () => (reloaded = true),
      ),
    ).rejects.toThrow('no secret');
    expect(reloaded).toBe(false);
    expect(queryClient.getQueryData(['x'])).toBe(1);
  });

  it('shows the host of a URL', () => {
    expect(hostOf('http://10.0.0.5:7788')).toBe('10.0.0.5:7788');
  });
});
