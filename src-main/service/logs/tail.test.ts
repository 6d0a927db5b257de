/**
 * `sys.tail` (mdctl `tail`): what scripts log from now on, streamed as NDJSON by the runner until
 * the client goes away; entries from before the tail started are not replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { firstNdjsonLines } from '../testing/ndjson-stream.js';
import { followLogs, tailDocuments, tailSource } from './tail.js';

let h: Harness;
let admin: TestClient;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
}, 60_000);
afterAll(async () => h.close());

const run = (script: string) => admin.post('/sys/script_runner', { script });
/** What mdctl's tail posts (its tasks/tail.js), with Accept: application/x-ndjson. */
const TAIL_SCRIPT = "return sys.tail('console')";

describe('tail documents', () => {
  it('are the console lines of a run, then one error line for a failed run', () => {
    const doc = {
      end: '2026-01-15T12:00:00.000Z',
      sid: 'a'.repeat(24),
      stp: 'trigger',
      console: [{ level: 'log', message: 'one' }],
      err: { errCode: 'service.validation.trigger', message: 'no x' },
      trc: [{ function: 'main', line: 4 }],
    };
    expect(tailDocuments('console', 'b'.repeat(24), doc)).toEqual([
      {
        object: 'console',
        date: doc.end,
        level: 'log',
        message: 'one',
        sid: doc.sid,
        stp: 'trigger',
        label: undefined,
        log: 'b'.repeat(24),
      },
      {
        object: 'console',
        date: doc.end,
        level: 'error',
        message: 'service.validation.trigger: no x (line 4)',
        sid: doc.sid,
        stp: 'trigger',
        label: undefined,
        log: 'b'.repeat(24),
      },
    ]);
    expect(tailDocuments('logs', 'c'.repeat(24), { lvl: 'info' })).toEqual([
      { _id: 'c'.repeat(24), object: 'log', lvl: 'info' },
    ]);
  });

  it('come from console or logs only', () => {
    expect(tailSource(undefined)).toBe('console');
    expect(() => tailSource('syslog')).toThrow(/sys.tail takes 'console' or 'logs'/);
  });
});

describe('followLogs', () => {
  it('follows new runs only, in order, until aborted', async () => {
    await run('console.log("before the tail")');
    const org = h.svc.orgs.byCode('demo')!;
    const aborted = new AbortController();
    const tail = followLogs(h.svc, org, { source: 'console', signal: aborted.signal, pollMs: 20 });
    const first = tail.next();
    await run('console.log("one"); console.log("two")');
    await run('console.info("three")');
    const seen = [(await first).value, (await tail.next()).value, (await tail.next()).value];
    expect(seen.map((d) => d?.message)).toEqual(['one', 'two', 'three']);
    aborted.abort();
    expect((await tail.next()).done).toBe(true);
  });
});

describe('the runner streams a returned tail', () => {
  it('as NDJSON lines while scripts log, until the client disconnects', async () => {
    // The tail's own run is logged before it streams; what follows is what the next runs print.
    const { status, contentType, lines } = await firstNdjsonLines(
      h,
      admin,
      '/sys/script_runner',
      { script: TAIL_SCRIPT },
      { count: 2, poke: async (i) => void (await run(`console.log("streamed ${i}")`)) },
    );
    expect(status).toBe(200);
    expect(contentType).toContain('application/x-ndjson');
    expect(lines[0]).toMatchObject({ object: 'console', level: 'log', stp: 'runner' });
    expect(String(lines[0]!.message)).toMatch(/^streamed \d+$/);
  });

  it('needs NDJSON: a plain request is told how to ask', async () => {
    const res = await run(TAIL_SCRIPT);
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.tail' });
  });
});
