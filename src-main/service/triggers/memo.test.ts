/**
 * Issue 41: a write's triggers share `memo` (the original's `script.arguments.memo`, and the
 * `memo` argument of a decorated `@trigger` method): what a before trigger leaves there the next
 * before triggers and the after triggers of the SAME write read; parallel writes each have their
 * own; a memo past MAX_MEMO_BYTES is refused with its fault (triggers/memo.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { afterTriggersSettled } from './engine.js';
import { MAX_MEMO_BYTES } from './memo.js';

const LIBRARY = `import { trigger } from 'decorators'

class MemoRules {

  @trigger('create.before', { object: 'c_conversation', weight: 2 })
  static remember({ memo, new: instance }) {
    memo.title = instance.c_title
    memo.seen = 1
    if (instance.c_title === 'big') memo.big = 'x'.repeat(${MAX_MEMO_BYTES})
  }

  @trigger('create.before', { object: 'c_conversation', weight: 1 })
  static count({ memo }) {
    memo.seen = memo.seen + 1
  }

  @trigger('create.after', { object: 'c_conversation' })
  static recall({ memo, context }) {
    org.objects.c_conversations.updateOne({ _id: context._id }, { $set: { c_title: memo.title + ' #' + memo.seen } }).execute()
  }
}

module.exports = MemoRules
`;

/** Trigger records on updates, through script.arguments.memo; the after trigger's own update finds an empty memo. */
const UPDATE_BEFORE = `if (!String(script.arguments.new.c_title).includes('#')) script.arguments.memo.was = script.arguments.old.c_title`;
const UPDATE_AFTER = `const { memo, new: record } = script.arguments
if (memo.was) org.objects.c_conversations.updateOne({ _id: record._id }, { $set: { c_title: record.c_title + ' #was ' + memo.was } }).execute()`;

let h: Harness;
let admin: TestClient;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  const lib = await admin.post('/scripts', {
    label: 'Memo rules',
    type: 'library',
    active: true,
    script: LIBRARY,
    configuration: { export: 'c_memo_rules' },
  });
  expect(lib.statusCode, lib.body).toBe(200);
  for (const [name, script, event] of [
    ['c_memo_before', UPDATE_BEFORE, 'update.before'],
    ['c_memo_after', UPDATE_AFTER, 'update.after'],
  ] as const) {
    const res = await admin.post('/scripts', {
      label: name,
      name,
      type: 'trigger',
      active: true,
      script,
      configuration: { object: 'c_conversation', event },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 60_000);
afterAll(async () => h.close());

const titleOf = async (id: string) => (await admin.get(`/c_conversations/${id}`)).json().c_title as string;

describe('a write’s trigger memo', () => {
  it('carries what the before triggers leave to the after triggers of the same write', async () => {
    const made = await admin.post('/c_conversations', { c_title: 'hello' });
    expect(made.statusCode, made.body).toBe(200);
    await afterTriggersSettled(h.svc);
    // Both before triggers ran (seen 2: the second read the first's memo), then the after trigger.
    expect(await titleOf(made.json()._id as string)).toBe('hello #2');
  });

  it('reaches script.arguments.memo of trigger records (update)', async () => {
    const id = (await admin.post('/c_conversations', { c_title: 'one' })).json()._id as string;
    await afterTriggersSettled(h.svc);
    const res = await admin.patch(`/c_conversations/${id}`, { c_title: 'two' });
    expect(res.statusCode, res.body).toBe(200);
    await afterTriggersSettled(h.svc);
    expect(await titleOf(id)).toBe('two #was one #2');
  });

  it('is each write’s own when writes run in parallel', async () => {
    const titles = Array.from({ length: 6 }, (_, i) => `parallel ${i}`);
    const made = await Promise.all(titles.map((c_title) => admin.post('/c_conversations', { c_title })));
    await afterTriggersSettled(h.svc);
    for (const [i, res] of made.entries()) {
      expect(res.statusCode, res.body).toBe(200);
      expect(await titleOf(res.json()._id as string)).toBe(`${titles[i]} #2`);
    }
  });

  it('refuses a memo past its limit: the before trigger fails and nothing is written', async () => {
    const res = await admin.post('/c_conversations', { c_title: 'big' });
    expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.tooLarge.trigger.memo' });
    const found = await admin.get(`/c_conversations?where=${encodeURIComponent(JSON.stringify({ c_title: 'big' }))}`);
    expect(found.json().data).toEqual([]);
  });
});
