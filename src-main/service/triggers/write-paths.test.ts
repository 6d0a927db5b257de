/**
 * Triggers around real writes (issue 41): a before trigger changes and refuses writes made over
 * REST, through the driver API and by scripts (one table); after triggers see the committed record
 * and cannot undo it; a trigger's own writes fire triggers until the depth limit refuses them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import type { Org } from '../orgs/orgs.js';
import { afterTriggersSettled } from './engine.js';

let h: Harness;
let admin: TestClient;
let org: Org;
const made: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode('demo')!;
}, 60_000);
afterAll(async () => h.close());
beforeEach(async () => {
  for (const id of made.splice(0)) expect((await admin.delete(`/scripts/${id}`)).statusCode).toBe(200);
});

async function trigger(event: string, script: string, object = 'c_conversation') {
  const res = await admin.post('/scripts', {
    label: `${event} ${made.length}`,
    type: 'trigger',
    script,
    configuration: { object, event },
  });
  expect(res.statusCode, res.body).toBe(200);
  made.push(res.json()._id as string);
}

const NO_X = `var t = script.arguments.new.c_title;
if (t.indexOf('x') !== -1) throw { errCode: 'service.validation.noX', reason: 'Titles may not contain x.' };
script.arguments.new.update('c_title', t + '!');`;

const count = () => h.svc.store.count(org.id, h.svc.defs.byName(org.id, 'c_conversation')!);
const titleOf = (id: string) => h.svc.store.get(org.id, h.svc.defs.byName(org.id, 'c_conversation')!, id)?.doc.c_title;
const runner = (script: string) => admin.post('/sys/script_runner', { script });

type Path = {
  name: string;
  create: (title: string) => Promise<unknown>;
  update: (id: string, title: string) => Promise<unknown>;
};
/** Each way a caller writes a record; each answers the written record's _id or the fault. */
const PATHS: Path[] = [
  {
    name: 'REST',
    create: async (t) => (await admin.post('/c_conversations', { c_title: t })).json(),
    update: async (id, t) => (await admin.patch(`/c_conversations/${id}`, { c_title: t })).json(),
  },
  {
    name: 'driver API',
    create: async (t) =>
      (await admin.post('/c_conversations/db/insertOne', { document: { c_title: t }, lean: false })).json(),
    update: async (id, t) =>
      (
        await admin.post('/c_conversations/db/updateOne', {
          match: { _id: id },
          update: { $set: { c_title: t } },
          lean: false,
        })
      ).json(),
  },
  {
    name: 'script',
    create: async (t) =>
      (
        await runner(
          `return org.objects.c_conversations.insertOne({ c_title: ${JSON.stringify(t)} }).lean(false).execute()`,
        )
      ).json(),
    update: async (id, t) =>
      (
        await runner(
          `return org.objects.c_conversations.updateOne({ _id: '${id}' }, { $set: { c_title: ${JSON.stringify(t)} } }).lean(false).execute()`,
        )
      ).json(),
  },
];

describe('a before trigger, on every way a caller writes', () => {
  it.each(PATHS.map((p) => [p.name, p] as const))(
    '%s: changes the record, or refuses the write',
    async (_name, path) => {
      await trigger('create.before', NO_X);
      await trigger('update.before', NO_X);
      const before = count();
      const created = (await path.create('hello')) as { _id: string; c_title: string };
      expect(created.c_title).toBe('hello!');
      expect(titleOf(created._id)).toBe('hello!');
      expect(await path.create('box')).toMatchObject({
        object: 'fault',
        errCode: 'service.validation.noX',
        reason: 'Titles may not contain x.',
      });
      expect(count()).toBe(before + 1);
      expect(await path.update(created._id, 'again')).toMatchObject({ c_title: 'again!' });
      expect(await path.update(created._id, 'xylophone')).toMatchObject({ errCode: 'service.validation.noX' });
      expect(titleOf(created._id)).toBe('again!');
    },
  );
});

describe('after triggers', () => {
  it('see the committed record, run after the answer, and cannot undo the write when they fail', async () => {
    await trigger(
      'create.after',
      `var stored = org.objects.c_conversations.readOne({ _id: script.context._id }).execute();
       console.log('stored', stored.c_title);
       throw new Error('too late to refuse');`,
    );
    const res = await admin.post('/c_conversations', { c_title: 'kept' });
    expect(res.statusCode, res.body).toBe(200);
    await afterTriggersSettled(h.svc);
    expect(titleOf(res.json()._id as string)).toBe('kept');
    const [entry] = (
      await admin.get(`/logs?${listQuery({ where: { stp: 'trigger' }, sort: { _id: -1 }, limit: 1 })}`)
    ).json().data;
    expect(entry).toMatchObject({
      lvl: 'error',
      console: [{ message: 'stored kept' }],
      dat: { event: 'create.after', object: 'c_conversation', target: res.json()._id },
    });
  });
});

describe('triggers fired by triggers', () => {
  it('nest four deep, then the write is refused', async () => {
    await trigger(
      'create.before',
      `var n = script.arguments.new.c_title.length;
       if (n < 10) org.objects.c_conversations.insertOne({ c_title: script.arguments.new.c_title + '+' }).execute();`,
    );
    const before = count();
    // Three nested writes (levels 2–4) fit under a first one: all four are stored.
    expect((await admin.post('/c_conversations', { c_title: '1234567' })).statusCode).toBe(200);
    expect(count()).toBe(before + 4);
    // A chain one longer needs a fifth level: refused, and nothing of it stays.
    const refused = await admin.post('/c_conversations', { c_title: '123456' });
    expect(refused.json()).toMatchObject({ errCode: 'service.tooLarge.trigger.depth' });
    expect(count()).toBe(before + 4);
  });
});
