/**
 * The org's cap on job runs (the original's maxJobRunsPerDay) in a service: a schedule over it is
 * refused when saved (a job record, a changed schedule, a library's `@job`); runs over it — "run
 * now" and scheduled — are refused and logged; another org's runs never count; `GET /jobs` shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { bootstrapOrg } from '../bootstrap.js';
import type { Org } from '../orgs/orgs.js';
import { JobScheduler } from './scheduler.js';
import { MIN_ALLOWED_JOB_RUNS_PER_DAY } from '../scripting/org-limits.js';
import { exportOf, importInto } from '../testing/environment-testing.js';
import { RUNS_SINCE_SQL } from './job-runs.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CAPPED = 'service.accessDenied.maxJobsPerDay';

let h: Harness;
let admin: TestClient;
let other: TestClient;
let demo: Org;
let scheduler: JobScheduler;

const setCap = (org: Org, maxJobRunsPerDay: number) =>
  h.svc.orgs.updateSettings(org, { scriptLimits: { ...org.settings.scriptLimits, maxJobRunsPerDay } });

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  const second = await bootstrapOrg(h.svc, {
    code: 'other',
    adminEmail: 'admin@other.test',
    adminPassword: ADMIN_PASSWORD,
  });
  other = new TestClient({ ...h, org: 'other', consoleAppKey: second.consoleAppKey });
  await other.login('admin@other.test', ADMIN_PASSWORD);
  h.server.jobScheduler.stop(); // the test ticks its own
  scheduler = new JobScheduler(h.svc);
  demo = setCap(h.svc.orgs.byCode('demo')!, 100);
}, 60_000);
afterAll(async () => h.close());

const saveJob = (client: TestClient, cron: string, script = 'return 1') =>
  client.post('/scripts', { label: `job ${cron}`, type: 'job', script, configuration: { cron } });

describe('saving a schedule', () => {
  it('refuses a job record whose schedule runs more than the cap a day, accepts one within it', async () => {
    const over = await saveJob(admin, '* * * * *');
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ errCode: CAPPED, path: 'configuration.cron' });
    expect(over.json().reason).toContain('100');
    const within = await saveJob(admin, '*/15 * * * *');
    expect(within.statusCode, within.body).toBe(200);
    // Changing the schedule is checked again; other changes of a job saved under a higher cap are not.
    const id = within.json()._id as string;
    const changed = await admin.patch(`/scripts/${id}`, { configuration: { cron: '*/5 * * * *' } });
    expect(changed.json()).toMatchObject({ errCode: CAPPED });
    setCap(h.svc.orgs.byCode('demo')!, 50);
    try {
      expect((await admin.patch(`/scripts/${id}`, { label: 'renamed' })).statusCode).toBe(200);
    } finally {
      setCap(h.svc.orgs.byCode('demo')!, 100);
    }
    expect((await admin.delete(`/scripts/${id}`)).statusCode).toBe(200);
  });

  it("refuses a library whose @job runs more than the cap a day; another org's cap is its own", async () => {
    const library = (cron: string) => ({
      label: 'Sweeper',
      type: 'library',
      script: `import { job } from 'decorators'\nclass Sweeper {\n  @job('${cron}')\n  static sweep() { return 1 }\n}\nmodule.exports = Sweeper\n`,
      configuration: { export: `c_sweeper_${cron.length}` },
    });
    const over = await admin.post('/scripts', library('* * * * *'));
    expect(over.json()).toMatchObject({ errCode: CAPPED, path: 'script' });
    expect(over.json().reason).toContain('Sweeper.sweep');
    const within = await admin.post('/scripts', library('0 * * * *'));
    expect(within.statusCode, within.body).toBe(200);
    expect((await admin.delete(`/scripts/${within.json()._id as string}`)).statusCode).toBe(200);
    // The other org keeps the default cap (1000 a day): a job every minute is too many there too, one every two minutes is not.
    expect((await saveJob(other, '* * * * *')).json()).toMatchObject({ errCode: CAPPED });
    const ok = await saveJob(other, '*/2 * * * *');
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await other.delete(`/scripts/${ok.json()._id as string}`)).statusCode).toBe(200);
  });
});

describe('who sets the cap', () => {
  it('is not an org administrator: an import cannot raise it, nor set it under any name', async () => {
    const text = await exportOf(admin, { settings: { includes: ['*'] } });
    const env = text.split('\n').find((l) => l.includes('"object":"env"'))!;
    // The operator's limits never leave the org (environment/resources.ts exportSettings).
    expect(JSON.parse(env).settings).not.toHaveProperty('scriptLimits');
    expect((await importInto(admin, text)).statusCode).toBe(200);
    // The whole export with its env document changed, so the refusal is the settings' own.
    const envDoc = JSON.parse(env) as { settings: Record<string, unknown> };
    const cases: [Record<string, unknown>, string][] = [
      [{ scriptLimits: { maxJobRunsPerDay: 100_000 } }, 'settings.scriptLimits'],
      [{ maxJobRunsPerDay: 100_000 }, 'settings.maxJobRunsPerDay'],
    ];
    for (const [settings, path] of cases) {
      const changed = JSON.stringify({ ...envDoc, settings: { ...envDoc.settings, ...settings } });
      const res = await importInto(admin, text.replace(env, changed));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(path);
      expect(h.svc.orgs.byCode('demo')!.settings.scriptLimits).toEqual({ maxJobRunsPerDay: 100 });
    }
  });
});

describe('running over the cap', () => {
  it('refuses the run after the cap, logs it as a failed job run, and counts no other org', async () => {
    demo = setCap(h.svc.orgs.byCode('demo')!, MIN_ALLOWED_JOB_RUNS_PER_DAY);
    const id = (await saveJob(admin, '0 3 * * *', 'return 7')).json()._id as string;
    const otherId = (await saveJob(other, '0 3 * * *', 'return 8')).json()._id as string;
    const start = h.clock.now();
    for (let i = 0; i < MIN_ALLOWED_JOB_RUNS_PER_DAY; i++) {
      h.clock.set(start + i * MINUTE);
      if (i % 10 === 0) await admin.login(); // the session outlives no idle hour
      expect((await admin.post(`/scripts/${id}/run`, {})).json(), `run ${i}`).toMatchObject({ data: 7 });
    }
    expect((await admin.get('/jobs')).json().cap).toEqual({ maxJobRunsPerDay: 24, runsLeft: 0 });
    h.clock.set(start + MIN_ALLOWED_JOB_RUNS_PER_DAY * MINUTE);
    const refused = await admin.post(`/scripts/${id}/run`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ errCode: CAPPED });
    // The scheduler's run of the same job is refused too; the other org's job at the same slot runs.
    scheduler.start(HOUR);
    h.clock.set(Date.parse('2026-01-16T03:00:00.000Z'));
    expect(await Promise.all(scheduler.tick())).toMatchObject([
      { ok: false, fault: { errCode: CAPPED } },
      { ok: true, value: 8 },
    ]);
    scheduler.stop();
    const logs = (await (await login(admin)).get(`/logs?${listQuery({ where: { sid: id }, limit: 30 })}`)).json().data;
    const failed = (logs as { lvl: string; err?: { errCode?: string } }[]).filter((l) => l.lvl === 'error');
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({ stp: 'job', err: { errCode: CAPPED } });
    expect(h.svc.jobRuns.recent(demo.id, id, 2).map((r) => [r.kind, r.outcome, r.errCode])).toEqual([
      ['schedule', 'fault', CAPPED],
      ['manual', 'fault', CAPPED],
    ]);
    // The other org's job runs: demo's runs are not its runs.
    await other.login('admin@other.test', ADMIN_PASSWORD);
    expect((await other.post(`/scripts/${otherId}/run`, {})).json()).toMatchObject({ data: 8 });
    expect((await other.get('/jobs')).json().cap).toEqual({ maxJobRunsPerDay: 1000, runsLeft: 998 });
    // A day after the first run, the runs of the window no longer count; refused runs never did.
    h.clock.set(start + 24 * HOUR + 1);
    await admin.login();
    expect((await admin.get('/jobs')).json().cap).toEqual({ maxJobRunsPerDay: 24, runsLeft: 1 });
    // Three jobs asked to run at once for the one run left: one runs, two are refused.
    const more = [id];
    for (const hour of [4, 5]) more.push((await saveJob(admin, `0 ${hour} * * *`, 'return 7')).json()._id as string);
    const answers = await Promise.all(more.map((j) => admin.post(`/scripts/${j}/run`, {})));
    expect(answers.map((r) => r.json().data ?? r.json().errCode).sort()).toEqual([7, CAPPED, CAPPED].sort());
  });
});

it("counts the org's runs of the window on the index by org and start", () => {
  const plan = h.svc.db.prepare(`EXPLAIN QUERY PLAN ${RUNS_SINCE_SQL}`).all(1, 0, 'x', 10) as { detail: string }[];
  expect(plan.map((r) => r.detail).join('\n')).toMatch(/USING INDEX job_runs_org_started \(org_id=\? AND started>\?\)/);
});

async function login(client: TestClient): Promise<TestClient> {
  await client.login();
  return client;
}
