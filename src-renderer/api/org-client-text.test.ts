/** OrgClient.requestText: NDJSON answers and file bodies (environment export/import). */
import { describe, expect, it } from 'vitest';
import { makeFault } from '../../src-shared/faults';
import { ApiError } from './api-error';
import { OrgClient } from './org-client';

const ndjson = (text: string) =>
  new Response(text, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });

describe('OrgClient.requestText', () => {
  it('answers the text, sends the body as given with its content type and the CSRF token', async () => {
    const calls: RequestInit[] = [];
    const replies = [
      new Response('{}', { status: 200, headers: { 'Service-Csrf-Token': 'tok' } }),
      ndjson('{"object":"manifest.log","type":"status","stage":"ingest"}\n{"object":"fault","note":"a line"}\n'),
    ];
    const client = new OrgClient('demo', 'KEY', (_url, init) => {
      calls.push(init);
      return Promise.resolve(replies.shift()!);
    });
    await client.post('accounts/login', {});
    const seen: string[] = [];
    const text = await client.requestText('POST', 'developer/environment/import', {
      body: 'line\n',
      contentType: 'application/x-ndjson',
      query: { dryRun: 'true' },
      onProgress: (soFar) => seen.push(soFar),
    });
    // a stream that merely contains a fault-looking line is not one fault document
    expect(text.split('\n')).toHaveLength(3);
    expect(seen.at(-1)).toBe(text);
    const headers = calls[1]!.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/x-ndjson');
    expect(headers['Service-Csrf-Token']).toBe('tok');
    expect(calls[1]!.body).toBe('line\n');
  });

  it('throws the fault of a refused request, also when it comes with status 200', async () => {
    const fault = makeFault('validation', 'import', { reason: 'Nothing was imported: bad view' });
    const replies = [
      new Response(JSON.stringify(fault), { status: 400 }),
      new Response(JSON.stringify(fault), { status: 200 }),
    ];
    const client = new OrgClient('demo', 'KEY', () => Promise.resolve(replies.shift()!));
    for (let i = 0; i < 2; i++) {
      const error = await client.requestText('POST', 'developer/environment/import').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).fault.reason).toBe('Nothing was imported: bad view');
    }
  });
});
