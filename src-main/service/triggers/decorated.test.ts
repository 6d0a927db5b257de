/**
 * Issue 41: a library's `@trigger` and `@job` methods (registered at save, issue 40) run as
 * `type: "trigger"` and `type: "job"` records do — weight order, changes and refusals of before
 * triggers, after triggers once the write committed, jobs on their schedule and by hand — and stop
 * when the library is made inactive. The library is written as the original's tests write them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import type { ManualClock } from '../clock.js';
import { JobScheduler } from '../jobs/scheduler.js';
import { afterTriggersSettled } from './engine.js';

const LIBRARY = `import { trigger, job } from 'decorators'

class ConversationRules {

  @trigger('create.before', { object: 'c_conversation', weight: 2 })
  static defaults({ body, new: instance }) {
    if (!instance.c_status) body('c_status', body('c_title') === 'done' ? 'closed' : 'open')
  }

  @trigger('create.before', 'update.before', { object: 'c_conversations', weight: 1 })
  noX({ context }) {
    if (String(context.c_title).includes('x')) {
      throw Fault.create('service.invalidArgument.title', { reason: 'Titles have no x.' })
    }
  }

  @trigger('update.after', { object: 'c_conversation', name: 'c_after_update' })
  afterUpdate({ context, old, modified }) {
    console.log('updated', old.c_title, 'to', context.c_title, modified.join(','))
  }

  @job('*/5 * * * *', { name: 'c_five_minutes', principal: 'admin@example.test' })
  static sweep({ runtime }) {
    console.log('sweep', runtime.configuration.cron)
    return org.objects.c_conversations.find().count()
  }
}

module.exports = ConversationRules
`;

let h: Harness;
let admin: TestClient;
let libraryId: string;
let scheduler: JobScheduler;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  h.server.jobScheduler.stop(); // the test ticks its own
  scheduler = new JobScheduler(h.svc);
  const res = await admin.post('/scripts', {
    label: 'Conversation rules',
    type: 'library',
    active: true,
    script: LIBRARY,
    configuration: { export: 'c_conversation_rules' },
  });
  expect(res.statusCode, res.body).toBe(200);
  libraryId = res.json()._id as string;
}, 60_000);
afterAll(async () => h.close());

async function logsOf(where: Record<string, unknown>) {
  const res = await admin.get(`/logs?${listQuery({ where, sort: { _id: -1 } })}`);
  return res.json().data as Record<string, unknown>[];
}

describe("a library's @trigger methods", () => {
  it('change a create in weight order and refuse one with their fault', async () => {
    const made = await admin.post('/c_conversations', { c_title: 'hello' });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ c_title: 'hello', c_status: 'open' });
    const refused = await admin.post('/c_conversations', { c_title: 'xylophone' });
    expect(refused.json()).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.title' });
    const [entry] = await logsOf({ stp: 'trigger', lvl: 'error' });
    expect(entry).toMatchObject({ sid: libraryId, dat: { event: 'create.before', resource: 'ConversationRules.noX' } });
  });

  it('refuse an update too (one decorator, two events), and run after it committed', async () => {
    const first = await admin.post('/c_conversations', { c_title: 'first' });
    expect(first.statusCode, first.body).toBe(200);
    const id = first.json()._id as string;
    expect((await admin.patch(`/c_conversations/${id}`, { c_title: 'with x' })).json()).toMatchObject({
      errCode: 'service.invalidArgument.title',
    });
    expect((await admin.patch(`/c_conversations/${id}`, { c_title: 'second' })).statusCode).toBe(200);
    await afterTriggersSettled(h.svc);
    const [after] = await logsOf({ stp: 'trigger', 'dat.event': 'update.after' });
    expect(after).toMatchObject({
      label: 'c_after_update',
      console: [{ level: 'log', message: 'updated first to second c_title,updated,updater' }],
    });
  });
});

describe("a library's @job methods", () => {
  it('are listed with their schedule, run on it and by hand', async () => {
    const jobs = (await admin.get('/jobs')).json().data as Record<string, unknown>[];
    expect(jobs).toContainEqual(
      expect.objectContaining({
        _id: libraryId,
        handler: 'ConversationRules.sweep',
        label: 'c_five_minutes',
        cron: '*/5 * * * *',
        active: true,
      }),
    );
    scheduler.start(3_600_000);
    try {
      (h.svc.clock as ManualClock).advance(5 * 60_000);
      const runs = scheduler.tick();
      expect(runs).toHaveLength(1);
      const [result] = await Promise.all(runs);
      expect(result).toMatchObject({ ok: true, value: 2 });
    } finally {
      scheduler.stop();
    }
    const now = await admin.post(`/scripts/${libraryId}/run`, { handler: 'ConversationRules.sweep' });
    expect(now.json(), now.body).toMatchObject({ object: 'result', data: 2 });
    (h.svc.clock as ManualClock).advance(1000); // a manual run is claimed per instant, like a slot
    const only = await admin.post(`/scripts/${libraryId}/run`); // the library's only job
    expect(only.json(), only.body).toMatchObject({ object: 'result', data: 2 });
    expect((await admin.post(`/scripts/${libraryId}/run`, { handler: 'Nope.nope' })).json()).toMatchObject({
      errCode: 'service.notFound.job',
    });
    const [entry] = await logsOf({ stp: 'job', sid: libraryId });
    expect(entry).toMatchObject({ dat: { resource: 'ConversationRules.sweep' } });
    expect(entry!.console).toEqual([{ level: 'log', message: 'sweep */5 * * * *' }]);
  });
});

describe('an inactive library', () => {
  it('fires no trigger and schedules no job', async () => {
    expect((await admin.patch(`/scripts/${libraryId}`, { active: false })).statusCode).toBe(200);
    const made = await admin.post('/c_conversations', { c_title: 'x marks the spot' });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().c_status).toBeUndefined();
    scheduler.start(3_600_000);
    try {
      (h.svc.clock as ManualClock).advance(5 * 60_000);
      expect(scheduler.tick()).toHaveLength(0);
    } finally {
      scheduler.stop();
    }
    const jobs = (await admin.get('/jobs')).json().data as Record<string, unknown>[];
    expect(jobs).toContainEqual(expect.objectContaining({ _id: libraryId, active: false, nextRun: null }));
  });
});
