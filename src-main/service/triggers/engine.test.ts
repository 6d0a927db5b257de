/**
 * The trigger engine on its own (issue 41): which triggers a write fires and in what order, what
 * they see, how before triggers change or refuse a write, after triggers that fail, the depth
 * limit, and the cost of a write without triggers (no query at all).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';
import type { Org } from '../orgs/orgs.js';
import { afterTriggersSettled, runAfterTriggers, runBeforeTriggers, type TriggeredWrite } from './engine.js';
import { atTriggerDepth } from './depth.js';
import { triggersFor } from './registry.js';

let h: Harness;
let admin: TestClient;
let org: Org;
let adminId: string;
const made: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode('demo')!;
  adminId = (await admin.get('/accounts/me')).json()._id as string;
}, 60_000);
afterAll(async () => h.close());
beforeEach(async () => {
  for (const id of made.splice(0)) expect((await admin.delete(`/scripts/${id}`)).statusCode).toBe(200);
});

async function trigger(event: string, script: string, extra: Record<string, unknown> = {}, config = {}) {
  const res = await admin.post('/scripts', {
    label: `t ${event} ${made.length}`,
    type: 'trigger',
    script,
    configuration: { object: 'c_conversation', event, ...config },
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  made.push(res.json()._id as string);
  return res.json()._id as string;
}

const def = () => h.svc.defs.byName(org.id, 'c_conversation')!;
const write = (over: Partial<TriggeredWrite> = {}): TriggeredWrite => ({
  org,
  def: def(),
  op: 'create',
  id: '0123456789abcdef01234567',
  next: { c_title: 'hello' },
  modified: ['c_title'],
  actorId: adminId,
  dryRun: false,
  ...over,
});

async function lastLogs(n: number) {
  const res = await admin.get(`/logs?${listQuery({ where: { stp: 'trigger' }, sort: { _id: -1 }, limit: n })}`);
  return res.json().data as Record<string, unknown>[];
}

describe('before triggers', () => {
  it('run by weight, highest first, each seeing the changes of the ones before', async () => {
    await trigger('create.before', "script.arguments.new.update('c_title', script.arguments.new.c_title + '-low')", {
      weight: 1,
    });
    await trigger('create.before', "script.context.update('c_title', script.context.c_title + '-high')", {
      weight: 10,
    });
    await trigger('create.before', "script.arguments.new.c_title = script.arguments.new.c_title + '-mid'", {
      weight: 5,
    });
    expect(await runBeforeTriggers(h.svc, write())).toEqual({ c_title: 'hello-high-mid-low' });
  });

  it('see the record, its id and type, the old record and the modified paths; change nested paths', async () => {
    await trigger(
      'update.before',
      `var a = script.arguments;
       if (script.context._id !== '0123456789abcdef01234567' || script.context.object !== 'c_conversation') throw new Error('context');
       if (a.old.c_title !== 'before' || a.new.c_title !== 'after' || a.event !== 'update.before') throw new Error('args');
       a.new.update({ c_title: a.modified.join(',') + ':' + a.old.c_title });`,
      {},
      { event: 'update.before' },
    );
    const changed = await runBeforeTriggers(
      h.svc,
      write({ op: 'update', old: { c_title: 'before' }, next: { c_title: 'after' }, modified: ['c_title'] }),
    );
    expect(changed).toEqual({ c_title: 'c_title:before' });
  });

  it('refuse the write with their fault (without the trace), or cancel it by returning false', async () => {
    await trigger(
      'create.before',
      "if (script.arguments.new.c_title.indexOf('x') !== -1) throw { errCode: 'service.validation.noX', reason: 'No x in titles.' }",
    );
    await expect(runBeforeTriggers(h.svc, write({ next: { c_title: 'box' } }))).rejects.toMatchObject({
      fault: { errCode: 'service.validation.noX', reason: 'No x in titles.', status: 400 },
    });
    await expect(runBeforeTriggers(h.svc, write({ next: { c_title: 'box' } }))).rejects.not.toHaveProperty(
      'fault.trace',
    );
    expect(await runBeforeTriggers(h.svc, write({ next: { c_title: 'bo' } }))).toBeUndefined();
    await trigger('create.before', 'return false', { weight: -1 });
    await expect(runBeforeTriggers(h.svc, write({ next: { c_title: 'bo' } }))).rejects.toMatchObject({
      fault: { errCode: 'service.accessDenied.triggerCancelled' },
    });
    const [entry] = await lastLogs(1);
    expect(entry).toMatchObject({
      stp: 'trigger',
      lvl: 'info',
      dat: { event: 'create.before', object: 'c_conversation', result: 'false' },
    });
  });

  it('refuse bad paths, and run as their principal when they name one', async () => {
    const bob = await createUser(admin, 'bob@example.test');
    await trigger('create.before', "script.context.update('c_title', script.principal._id)", {}, { principal: bob });
    expect(await runBeforeTriggers(h.svc, write())).toEqual({ c_title: bob });
    await trigger('create.before', "script.context.update('bad path!', 1)", { weight: -5 });
    await expect(runBeforeTriggers(h.svc, write())).rejects.toMatchObject({
      fault: { errCode: 'service.invalidArgument.trigger.update' },
    });
  });

  it('fire past four levels of triggers only to refuse the write', async () => {
    await trigger('create.before', "script.context.update('c_title', 'ran')");
    expect(await atTriggerDepth(3, () => runBeforeTriggers(h.svc, write()))).toEqual({ c_title: 'ran' });
    await expect(atTriggerDepth(4, () => runBeforeTriggers(h.svc, write()))).rejects.toMatchObject({
      fault: { errCode: 'service.tooLarge.trigger.depth' },
    });
  });
});

describe('after triggers', () => {
  it('run with the written record, in order; a failing one is logged and the others still run', async () => {
    await trigger(
      'create.after',
      "console.log('first', script.context.c_title)",
      { weight: 3 },
      { event: 'create.after' },
    );
    await trigger('create.after', "throw new Error('after failed')", { weight: 2 }, { event: 'create.after' });
    await trigger('create.after', "script.context.update('c_title', 'nope')", { weight: 1 }, { event: 'create.after' });
    await runAfterTriggers(h.svc, write({ next: { c_title: 'stored' } }));
    await afterTriggersSettled(h.svc);
    const logs = (await lastLogs(3)).reverse();
    expect(logs.map((l) => [l.lvl, (l.console as { message: string }[] | undefined)?.[0]?.message])).toEqual([
      ['info', 'first stored'],
      ['error', undefined],
      ['error', undefined],
    ]);
    expect(logs[1]).toMatchObject({ err: { message: 'Error: after failed' } });
    expect(String((logs[2]!.err as { message: string }).message)).toMatch(/Only a before trigger changes/);
  });

  it('past the depth limit are logged as refused, not run', async () => {
    await trigger('create.after', "console.log('ran')", {}, { event: 'create.after' });
    await atTriggerDepth(4, () => runAfterTriggers(h.svc, write()));
    await afterTriggersSettled(h.svc);
    expect((await lastLogs(1))[0]).toMatchObject({ lvl: 'error', err: { errCode: 'service.tooLarge.trigger.depth' } });
  });
});

describe('the trigger table', () => {
  it('costs a write without triggers no statement at all, and follows script saves', async () => {
    await trigger('update.before', 'return 1', {}, { event: 'update.before' });
    expect(triggersFor(h.svc, org, 'c_conversation', 'update.before')).toHaveLength(1);
    // A request after the save builds the org's policy table (policies/policy-table.ts), which
    // reads the scripts once per change of them too: built before counting.
    await admin.get('/c_patientfiles');
    const ran = countStatements(h.svc.db);
    try {
      for (let i = 0; i < 100; i++) {
        expect(triggersFor(h.svc, org, 'c_patientfile', 'create.before')).toHaveLength(0);
        expect(triggersFor(h.svc, org, 'c_conversation', 'update.before')).toHaveLength(1);
      }
      // Nothing but the data-version probe every cache shares.
      expect(ran.list.filter((s) => s !== 'PRAGMA data_version')).toEqual([]);
      // Writes of other records do not empty the table.
      await admin.post('/c_patientfiles', { c_name: 'x' }).catch(() => undefined);
      expect(triggersFor(h.svc, org, 'c_patientfile', 'create.before')).toHaveLength(0);
      expect(ran.list.filter((s) => /FROM "o\d+_script"/.test(s))).toEqual([]);
    } finally {
      ran.stop();
    }
    await trigger('create.before', 'return 1', {}, { object: 'c_patientfiles' });
    expect(triggersFor(h.svc, org, 'c_patientfile', 'create.before')).toHaveLength(1);
  });

  it('refuses trigger records that could never fire', async () => {
    const bad = async (configuration: Record<string, unknown>) =>
      (await admin.post('/scripts', { label: 'bad', type: 'trigger', script: 'return 1', configuration })).json();
    expect(await bad({ object: 'c_conversation', event: 'create.during' })).toMatchObject({
      path: 'configuration.event',
    });
    expect(await bad({ object: 'c_nothing', event: 'create.before' })).toMatchObject({ path: 'configuration.object' });
    expect(await bad({ object: 'script', event: 'create.before' })).toMatchObject({ path: 'configuration.object' });
    expect(await bad({ object: '*', event: 'create.before', principal: 'nobody@example.test' })).toMatchObject({
      path: 'configuration.principal',
    });
  });
});

/** Statements run on `db` while counting (the statement-count test's method). */
function countStatements(db: Database.Database) {
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, unknown>;
  const list: string[] = [];
  const originals = new Map<string, unknown>();
  for (const method of ['get', 'all', 'run', 'iterate']) {
    const original = proto[method] as (this: Database.Statement, ...args: unknown[]) => unknown;
    originals.set(method, original);
    proto[method] = function (this: Database.Statement, ...args: unknown[]) {
      list.push(this.source);
      return original.apply(this, args);
    };
  }
  return {
    list,
    stop: () => {
      for (const [method, original] of originals) proto[method] = original;
    },
  };
}
