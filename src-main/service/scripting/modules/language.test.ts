/** Issue 40: the language (import/export, decorators) and the module system, end to end. */
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

const run = (script: string, extra: Record<string, unknown> = {}) =>
  admin.post('/sys/script_runner', { script, language: 'javascript', specification: 'es6', ...extra });

async function library(name: string, script: string) {
  const res = await admin.post('/scripts', {
    label: name,
    name,
    type: 'library',
    active: true,
    script,
    configuration: { export: name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

describe('modules', () => {
  it('imports a library by its export name, with import and require', async () => {
    await library('c_math_lib', 'export function double(x) { return x * 2 }\nexport default { triple: (x) => x * 3 }');
    const r = await run(
      "import lib, { double } from 'c_math_lib'\nconst again = require('c_math_lib')\nreturn [double(2), lib.triple(2), again.double(5)]",
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual([4, 6, 10]);
  });

  it('answers a refused module with notImplemented.module naming it', async () => {
    const r = await run("require('http')");
    expect(r.json()).toMatchObject({ errCode: 'service.notImplemented.module', status: 501 });
    expect(r.json().reason).toContain("'http'");
  });

  it('Fault.create keeps the errCode a script gives', async () => {
    const r = await run("throw Fault.create('app.someError', 'my reasons are my own')");
    expect(r.json()).toMatchObject({ errCode: 'app.someError', reason: 'my reasons are my own' });
  });

  it('loads the bundled libraries lazily', async () => {
    const r = await run(
      "const should = require('should'); const _ = require('underscore'); const moment = require('moment'); const lodash = require('lodash');\n" +
        "(1).should.equal(1); return [_.pluck([{a:1}], 'a'), lodash.chunk([1,2,3], 2), moment.utc(0).format('YYYY')]",
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual([[1], [[1, 2], [3]], '1970']);
  });

  it("loads the original's other bundled libraries by its names (bignumber, decimal, moment.timezone, …)", async () => {
    const r = await run(
      "const BigNumber = require('bignumber'); const Decimal = require('decimal');\n" +
        "const moment = require('moment.timezone'); const s = require('underscore.string'); const later = require('later');\n" +
        "const every = later.parse.text('every 15 min'); const next = later.schedule(every).next(1, new Date(Date.UTC(2026, 0, 1, 10, 7)));\n" +
        "return [new BigNumber('0.1').plus('0.2').toString(), new Decimal(1).dividedBy(3).toSignificantDigits(5).toString(),\n" +
        "  moment.tz('2026-07-01T12:00:00Z', 'America/New_York').format('HH:mm Z'), require('moment').tz === moment.tz,\n" +
        "  s.capitalize('hello'), s.numberFormat(1234567.891, 2), next.toISOString()]",
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual([
      '0.3',
      '0.33333',
      '08:00 -04:00',
      true,
      'Hello',
      '1,234,567.89',
      '2026-01-01T10:15:00.000Z',
    ]);
  });

  it('serves a route a library registers with @route', async () => {
    await library(
      'c_routes_lib',
      "import { route } from 'decorators'\nclass Api {\n  @route('GET hello/:name', { acl: 'account.public' })\n  static hello({ req }) { return 'hi ' + req.params.name }\n}\nmodule.exports = Api",
    );
    const r = await admin.get('/routes/hello/bob');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ object: 'result', data: 'hi bob' });
  });

  it('names the line and column of a syntax error as written', async () => {
    const res = await admin.post('/scripts', {
      label: 'bad',
      type: 'library',
      script: "import x from 'y'\n\nconst = 1",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toMatch(/^Line 3, column 7:/);
  });
});

describe('driver surface of the original', () => {
  it('cursor count/toList/passive/locale, insertMany(doc, doc), $push of an array, _id.equals, unknown object', async () => {
    const r = await run(`
      const { c_conversations: c } = org.objects
      const ids = c.insertMany({ c_title: 'lang-a' }, { c_title: 'lang-b' }).execute().insertedIds
      const first = c.find({ c_title: 'lang-a' }).next()
      c.updateOne({ _id: first._id }, { $push: { c_participants: [script.principal._id, first._id] } }).execute()
      const again = c.readOne({ _id: first._id }).execute()
      let unknown
      try { org.objects.obviously_not_an_object.find().next() } catch (e) { unknown = e.errCode }
      return {
        count: c.find({ c_title: { $in: ['lang-a', 'lang-b'] } }).passive().locale('en_US').count(),
        list: c.find({ c_title: 'lang-a' }).toList().data.length,
        tags: again.c_participants.length === 2 && again.c_participants[1] === first._id,
        equals: first._id.equals(again._id),
        unknown,
        n: ids === undefined ? 'none' : ids.length
      }`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      count: 2,
      list: 1,
      tags: true,
      equals: true,
      unknown: 'service.invalidArgument.object',
    });
  });

  it('reads object definitions as records and what libraries register', async () => {
    const r = await run(`
      const def = org.objects.object.find({ name: 'c_conversation' }).paths('properties.name').next()
      const rt = org.read('runtime')
      return { name: def.name, props: def.properties.map(p => p.name).includes('c_title'), routes: rt.routes.map(r => r.configuration.path) }`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ name: 'c_conversation', props: true });
    expect(r.json().routes).toContain('hello/:name');
  });

  it('createAuthToken takes an email or a principal object as well as an _id', async () => {
    const r = await run(`
      const key = require('request').getHeader('service-client-key')
      const byEmail = org.objects.accounts.createAuthToken(key, script.principal.email, { scope: ['object.read'] })
      const byObject = org.objects.accounts.createAuthToken(key, script.principal, { scope: ['object.read'] })
      return [typeof byEmail, byEmail.split('.').length, typeof byObject]`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual(['string', 3, 'string']);
  });
});

describe('runs pay nothing for the transpiler', () => {
  it('a saved library and a decorated route run without transpiling', async () => {
    const { transpileStats } = await import('../language/transpile.js');
    await library(
      'c_no_transpile',
      "import { route } from 'decorators'\nexport class Api {\n  @route('GET no-transpile', { acl: 'account.public' })\n  static get() { return 'ok' }\n}",
    );
    const before = transpileStats.babelRuns;
    for (let i = 0; i < 3; i++) {
      expect((await admin.get('/routes/no-transpile')).json()).toEqual({ object: 'result', data: 'ok' });
      expect((await run("import { Api } from 'c_no_transpile'\nreturn typeof Api")).json().data).toBe('function');
    }
    // The runner script itself is transpiled once (it is new); routes and the library never.
    expect(transpileStats.babelRuns - before).toBe(1);
  });
});

describe('@policy', () => {
  const save = (name: string, script: string) =>
    admin.post('/scripts', {
      label: name,
      name,
      type: 'library',
      active: true,
      script,
      configuration: { export: name },
    });

  it('refuses to save a @policy option this service does not apply, naming the line and the option', async () => {
    const method = await save(
      'c_policy_method',
      "const { policy, route } = require('decorators')\nclass P {\n  @route('GET c_policy_ok')\n  static ok() { return 1 }\n  @policy({ methods: ['get'], paths: '/routes/c_policy_ok', action: 'Script', if: { $eq: [1, 1] } })\n  static deny() { throw Fault.create('service.accessDenied.unspecified') }\n}\nmodule.exports = P",
    );
    expect(method.statusCode).toBe(400);
    expect(method.json()).toMatchObject({ errCode: 'service.validation.script', path: 'script' });
    expect(method.json().reason).toMatch(/^Line 5, column 3: @policy P\.deny: the option if is not supported/);
    // The class-field form the original's libraries use too.
    const field = await save(
      'c_policy_field',
      "import { policy } from 'decorators'\nexport class Q {\n  @policy\n  static p = { methods: 'get', paths: '/routes/x', action: 'Transform', transform: 'c_t' }\n}",
    );
    expect(field.statusCode).toBe(400);
    expect(field.json().reason).toMatch(/^Line 3, column 3: @policy Q\.p: the option transform is not supported/);
    // The route it guarded was not registered either.
    expect((await admin.get('/routes/c_policy_ok')).json()).toMatchObject({ errCode: 'service.notFound.route' });
  });

  it('a runner script declaring a policy still runs (nothing is registered from a run)', async () => {
    const r = await run(
      "import { policy } from 'decorators'\nclass R { @policy({ action: 'Deny' }) static p() {} }\nreturn typeof R",
    );
    expect(r.json().data).toBe('function');
  });
});

describe('@route acl entries', () => {
  it("reads the original's {type, target} objects, numeric types included; refuses what it cannot check", async () => {
    await library(
      'c_acl_numeric',
      "import { route } from 'decorators'\nexport class A {\n  @route('GET c_acl_numeric', { acl: [{ type: 3, target: 'administrator' }] })\n  static get() { return 'ok' }\n}",
    );
    expect((await admin.get('/routes/c_acl_numeric')).json()).toEqual({ object: 'result', data: 'ok' });
    const owner = await admin.post('/scripts', {
      label: 'c_acl_owner',
      name: 'c_acl_owner',
      type: 'library',
      script:
        "import { route } from 'decorators'\nexport class B {\n  @route('GET c_acl_owner', { acl: [{ type: 4 }] })\n  static get() { return 'open?' }\n}",
      configuration: { export: 'c_acl_owner' },
    });
    expect(owner.json()).toMatchObject({ errCode: 'service.validation.script', path: 'script' });
    expect(owner.json().reason).toMatch(/^Line 3, column 3: @route B\.get: acl entry type 4/);
  });
});
