/** The transpiler (issue 40): what it changes, what it keeps, where errors point, and what it costs. */
import { describe, expect, it } from 'vitest';
import { transpile, transpileStats } from './transpile.js';
import { compileScript } from './compiled-cache.js';

describe('transpile', () => {
  it('leaves a script without modules or decorators exactly as written', () => {
    const source = 'const a = 1;\nreturn a + 1';
    expect(transpile(source)).toEqual({ ok: true, code: source, transformed: false, registrations: [] });
    // An @ inside a string is only a first look: nothing to transform, the source is kept.
    const email = "return 'a@b.c'";
    expect(transpile(email)).toMatchObject({ ok: true, code: email, transformed: false });
  });

  it('turns import/export into require/exports and keeps each statement on its line', () => {
    const r = transpile("import x, { y } from 'c_lib'\n\nconst z = x + y\nthrow new Error('line 4')\nexport default z");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.transformed).toBe(true);
    expect(r.code).toContain('require("c_lib")');
    expect(r.code.split('\n').findIndex((l) => l.includes("'line 4'"))).toBe(3);
  });

  it('compiles legacy decorators and reads @route, @trigger and @job at save', () => {
    const r = transpile(
      [
        "import { route, trigger, job } from 'decorators'",
        'class A {',
        "  @route('POST things/:id', { acl: ['role.administrator'], weight: 2 })",
        '  static post() {}',
        "  @trigger('create.before', 'update.before', { object: 'c_thing', weight: 1 })",
        '  before() {}',
        "  @job('0 * * * *', { name: 'c_hourly' })",
        '  hourly() {}',
        '}',
      ].join('\n'),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.code).toContain('_applyDecoratedDescriptor');
    expect(
      r.registrations.map((x) => [x.type, x.configuration.event ?? x.configuration.path ?? x.configuration.cron]),
    ).toEqual([
      ['route', 'things/:id'],
      ['trigger', 'create.before'],
      ['trigger', 'update.before'],
      ['job', '0 * * * *'],
    ]);
    expect(r.registrations[0]).toMatchObject({
      weight: 2,
      configuration: { method: 'post', acl: ['role.administrator'] },
      metadata: { className: 'A', methodName: 'post', static: true, loc: { line: 3, column: 3 } },
    });
  });

  it('refuses a job without a 5-field cron and a route without a path, naming the line', () => {
    expect(transpile("const { job } = require('decorators')\nclass A {\n  @job('* *')\n  x() {}\n}")).toMatchObject({
      ok: false,
      line: 3,
    });
    expect(transpile("const d = require('decorators')\nclass A {\n  @d.route({})\n  x() {}\n}")).toMatchObject({
      ok: false,
      line: 3,
    });
  });

  it('names the line and column of a syntax error as written', () => {
    expect(transpile("import a from 'b'\nconst = 1")).toEqual({
      ok: false,
      line: 2,
      column: 7,
      message: expect.stringContaining('SyntaxError') as unknown,
    });
  });

  it('costs little at save: a 500-line decorated library (p50 printed, see docs/scripting.md)', () => {
    const block = (i: number) =>
      [
        `class Api${i} {`,
        `  @route('GET things${i}/:id', { acl: 'account.public' })`,
        `  static get${i}({ req }) {`,
        `    const id = req.params.id`,
        `    return org.objects.c_things.find({ _id: id }).paths('c_name').limit(10).toArray()`,
        `  }`,
        `  @trigger('create.before', { object: 'c_thing${i}', weight: ${i} })`,
        `  before${i}({ context }) {`,
        `    if (!context.c_name) throw Fault.create('kInvalidArgument', 'name')`,
        `  }`,
      ].join('\n') + '\n}\n';
    const source =
      "import { route, trigger } from 'decorators'\n" + Array.from({ length: 46 }, (_, i) => block(i)).join('');
    expect(source.split('\n').length).toBeGreaterThanOrEqual(500);
    transpile(source); // load Babel once: its cost is paid at start, not per save
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      const r = transpile(source + `\n// ${i}`);
      times.push(performance.now() - t0);
      expect(r.ok && r.registrations.length).toBe(92);
    }
    times.sort((a, b) => a - b);
    console.info(
      `transpile, 500-line decorated library: p50 ${times[4]!.toFixed(1)} ms, max ${times[8]!.toFixed(1)} ms`,
    );
  });

  it('compiles each version once: the same source again is a cache hit', () => {
    const source = "import a from 'b'\nreturn a // " + Math.random();
    const before = transpileStats.babelRuns;
    compileScript(source);
    compileScript(source);
    compileScript(source);
    expect(transpileStats.babelRuns - before).toBe(1);
  });
});
