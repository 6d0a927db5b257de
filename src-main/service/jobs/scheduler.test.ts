/**
 * Jobs (issue 41): scheduled on the service clock, each slot run once whatever number of service
 * processes share the data folder, never two runs of one job at once, no replay of slots missed
 * while stopped; "run now"; the console's summary; schedules checked on save.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { openService } from '../open-service.js';
import { bootstrapOrg } from '../bootstrap.js';
import { ManualClock } from '../clock.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { JobScheduler, latestSlot } from './scheduler.js';
import { jobOfRecord, parseSchedule } from './registry.js';

const MINUTE = 60_000;
const T0 = Date.parse('2026-01-15T12:00:00.000Z');

function insertJob(svc: Service, org: Org, doc: Record<string, unknown>): string {
  const def = svc.defs.byName(org.id, 'script')!;
  return svc.store.insert(org.id, def, { type: 'job', label: 'tick', script: 'return 1', ...doc } as never)._id;
}

describe('schedules', () => {
  it('are five-field cron expressions', () => {
    expect(() => parseSchedule('*/5 * * * *')).not.toThrow();
    for (const bad of ['* * * * * *', '@daily', 'every minute', '61 * * * *', '', 42]) {
      expect(() => parseSchedule(bad)).toThrow(
        expect.objectContaining({ fault: expect.objectContaining({ errCode: 'service.validation.invalidCron' }) }),
      );
    }
  });

  it('give the latest slot of a window, so a late tick runs once and never replays older slots', () => {
    const job = jobOfRecord('a'.repeat(24), { type: 'job', script: 'x', configuration: { cron: '*/5 * * * *' } })!;
    expect(latestSlot(job, T0, T0 + 4 * MINUTE)).toBeUndefined();
    expect(latestSlot(job, T0 - 1, T0)).toBe(T0);
    expect(latestSlot(job, T0, T0 + 5 * MINUTE)).toBe(T0 + 5 * MINUTE);
    expect(latestSlot(job, T0, T0 + 17 * MINUTE)).toBe(T0 + 15 * MINUTE);
    expect(latestSlot(job, T0, T0 + 30 * 24 * 60 * MINUTE)).toBe(T0 + 30 * 24 * 60 * MINUTE);
  });
});

describe('two service processes on one data folder', () => {
  let dataDir: string;
  let a: Service;
  let b: Service;
  let org: Org;
  const clock = new ManualClock(T0);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'jobs-two-'));
    const masterKey = randomBytes(32);
    a = openService({ dataDir, clock, masterKey });
    ({ org } = await bootstrapOrg(a, { code: 'demo', adminEmail: 'a@b.test', adminPassword: 'a long password' }));
    b = openService({ dataDir, clock, masterKey });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a.closeScripts(), b.closeScripts()]);
    a.close();
    b.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('run a job scheduled every minute once a minute, whichever ticks first', async () => {
    const id = insertJob(a, org, { configuration: { cron: '* * * * *' }, script: 'console.log("minute"); return 1' });
    const sa = new JobScheduler(a);
    const sb = new JobScheduler(b);
    sa.start(3_600_000);
    sb.start(3_600_000);
    try {
      const started: Record<string, number> = { a: 0, b: 0 };
      for (let minute = 1; minute <= 6; minute++) {
        clock.advance(MINUTE);
        const [first, second] = minute % 2 ? [sa, sb] : [sb, sa];
        const runs = [...first.tick(), ...second.tick()];
        expect(runs).toHaveLength(1);
        const results = await Promise.all(runs);
        expect(results[0]).toMatchObject({ ok: true, value: 1 });
        started[first === sa ? 'a' : 'b']! += runs.length;
      }
      // Each process ran the slots it ticked first; no slot ran twice.
      expect(started).toEqual({ a: 3, b: 3 });
      const rows = a.jobRuns.all(org.id).filter((r) => r.job === id);
      expect(rows.map((r) => r.slot)).toEqual([1, 2, 3, 4, 5, 6].map((m) => T0 + m * MINUTE));
      expect(new Set(rows.map((r) => r.runner))).toEqual(new Set([sa.runnerId, sb.runnerId]));
      expect(rows.every((r) => r.outcome === 'ok' && r.ended !== null)).toBe(true);
      // Both ticking in the same instant: still one run.
      clock.advance(MINUTE);
      const both = await Promise.all([...sa.tick(), ...sb.tick()]);
      expect(both).toHaveLength(1);
    } finally {
      sa.stop();
      sb.stop();
    }
  }, 60_000);

  it('start no more runs between them than the org cap a day; each run over it is refused once', async () => {
    // The minute job above ran 7 times; a second one joins it, and the operator sets the floor, 24.
    const second = insertJob(b, org, { configuration: { cron: '* * * * *' }, script: 'return 2' });
    const current = a.orgs.byId(org.id)!;
    a.orgs.updateSettings(current, { scriptLimits: { ...current.settings.scriptLimits, maxJobRunsPerDay: 24 } });
    const sa = new JobScheduler(a);
    const sb = new JobScheduler(b);
    sa.start(3_600_000);
    sb.start(3_600_000);
    const outcomes: string[] = [];
    try {
      for (let minute = 1; minute <= 10; minute++) {
        clock.advance(MINUTE);
        const [first, then] = minute % 2 ? [sa, sb] : [sb, sa];
        const results = await Promise.all([...first.tick(), ...then.tick()]);
        expect(results).toHaveLength(2); // both jobs' slots, each once
        outcomes.push(...results.map((r) => (r.ok ? 'ok' : r.fault.errCode)));
      }
    } finally {
      sa.stop();
      sb.stop();
    }
    const CAPPED = 'service.accessDenied.maxJobsPerDay';
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(24 - 7);
    expect(outcomes.filter((o) => o === CAPPED)).toHaveLength(3);
    const rows = b.jobRuns.all(org.id);
    expect(rows.filter((r) => r.errCode !== CAPPED)).toHaveLength(24);
    expect(rows.filter((r) => r.job === second && r.errCode === CAPPED).length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => `${r.job} ${r.kind} ${r.slot}`)).size).toBe(rows.length);
  }, 60_000);
});

describe('the scheduler in a service', () => {
  let h: Harness;
  let admin: TestClient;
  let org: Org;
  let scheduler: JobScheduler;

  beforeAll(async () => {
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
    org = h.svc.orgs.byCode('demo')!;
    h.server.jobScheduler.stop(); // the test ticks its own
    scheduler = new JobScheduler(h.svc);
  }, 60_000);
  afterAll(async () => h.close());

  const job = async (
    configuration: Record<string, unknown>,
    script = 'return script.principal && script.principal._id',
  ) => {
    const res = await admin.post('/scripts', { label: `job ${Math.random()}`, type: 'job', script, configuration });
    expect(res.statusCode, res.body).toBe(200);
    return res.json()._id as string;
  };

  it('refuses a job whose schedule or principal could never run', async () => {
    const bad = async (configuration: Record<string, unknown>) =>
      (await admin.post('/scripts', { label: 'bad', type: 'job', script: 'return 1', configuration })).json();
    expect(await bad({})).toMatchObject({ errCode: 'service.validation.invalidCron', path: 'configuration.cron' });
    expect(await bad({ cron: '0 0 * * * *' })).toMatchObject({ path: 'configuration.cron' });
    expect(await bad({ cron: '0 0 * * *', principal: 'nobody@example.test' })).toMatchObject({
      path: 'configuration.principal',
    });
  });

  it('runs as the job principal, or anonymously; skips slots while a run has not ended; replays nothing missed', async () => {
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const asAdmin = await job({ cron: '*/10 * * * *', principal: 'admin@example.test' });
    const anonymous = await job({ cron: '*/10 * * * *' });
    scheduler.start(3_600_000);
    h.clock.set(T0 + 10 * MINUTE);
    const results = await Promise.all(scheduler.tick());
    expect(results.map((r) => (r.ok ? r.value : r.fault.errCode)).sort()).toEqual([adminId, null].sort());
    // A run that has not ended (its row without `ended`) keeps the next slot from starting.
    h.clock.set(T0 + 20 * MINUTE);
    const running = h.svc.jobRuns.claim(org.id, asAdmin, 'manual', 1, 'other', h.clock.now(), MINUTE * 60);
    expect(running).toHaveProperty('claimed');
    const next = await Promise.all(scheduler.tick());
    expect(next).toHaveLength(1);
    expect(h.svc.jobRuns.recent(org.id, asAdmin, 5).map((r) => r.slot)).toEqual([1, T0 + 10 * MINUTE]);
    expect(h.svc.jobRuns.recent(org.id, anonymous, 5).map((r) => r.slot)).toEqual([T0 + 20 * MINUTE, T0 + 10 * MINUTE]);
    // Stopped for an hour: the slots of that hour are not run when it starts again.
    scheduler.stop();
    h.clock.set(T0 + 80 * MINUTE);
    scheduler.start(3_600_000);
    expect(scheduler.tick()).toEqual([]);
    h.clock.set(T0 + 90 * MINUTE);
    // Both run: the unfinished row is older than a run could last (its process died), so stale.
    expect(await Promise.all(scheduler.tick())).toHaveLength(2);
    scheduler.stop();
    await admin.login();
    for (const id of [asAdmin, anonymous]) expect((await admin.delete(`/scripts/${id}`)).statusCode).toBe(200);
  });

  it('runs a job now, answered like the runner, refused while it runs; GET /jobs shows schedules and runs', async () => {
    await admin.login(); // the clock moved past the session
    const id = await job({ cron: '0 3 * * *' }, 'console.log("by hand"); return 7');
    const res = await admin.post(`/scripts/${id}/run`, {});
    expect(res.json()).toMatchObject({ object: 'result', data: 7 });
    const [entry] = (await admin.get(`/logs?${listQuery({ where: { sid: id }, limit: 1 })}`)).json().data;
    expect(entry).toMatchObject({ stp: 'job', console: [{ message: 'by hand' }] });
    // The clock stands still: the runs above ended in this millisecond, and do not block the next.
    for (let i = 0; i < 2; i++) {
      expect((await admin.post(`/scripts/${id}/run`, {})).json()).toMatchObject({ object: 'result', data: 7 });
    }
    h.svc.jobRuns.claim(org.id, id, 'schedule', 5, 'other', h.clock.now(), MINUTE * 60);
    expect((await admin.post(`/scripts/${id}/run`, {})).json()).toMatchObject({
      errCode: 'service.conflict.job.running',
    });
    expect((await admin.post(`/scripts/${'f'.repeat(24)}/run`, {})).json()).toMatchObject({
      errCode: 'service.notFound.job',
    });
    const jobs = (await admin.get('/jobs')).json();
    const summary = (jobs.data as { _id: string }[]).find((j) => j._id === id);
    expect(summary).toMatchObject({
      cron: '0 3 * * *',
      active: true,
      nextRun: new Date(Date.UTC(2026, 0, 16, 3, 0, 0)).toISOString(),
      lastRuns: [
        { kind: 'schedule', outcome: null },
        { kind: 'manual', outcome: 'ok' },
        { kind: 'manual', outcome: 'ok' },
        { kind: 'manual', outcome: 'ok' },
      ],
    });
  });
});
