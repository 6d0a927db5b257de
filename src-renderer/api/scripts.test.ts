import { describe, expect, it } from 'vitest';
import type { FetchLike } from './http';
import { OrgClient } from './org-client';
import { runScript, SCRIPT_LOG_HEADER } from './scripts';

const LOG_ID = 'a'.repeat(24);

function fakeFetch(responses: Response[]): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (url) => {
      urls.push(url);
      const next = responses.shift();
      return next ? Promise.resolve(next) : Promise.reject(new TypeError('Failed to fetch'));
    },
  };
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });

const run = (fetch: FetchLike) =>
  runScript(new OrgClient('demo', 'KEY', fetch), { script: 'return 1', arguments: {} }, new AbortController().signal);

describe('runScript', () => {
  it("reads a returned object's console output from the log entry Service-Script-Log names", async () => {
    const lines = [{ level: 'log', message: 'hi' }];
    const { fetch, urls } = fakeFetch([json({ a: 1 }, { [SCRIPT_LOG_HEADER]: LOG_ID }), json({ console: lines })]);
    const answer = await run(fetch);
    expect(answer).toMatchObject({ ok: true, value: { a: 1 }, logs: lines });
    expect(urls).toEqual(['/demo/v2/sys/script_runner', `/demo/v2/logs/${LOG_ID}`]);
  });

  it('takes the envelope logs when the answer carries them, and reads no entry', async () => {
    const lines = [{ level: 'warn', message: 'w' }];
    const { fetch, urls } = fakeFetch([
      json({ object: 'result', data: 1, logs: lines }, { [SCRIPT_LOG_HEADER]: LOG_ID }),
    ]);
    expect(await run(fetch)).toMatchObject({ ok: true, logs: lines });
    expect(urls).toHaveLength(1);
  });

  it('reads nothing for a header that is not a log _id, and shows no output when the entry is unreadable', async () => {
    const bad = fakeFetch([json({ a: 1 }, { [SCRIPT_LOG_HEADER]: '../accounts' })]);
    expect(await run(bad.fetch)).toMatchObject({ ok: true, logs: undefined });
    expect(bad.urls).toHaveLength(1);
    const gone = fakeFetch([json({ a: 1 }, { [SCRIPT_LOG_HEADER]: LOG_ID })]); // the GET fails
    expect(await run(gone.fetch)).toMatchObject({ ok: true, logs: undefined });
  });
});
