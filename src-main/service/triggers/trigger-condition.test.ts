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

  it.each([
    [{ $toBool: { $find: { input: '$c_participants', as: 'e', cond: true } } }, '$toBool'],
    [{ $eq: ['$$ROOT.c_title', 'a'] }, 'variables are not supported'],
    [{ $eq: ['$c_nothing', 'a'] }, 'c_nothing'],
    [{ $expression: 'Config.IF' }, 'Config.IF is not a literal'],
    [{ $reduce: { input: '$c_participants', initialValue: '', in: 'x' } }, '$reduce'],
  ])('refuses %j, naming %s', (value, named) => {
    expect(() => parseTriggerCondition(CONVERSATION_DEF, value)).toThrow(named);
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

  it.each([
    ["{ object: 'c_conversation', memo: true }", 'the option memo is not supported'],
    ["{ object: 'c_conversation', paths: 'c_title' }", 'paths: A trigger'],
    ["{ object: 'c_conversation', environment: 'production' }", 'the option environment is not supported'],
    ["{ object: 'c_conversation', if: { $toBool: '$c_title' } }", '$toBool'],
    ["{ object: '*', if: { $eq: ['$c_title', 'a'] } }", 'one object type'],
    ["{ object: 'c_conversation', if: Config.CONDITION }", 'Config.CONDITION is not a literal'],
  ])('refuses %s on save, naming it', async (options, named) => {
    const res = await save('c_if_bad', library(options));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().reason).toContain('Line 3');
    expect(res.json().reason).toContain(named);
  });
});
