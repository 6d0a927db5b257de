/**
 * Issue 41, logs: every script run leaves one bounded entry that administrators read at `GET /logs`
 * with the list arguments; nobody writes or removes one; entries go after the org's retention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';
import { boundedConsole, logDocument, MAX_LOG_CONSOLE_CHARS, traceFrames } from './run-log.js';
import { pruneServiceRecords } from './retention.js';
import { DAY_MS, pruneOnce } from '../housekeeping.js';

let h: Harness;
let admin: TestClient;
let adminId: string;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
}, 60_000);
afterAll(async () => h.close());

const run = (script: string) => admin.post('/sys/script_runner', { script });
async function logs(where: unknown = {}, extra: Record<string, unknown> = {}) {
  const res = await admin.get(`/logs?${listQuery({ where, sort: { _id: -1 }, ...extra })}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Record<string, unknown>[];
}

const STATS = { elapsedMs: 3.4, operations: 2, bytesIn: 10, bytesOut: 20, memoryPeakBytes: 30 };

describe('a log entry (unit)', () => {
  it('keeps at most 100 console lines, 1,000 characters a line and 32 KiB in all, and says when it cut', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ level: 'log', message: `line ${i}` }));
    expect(boundedConsole(many).kept).toHaveLength(100);
    expect(boundedConsole(many).truncated).toBe(true);
    const long = boundedConsole([{ level: 'warn', message: 'x'.repeat(5000) }]);
    expect((long.kept[0] as { message: string }).message).toHaveLength(1000);
    expect(long.truncated).toBe(true);
    const wide = boundedConsole(Array.from({ length: 60 }, () => ({ level: 'log', message: 'y'.repeat(999) })));
    const chars = wide.kept.reduce<number>((n, l) => n + (l as { message: string }).message.length, 0);
    expect(chars).toBeLessThanOrEqual(MAX_LOG_CONSOLE_CHARS);
    expect(wide.truncated).toBe(true);
    expect(boundedConsole([{ level: 'info', message: 'short' }])).toEqual({
      kept: [{ level: 'info', message: 'short' }],
      truncated: false,
    });
  });

  it('reads the trace into frames with their lines', () => {
    expect(traceFrames('Error: no\n\tcheck Script:3\n\tmain Script:8')).toEqual([
      { function: 'check', line: 3 },
      { function: 'main', line: 8 },
    ]);
    expect(traceFrames(undefined)).toEqual([]);
  });

  it('says what the run was: a fault with its trace, or a short result', () => {
    const failed = logDocument({ type: 'trigger', scriptId: 'a'.repeat(24), event: 'create.before' }, 1000, 1005, {
      ok: false,
      fault: {
        errCode: 'service.invalidArgument.script',
        code: 'kInvalidArgument',
        status: 400,
        message: 'no',
        trace: 'Error: no\n\tmain Script:2',
      },
      logs: [],
      stats: STATS,
    });
    expect(failed).toMatchObject({
      lvl: 'error',
      sts: 400,
      stp: 'trigger',
      sid: 'a'.repeat(24),
      ms: 3,
      err: { errCode: 'service.invalidArgument.script', status: 400 },
      trc: [{ function: 'main', line: 2 }],
      dat: { event: 'create.before' },
    });
    const ok = logDocument({ type: 'runner' }, 0, 0, { ok: true, value: 'z'.repeat(5000), logs: [], stats: STATS });
    expect(ok).toMatchObject({ lvl: 'info', sts: 200, stp: 'runner' });
    expect(((ok.dat as { result: string }).result as string).length).toBe(1000);
    expect(ok.err).toBeUndefined();
  });
});

describe('GET /logs', () => {
  it('shows a runner run: who ran it, its result and what it printed', async () => {
    expect((await run('console.log("hello", 1); console.warn("careful"); return {n: 42}')).statusCode).toBe(200);
    const [entry] = await logs({ stp: 'runner' }, { limit: 1 });
    expect(entry).toMatchObject({
      object: 'log',
      stp: 'runner',
      lvl: 'info',
      sts: 200,
      pid: adminId,
      src: 'script',
      console: [
        { level: 'log', message: 'hello 1' },
        { level: 'warn', message: 'careful' },
      ],
      dat: { result: '{"n":42}' },
    });
    expect(entry!.beg).toBe('2026-01-15T12:00:00.000Z');
  });

  it('shows a failed run with its fault and the line it failed at', async () => {
    const res = await run('var a = 1;\nthrow new Error("broken on two")');
    expect(res.json().object).toBe('fault');
    const [entry] = await logs({ lvl: 'error' }, { limit: 1 });
    expect(entry).toMatchObject({
      lvl: 'error',
      sts: 400,
      err: { errCode: 'service.invalidArgument.script', message: 'Error: broken on two' },
      trc: [{ function: 'main', line: 2 }],
    });
  });

  it('shows a route run with its script, as the route principal for the caller who asked', async () => {
    const bobId = await createUser(admin, 'bob@example.test');
    const made = await admin.post('/scripts', {
      label: 'hello route',
      type: 'route',
      active: true,
      script: 'console.info("routed"); return script.principal._id',
      configuration: { method: 'get', path: '/hello', acl: ['account.public'], principal: adminId },
    });
    expect(made.statusCode, made.body).toBe(200);
    const bob = new TestClient(h);
    await bob.login('bob@example.test', USER_PASSWORD);
    expect((await bob.get('/routes/hello')).json()).toMatchObject({ data: adminId });
    const [entry] = await logs({ sid: made.json()._id }, { limit: 1 });
    expect(entry).toMatchObject({ stp: 'route', pid: adminId, oid: bobId, dat: { path: 'get /hello' } });
  });

  it("leaves the caches warm: writing a run's entry does not move the data version they follow", async () => {
    const made = await admin.post('/scripts', {
      label: 'warm route',
      type: 'route',
      active: true,
      script: 'console.log("warm"); return 1',
      configuration: { method: 'get', path: '/warm', acl: ['account.public'] },
    });
    expect(made.statusCode, made.body).toBe(200);
    await admin.get('/routes/warm'); // the first run may create what later ones find
    const version = h.svc.versions.current();
    expect((await admin.get('/routes/warm')).json()).toMatchObject({ data: 1 });
    expect((await run('console.log("warm"); return 2')).json()).toMatchObject({ data: 2 });
    expect(h.svc.versions.current()).toBe(version);
    expect(await logs({ sid: made.json()._id })).toHaveLength(2);
  });

  it('filters, sorts, pages and picks paths like any list', async () => {
    for (let i = 0; i < 3; i++) await run(`return ${i}`);
    const page = await admin.get(
      `/logs?${listQuery({ where: { stp: 'runner', lvl: 'info' }, sort: { _id: -1 }, limit: 2, paths: ['stp', 'dat'] })}`,
    );
    expect(page.json()).toMatchObject({ object: 'list', hasMore: true });
    const data = page.json().data as Record<string, unknown>[];
    expect(data.map((d) => (d.dat as { result: string }).result)).toEqual(['2', '1']);
    expect(data[0]!.console).toBeUndefined();
  });

  it('is for administrators only, and nobody writes, changes or removes an entry', async () => {
    await createUser(admin, 'carol@example.test');
    const carol = new TestClient(h);
    await carol.login('carol@example.test', USER_PASSWORD);
    expect((await carol.get('/logs')).json().data).toEqual([]);
    const [entry] = await logs({}, { limit: 1 });
    const id = entry!._id as string;
    for (const res of [
      await admin.post('/logs', { lvl: 'info' }),
      await admin.patch(`/logs/${id}`, { lvl: 'error' }),
      await admin.delete(`/logs/${id}`),
      await admin.post('/logs/db/deleteOne', { match: { _id: id } }),
      await run(`return org.objects.logs.deleteOne({_id: '${id}'}).execute()`),
    ]) {
      expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.accessDenied.serviceWritten' });
    }
    expect((await admin.get(`/logs/${id}`)).json()).toMatchObject({ _id: id, lvl: entry!.lvl });
  });
});

describe('retention', () => {
  it('keeps an entry for logRetentionDays and not a millisecond more', async () => {
    h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { logRetentionDays: 2 });
    const org = h.svc.orgs.byCode('demo')!;
    const count = () => h.svc.store.count(org.id, h.svc.defs.byName(org.id, 'log')!);
    const older = count();
    h.clock.advance(DAY_MS);
    const written = h.clock.now();
    await admin.login(); // the session expired with the day
    expect((await run('return "kept"')).statusCode).toBe(200);
    // The entries made a day earlier go first; the new one stays until its two days have passed.
    expect(pruneServiceRecords(h.svc, org, 'log', written)).toBe(older);
    h.clock.set(written + 2 * DAY_MS);
    expect(pruneOnce(h.svc).logs).toBe(0);
    h.clock.set(written + 2 * DAY_MS + 1);
    expect(pruneOnce(h.svc).logs).toBe(1);
    expect(count()).toBe(0);
  });
});
