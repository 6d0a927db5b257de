/** The built-in modules one by one (issue 40), through the runner of a real service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';

let h: Harness;
let admin: TestClient;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

const run = async (script: string) => {
  const res = await admin.post('/sys/script_runner', { script });
  return res.json() as Record<string, unknown> & { data?: unknown };
};

async function library(name: string, script: string, extra: Record<string, unknown> = {}) {
  const res = await admin.post('/scripts', {
    label: name,
    name,
    type: 'library',
    active: true,
    script,
    configuration: { export: name },
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('Fault', () => {
  it('takes a code, an errCode of any namespace, the vendor word, and options', async () => {
    expect(
      (
        await run(`return [
          Fault.create('kNotFound', 'gone'), Fault.create('cortex.accessDenied.thing'),
          Fault.create('kInvalidArgument', { errCode: 'cortex.invalidArgument.updateDisabled', reason: 'r', path: 'p' }),
          Fault.create('script.invalidArgument.unspecified', { reason: 'x' }), new Fault('app.custom', 'y')
        ].map(f => [f.errCode, f.code, f.status, f.reason || null, f instanceof Error, f.path || null])`)
      ).data,
    ).toEqual([
      ['service.notFound.unspecified', 'kNotFound', 404, 'gone', true, null],
      ['service.accessDenied.thing', 'kAccessDenied', 403, null, true, null],
      ['service.invalidArgument.updateDisabled', 'kInvalidArgument', 400, 'r', true, 'p'],
      ['script.invalidArgument.unspecified', 'kInvalidArgument', 400, 'x', true, null],
      ['app.custom', 'kError', 500, 'y', true, null],
    ]);
  });

  it('thrown, keeps its errCode, code and status in the answer', async () => {
    expect(await run("throw Fault.create('kNotFound', { reason: 'no thing', path: 'c_thing' })")).toMatchObject({
      errCode: 'service.notFound.unspecified',
      code: 'kNotFound',
      status: 404,
      reason: 'no thing',
      path: 'c_thing',
    });
  });
});

describe('util and decorator-utils', () => {
  it('util.values, util.id and util.paths', async () => {
    const r = await run(`
      const { values, id, paths } = require('util')
      const o = {}
      paths.to(o, 'a.b', 3)
      return [values.rInt('12', 0), values.rBool('x', false), values.clamp(9, 0, 5), values.isPlainObject({}),
        id.equalIds('aaaaaaaaaaaaaaaaaaaaaaaa', { _id: 'AAAAAAAAAAAAAAAAAAAAAAAA' }), id.isIdFormat(id.createId()),
        id.uniqueIdArray(['aaaaaaaaaaaaaaaaaaaaaaaa', 'AAAAAAAAAAAAAAAAAAAAAAAA']).length, paths.to(o, 'a.b'),
        paths.to({}, '__proto__.x', 1) && ({}).x === undefined]`);
    expect(r.data).toEqual([12, false, 5, true, true, true, 1, 3, true]);
  });

  it('decorate builds decorators used bare and with options, on methods and classes', async () => {
    const r = await run(`
      import { decorate } from 'decorator-utils'
      const seen = []
      function tag(...args) {
        // On a class the handler gets (Class, options); on a method (target, key, descriptor, options).
        return decorate((target, key, descriptor, options) => {
          seen.push(descriptor === undefined ? [target.name, key.length] : [key, options.length])
          return descriptor
        }, args)
      }
      @tag('on-class')
      class A {
        @tag
        bare() {}
        @tag('x', { y: 1 })
        withOptions() {}
      }
      return seen`);
    expect(r.data).toEqual([
      ['bare', 0],
      ['withOptions', 2],
      ['A', 1],
    ]);
  });

  it('@log writes one console line per call with its timing', async () => {
    const res = await admin.post('/sys/script_runner', {
      script: `const { log } = require('decorators')
        class C { @log({ traceResult: true }) static twice(n) { return n * 2 } }
        return C.twice(21)`,
    });
    expect(res.json().data).toBe(42);
  });
});

describe('library scripts as modules', () => {
  it('cycles see the partial exports, as CommonJS; each module is evaluated once per run', async () => {
    await library(
      'c_cycle_a',
      "exports.name = 'a'\nconst b = require('c_cycle_b')\nexports.seen = b.seenA\nexports.count = (exports.count || 0) + 1",
    );
    await library('c_cycle_b', "const a = require('c_cycle_a')\nexports.seenA = a.name");
    expect((await run("const a = require('c_cycle_a'); require('c_cycle_a'); return [a.seen, a.count]")).data).toEqual([
      'a',
      1,
    ]);
  });

  it('an inactive library is not found; a missing one is kNotFound naming it', async () => {
    await library('c_inactive', 'module.exports = 1', { active: false });
    expect(await run("require('c_inactive')")).toMatchObject({ errCode: 'service.notFound.module', code: 'kNotFound' });
    expect(await run("require('c_missing_module')")).toMatchObject({ path: 'c_missing_module' });
  });

  it('a decorated route clashing with an existing route is refused at save', async () => {
    await library(
      'c_route_one',
      "import { route } from 'decorators'\nclass A { @route('GET clash/:x') static a() {} }",
    );
    const res = await admin.post('/scripts', {
      label: 'two',
      type: 'library',
      script: "import { route } from 'decorators'\nclass B { @route('GET clash/:y') static b() {} }",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.validation.conflict', path: 'script' });
  });
});

describe('config, cache, counters, crypto, notifications, sys', () => {
  it('config refuses bad keys and keeps values per org', async () => {
    expect(await run("require('config').set('bad key', 1)")).toMatchObject({ errCode: 'service.invalidArgument.key' });
    await run("require('config').set('c_cfg', { a: [1, 2] })");
    expect(
      (await run("const c = require('config'); return [c.get('c_cfg.a'), c.keys().includes('c_cfg')]")).data,
    ).toEqual([[1, 2], true]);
  });

  it('cache entries expire with their time to live (the service clock)', async () => {
    await run("require('cache').set('c_ttl', 'v', 10)");
    expect((await run("return require('cache').get('c_ttl')")).data).toBe('v');
    h.clock.advance(11_000);
    expect((await run("return require('cache').get('c_ttl')")).data).toBeNull();
  });

  it('crypto refuses unknown digests; notifications go to the outbox', async () => {
    expect(await run("require('crypto').createHash('md4').update('x').digest('hex')")).toMatchObject({
      errCode: 'service.invalidArgument.crypto',
    });
    expect(
      (await run("return require('notifications').send('c_welcome', { n: 1 }, { recipient: 'someone@example.test' })"))
        .data,
    ).toBe(true);
    const outbox = await admin.get('/outbox');
    expect(JSON.stringify(outbox.json())).toContain('someone@example.test');
  });

  it('sys.tail answers a tail, which the runner streams only as NDJSON; CortexObject reaches org.objects', async () => {
    // The stream itself: logs/tail.test.ts. Without Accept: application/x-ndjson it says how to ask.
    expect(await run("return sys.tail('console')")).toMatchObject({ errCode: 'service.invalidArgument.tail' });
    expect(await run("return sys.tail('syslog')")).toMatchObject({ errCode: 'service.invalidArgument.tail' });
    expect(
      (
        await run(
          'class Conversations extends CortexObject { static objectName = "c_conversations" }\nreturn typeof Conversations.find().toArray',
        )
      ).data,
    ).toBe('function');
  });
});

describe('wrapped', () => {
  it("applies the Atom dev tools' options to org.objects[name].find, reads only", async () => {
    for (const t of ['w1', 'w2', 'w3'])
      expect((await admin.post('/c_conversations', { c_title: t })).statusCode).toBe(200);
    const r = await run(`
      const w = require('wrapped')('c_conversation', { paths: 'c_title', limit: 2, sort: { c_title: -1 }, where: { c_title: { $in: ['w1', 'w2', 'w3'] } } })
      return { page: w.find().toArray(), count: w.count({ c_title: 'w1' }), ops: Object.keys(w) }`);
    // An object is answered as it is (docs/scripting.md#answers-and-errors).
    expect(r).toEqual({
      page: [expect.objectContaining({ c_title: 'w3' }), expect.objectContaining({ c_title: 'w2' })],
      count: 1,
      ops: ['find', 'count'],
    });
    expect(Object.keys((r as unknown as { page: object[] }).page[0]!).sort()).toEqual(['_id', 'c_title', 'object']);
    expect(await run("return require('wrapped')('c_nothing').find().toArray()")).toMatchObject({
      errCode: 'service.invalidArgument.object',
    });
  });
});
