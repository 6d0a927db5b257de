/**
 * Issue 41: a decorated trigger's `if` (the original's aggregation expression over the record,
 * `'$c_x'` for a property) decides whether it runs, evaluated by the pipeline language's
 * in-memory evaluator; what that language cannot read (`$find`, `$$variables`, a non-literal
 * `if`), an unknown property, and any `@trigger` option this service does not read (`memo`,
 * `environment`…) refuse the library's save with a fault naming it — never a trigger that runs always.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { initialDefinitions } from '../objects/builtin-defs.js';
import type { FaultError } from '../../../src-shared/faults.js';
import { conditionHolds, parseTriggerCondition, triggerCondition } from './trigger-condition.js';

const CONVERSATION_DEF = initialDefinitions().find((d) => d.name === 'c_conversation')!;

describe('parseTriggerCondition and conditionHolds', () => {
  const holds = (value: unknown, doc: Record<string, unknown>) =>
    conditionHolds({ expr: parseTriggerCondition(CONVERSATION_DEF, value) }, { _id: 'x', ...doc });

  it.each([
    [{ $eq: ['$c_status', 'open'] }, { c_status: 'open' }, true],
    [{ $eq: ['$c_status', 'open'] }, { c_status: 'closed' }, false],
    [{ $eq: ['$c_status', 'open'] }, {}, false],
    [{ $not: [{ $eq: ['$c_title', 'Brian'] }] }, { c_title: 'Charles' }, true],
    [{ $cond: { if: { $eq: ['$c_title', 'a'] }, then: false, else: true } }, { c_title: 'a' }, false],
    [{ $or: [{ $eq: ['$c_title', 'John'] }, { $eq: ['$c_title', 'Paul'] }] }, { c_title: 'Paul' }, true],
    [{ $gt: [{ $size: '$c_participants' }, 1] }, { c_participants: ['a', 'b'] }, true],
    [true, {}, true],
    [false, { c_status: 'open' }, false],
  ])('%j over %j is %s', (value, doc, expected) => {
    expect(holds(value, doc)).toBe(expected);
  });

  const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
  const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
  // The original's operators its expression engine alone has (evaluate-evaluator-only.ts).
  it.each([
    [{ $toBool: '$c_title' }, { c_title: 'x' }, true],
    [{ $toBool: '$c_title' }, { c_title: '' }, false],
    [{ $toBool: '$c_title' }, {}, false],
    [{ $toBool: [0] }, {}, false],
    [
      { $toBool: { $find: { input: '$c_participants', as: 'e', cond: { $eq: ['$$e', { $objectId: B }] } } } },
      { c_participants: [A, B] },
      true,
    ],
    [
      { $toBool: { $find: { input: '$c_participants', cond: { $eq: ['$$this', { $objectId: B }] } } } },
      { c_participants: [A] },
      false,
    ],
    [
      { $eq: [{ $find: { input: '$c_participants', cond: { $ne: ['$$this', { $objectId: A }] } } }, { $objectId: B }] },
      { c_participants: [A, B] },
      true,
    ],
    [{ $toBool: { $find: { input: '$c_participants', cond: true } } }, {}, false],
    [
      {
        $eq: [
          { $reduce: { input: '$c_participants', initialValue: '', in: { $concat: ['$$value', '$$this'] } } },
          A + B,
        ],
      },
      { c_participants: [A, B] },
      true,
    ],
    [
      { $eq: [{ $reduce: { input: '$c_participants', initialValue: 0, in: { $add: ['$$value', 1] } } }, 3] },
      { c_participants: [A, B, A] },
      true,
    ],
    [{ $eq: ['$$ROOT.c_title', 'a'] }, { c_title: 'a' }, true],
    [{ $eq: ['$$CURRENT.c_title', 'a'] }, { c_title: 'b' }, false],
    [{ $eq: ['$ROOT.c_title', 'a'] }, { c_title: 'a' }, true],
    [{ $eq: ['$$ROOT._id', { $objectId: A }] }, {}, false],
    [{ $toBool: '$$ROOT' }, {}, true],
    [{ $let: { vars: { t: '$c_title' }, in: { $eq: ['$$t', 'a'] } } }, { c_title: 'a' }, true],
    [{ $let: { vars: { t: { $concat: ['$c_title', '!'] } }, in: { $eq: ['$$t', 'a'] } } }, { c_title: 'a' }, false],
    [{ $eq: [{ $concat: ['publish_', '$ROOT._id'] }, 'publish_x'] }, {}, true],
  ])('%j over %j is %s', (value, doc, expected) => {
    expect(holds(value, doc)).toBe(expected);
  });

  it('$cache reads the cache it is given, by text keys only; a missing key is null', () => {
    const expr = parseTriggerCondition(CONVERSATION_DEF, {
      $ne: [{ $cache: { $concat: ['publish_', '$ROOT._id'] } }, true],
    });
    const cache = (values: Record<string, unknown>) => (key: string) => values[key];
    expect(conditionHolds({ expr }, { _id: 'r1' }, cache({}))).toBe(true);
    expect(conditionHolds({ expr }, { _id: 'r1' }, cache({ publish_r1: true }))).toBe(false);
    expect(conditionHolds({ expr }, { _id: 'r2' }, cache({ publish_r1: true }))).toBe(true);
    expect(conditionHolds({ expr }, { _id: 'r1' }, cache({ publish_r1: false }))).toBe(true);
    expect(conditionHolds({ expr }, { _id: 'r1' })).toBe(true);
    const notText = parseTriggerCondition(CONVERSATION_DEF, { $toBool: { $cache: { $size: '$c_participants' } } });
    expect(conditionHolds({ expr: notText }, { _id: 'r1', c_participants: [] }, () => true)).toBe(false);
  });

  it('bounds $find and $reduce by the array size, and the evaluation by its steps', () => {
    const find = parseTriggerCondition(CONVERSATION_DEF, {
      $toBool: { $find: { input: '$c_participants', cond: false } },
    });
    const many = (n: number) => ({ _id: 'x', c_participants: Array.from({ length: n }, () => A) });
    expect(conditionHolds({ expr: find }, many(1000))).toBe(false);
    expect(() => conditionHolds({ expr: find }, many(1001))).toThrow('at most 1000 elements; this one has 1001');
    // 1000 × 1000 inner steps: refused past the step budget, never a hang.
    const nested = parseTriggerCondition(CONVERSATION_DEF, {
      $toBool: {
        $reduce: {
          input: '$c_participants',
          initialValue: 0,
          in: { $reduce: { input: '$c_participants', initialValue: 0, in: { $add: ['$$value', 1] } } },
        },
      },
    });
    try {
      conditionHolds({ expr: nested }, many(1000));
      expect.unreachable();
    } catch (e) {
      expect((e as FaultError).fault).toMatchObject({
        errCode: 'service.validation.trigger.if',
        path: 'if',
        reason: expect.stringContaining('at most 100000 steps'),
      });
    }
  });

  it.each([
    [{ $eq: ['$c_nothing', 'a'] }, 'c_nothing'],
    [{ $expression: 'Config.IF' }, 'Config.IF is not a literal'],
    [{ $eq: ['$$nothing', 'a'] }, '$$nothing is not a variable here ($$ROOT, $$CURRENT)'],
    [{ $eq: ['$$this', 'a'] }, '$$this is not a variable here'],
    [{ $find: { input: '$c_title', cond: true } }, '$find takes an array as input'],
    [{ $find: { input: '$c_participants', as: 'Bad', cond: true } }, 'Bad is not a variable name'],
    [{ $find: { input: '$c_participants' } }, '$find takes cond'],
    [{ $reduce: { input: '$c_participants', initialValue: '', in: 'x', extra: 1 } }, '$reduce does not take extra'],
    [{ $let: { vars: [], in: true } }, '$let takes vars as an object'],
    [{ $toBool: [1, 2] }, '$toBool takes 1 argument'],
    [{ $dbNext: { object: 'c_conversation' } }, '$dbNext'],
  ])('refuses %j, naming %s', (value, named) => {
    try {
      parseTriggerCondition(CONVERSATION_DEF, value);
      expect.unreachable();
    } catch (e) {
      expect((e as FaultError).fault).toMatchObject({ errCode: 'service.validation.trigger.if', path: 'if' });
      expect((e as FaultError).fault.reason).toContain(named);
    }
  });

  it('a condition that no longer parses answers its fault when the trigger would run', () => {
    const condition = triggerCondition(undefined, { $eq: ['$c_status', 'open'] });
    expect(() => conditionHolds(condition, { _id: 'x' })).toThrow('one object type');
    const unread = triggerCondition(undefined, undefined, 'environment');
    expect(() => conditionHolds(unread, { _id: 'x' })).toThrow('option environment is not supported');
  });
});

let h: Harness;
let admin: TestClient;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
}, 60_000);
afterAll(async () => h.close());

const library = (options: string, body = "body('c_status', 'closed')") => `import { trigger } from 'decorators'
class Rules {
  @trigger('create.before', ${options})
  static close({ body }) { ${body} }
}
module.exports = Rules`;

const save = (name: string, script: string) =>
  admin.post('/scripts', { label: name, name, type: 'library', active: true, script, configuration: { export: name } });

describe('@trigger if in a library', () => {
  it('runs the method only for records the expression holds for', async () => {
    const saved = await save(
      'c_if_lib',
      library("{ object: 'c_conversation', if: { $eq: ['$c_title', 'close me'] } }"),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const closed = await admin.post('/c_conversations', { c_title: 'close me' });
    expect(closed.json(), closed.body).toMatchObject({ c_status: 'closed' });
    const left = await admin.post('/c_conversations', { c_title: 'leave me' });
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json().c_status).toBeUndefined();
    await admin.delete(`/scripts/${saved.json()._id}`);
  });

  it("reads a constant of an imported library when saved, again when that library changes, and $cache in the write's org", async () => {
    const keys = await save('c_if_keys', "export default { KEYS: { PUBLISH: 'publish_' } }");
    expect(keys.statusCode, keys.body).toBe(200);
    const source = `import { trigger } from 'decorators'
import Keys from 'c_if_keys'
class Rules {
  @trigger('update.before', { object: 'c_conversation', if: { $ne: [{ $cache: { $concat: [Keys.KEYS.PUBLISH, '$ROOT._id'] } }, true] } })
  static close({ context }) { context.update('c_status', 'closed') }
}
module.exports = Rules`;
    const lib = await save('c_if_cache', source);
    expect(lib.statusCode, lib.body).toBe(200);
    const [a, b] = [
      (await admin.post('/c_conversations', { c_title: 'a' })).json()._id as string,
      (await admin.post('/c_conversations', { c_title: 'b' })).json()._id as string,
    ];
    const cacheSet = await admin.post('/sys/script_runner', {
      script: `require('cache').set('publish_${a}', true); require('cache').set('other_${b}', true)`,
    });
    expect(cacheSet.statusCode, cacheSet.body).toBe(200);
    const status = async (id: string) => {
      const res = await admin.patch(`/c_conversations/${id}`, { c_title: 'again' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().c_status as string | undefined;
    };
    expect(await status(a)).toBeUndefined();
    expect(await status(b)).toBe('closed');
    // The constants library changes: the trigger reads the new value from then on.
    const changed = await admin.patch(`/scripts/${keys.json()._id}`, {
      script: "export default { KEYS: { PUBLISH: 'other_' } }",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await admin.patch(`/c_conversations/${b}`, { c_status: 'open' });
    expect(await status(a)).toBe('closed');
    expect(await status(b)).toBe('open');
    // The constants library removed: the trigger answers the fault rather than running always.
    await admin.delete(`/scripts/${keys.json()._id}`);
    const orphan = await admin.patch(`/c_conversations/${a}`, { c_title: 'orphan' });
    expect(orphan.statusCode, orphan.body).toBe(400);
    expect(orphan.json()).toMatchObject({ errCode: 'service.validation.trigger.if', path: 'if' });
    expect(orphan.json().reason).toContain('Keys.KEYS.PUBLISH is not a literal');
    await admin.delete(`/scripts/${lib.json()._id}`);
    expect((await admin.patch(`/c_conversations/${a}`, { c_title: 'free' })).statusCode).toBe(200);
  });

  it.each([
    [{ $cache: { $literal: 'publish_x' } }, '$cache'],
    [{ $toBool: '$$ROOT' }, '$toBool'],
    [{ $find: { input: 'c_participants', cond: true } }, '$find'],
  ])("GET ?pipeline= refuses %j, a trigger's if alone evaluates it (400, naming it)", async (expr, op) => {
    const pipeline = encodeURIComponent(JSON.stringify([{ $project: { x: expr } }]));
    const res = await admin.get(`/c_conversations?pipeline=${pipeline}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.unsupportedOperation', path: `pipeline[0].$project.x.${op}` });
  });

  it.each([
    ["{ object: 'c_conversation', memo: true }", 'the option memo is not supported'],
    ["{ object: 'c_conversation', paths: 'c_title' }", 'paths: A trigger'],
    ["{ object: 'c_conversation', environment: 'production' }", 'the option environment is not supported'],
    ["{ object: 'c_conversation', if: { $pathTo: ['$c_title', 'a'] } }", '$pathTo'],
    ["{ object: '*', if: { $eq: ['$c_title', 'a'] } }", 'one object type'],
    ["{ object: 'c_conversation', if: Config.CONDITION }", 'Config.CONDITION is not a literal'],
  ])('refuses %s on save, naming it', async (options, named) => {
    const res = await save('c_if_bad', library(options));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().reason).toContain('Line 3');
    expect(res.json().reason).toContain(named);
  });
});
