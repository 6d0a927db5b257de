/**
 * The script-side API against fake host functions: cursors paging through a driver, the write
 * operations' options, script.exit and return, console capture, the request module, traces with
 * script lines, host faults catchable in the script, tokens and script.as.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fault } from '../../../src-shared/faults.js';
import { ScriptRunner } from './runner.js';
import type { HostCallContext, RunResult } from './run-types.js';
import { checkSyntax } from './syntax.js';

let runner: ScriptRunner;
beforeAll(async () => {
  runner = new ScriptRunner({ poolSize: 2 });
  await runner.ready();
});
afterAll(async () => {
  await runner.close();
});

function valueOf(r: RunResult): unknown {
  if (!r.ok) throw new Error(`run failed: ${JSON.stringify(r.fault)}`);
  return r.value;
}

interface DriverCall {
  object: string;
  operation: string;
  options: Record<string, unknown>;
  /** A cursor page's continuation (the previous page's `next`). */
  after?: unknown;
}

/** A driver over 250 numbered records that answers pages like the list envelope. */
function fakeDriver(calls: DriverCall[]) {
  const records = Array.from({ length: 250 }, (_, i) => ({ _id: `r${i}`, n: i }));
  return (object: unknown, operation: unknown, options: unknown, after?: unknown) => {
    const o = options as Record<string, unknown>;
    calls.push({ object: String(object), operation: String(operation), options: o, after });
    if (operation === 'cursor') {
      // As the service pages: the first page from skip, the next ones after the key of the last
      // record read (`next`, given back as the fourth argument).
      const from = Array.isArray(after) ? Number(after[0]) + 1 : Number(o.skip ?? 0);
      const limit = Number(o.limit ?? 100);
      const data = records.slice(from, from + limit);
      const hasMore = from + limit < records.length;
      return { object: 'list', data, hasMore, ...(hasMore ? { next: [from + data.length - 1] } : {}) };
    }
    if (operation === 'count') return records.length;
    if (operation === 'readOne') return { _id: 'r1', n: 1, paths: o.paths };
    return { operation, options: o };
  };
}

describe('script API', () => {
  it('returns a top-level value, and script.exit ends the run with its value', async () => {
    expect(valueOf(await runner.run({ source: 'const a = 20;\nreturn { sum: a + 22 }' }))).toEqual({ sum: 42 });
    const exited = await runner.run({
      source: 'script.exit("early");\nreturn "late"',
    });
    expect(valueOf(exited)).toBe('early');
    // Catching the exit does not resume the script: the run ends with the exit value, not in the
    // loop after it (that would end in a timeout fault).
    const caught = await runner.run({ source: 'try { script.exit(1) } catch (e) { }\nwhile (true) {}' });
    expect(valueOf(caught)).toBe(1);
  });

  it('exposes arguments, principal, env and org', async () => {
    const r = await runner.run({
      source: 'return [script.arguments.x, script.principal.email, script.env.url, script.org.code, script.org._id]',
      context: {
        arguments: { x: 5 },
        principal: { _id: 'p1', email: 'a@b.c', name: {}, roles: [] },
        env: { url: 'https://api.local/acme/v2' },
        org: { _id: 'o1', code: 'acme' },
      },
    });
    expect(valueOf(r)).toEqual([5, 'a@b.c', 'https://api.local/acme/v2', 'acme', 'o1']);
  });

  it('captures console output by level', async () => {
    const r = await runner.run({
      source: 'console.log("a", 1, {b: 2}); console.warn("w"); console.error(new Error("e")); return 0',
    });
    expect(r.logs).toEqual([
      { level: 'log', message: 'a 1 {"b":2}' },
      { level: 'warn', message: 'w' },
      { level: 'error', message: 'Error: e' },
    ]);
  });

  it('require("request") reads headers case-insensitively, body, method, path, query, params; other modules throw', async () => {
    const r = await runner.run({
      source: `const req = require('request');
        let other; try { require('fs') } catch (e) { other = e.errCode }
        return [req.getHeader('Service-Client-Key'), req.getHeader('x-none'), req.body, req.method, req.path, req.query, req.params, other]`,
      context: {
        request: {
          method: 'POST',
          path: '/acme/v2/routes/x/7',
          headers: { 'Service-Client-Key': 'key1' },
          body: { a: 1 },
          query: { q: '1' },
          params: { id: '7' },
        },
      },
    });
    expect(valueOf(r)).toEqual([
      'key1',
      null,
      { a: 1 },
      'POST',
      '/acme/v2/routes/x/7',
      { q: '1' },
      { id: '7' },
      // Without the service's library host, a name that is no built-in module cannot be looked up.
      'service.notImplemented.script.host',
    ]);
  });

  it('find() cursors page lazily through the driver with the driver option names', async () => {
    const calls: DriverCall[] = [];
    const r = await runner.run({
      source: `const c = org.objects.c_things.find({ n: { $gte: 0 } }).sort({ n: 1 }).paths('n').skipAcl().grant(4);
        const first = c.next();
        return { first, all: c.toArray().length }`,
      host: { driver: fakeDriver(calls) },
      limits: { cursorPageSize: 100 },
    });
    const v = valueOf(r) as { first: unknown; all: number };
    expect(v.first).toEqual({ _id: 'r0', n: 0 });
    expect(v.all).toBe(249);
    // Each page continues after the last record read (keyset), never from a growing skip.
    expect(calls.map((c) => [c.object, c.operation, c.options.skip, c.options.limit, c.after])).toEqual([
      ['c_things', 'cursor', undefined, 100, undefined],
      ['c_things', 'cursor', undefined, 100, [99]],
      ['c_things', 'cursor', undefined, 100, [199]],
    ]);
    expect(calls[0]!.options).toMatchObject({
      where: { n: { $gte: 0 } },
      sort: { n: 1 },
      paths: ['n'],
      skipAcl: true,
      grant: 4,
    });
  });

  it('a cursor honours limit and skip, hasNext, and fetches nothing until read', async () => {
    const calls: DriverCall[] = [];
    const r = await runner.run({
      source: `const c = org.objects.account.find().skip(10).limit(5);
        const out = [];
        while (c.hasNext()) out.push(c.next().n);
        return out`,
      host: { driver: fakeDriver(calls) },
    });
    expect(valueOf(r)).toEqual([10, 11, 12, 13, 14]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.options).toMatchObject({ skip: 10, limit: 5 });
    const lazy = await runner.run({
      source: 'org.objects.things.find(); return 1',
      host: { driver: fakeDriver(calls) },
    });
    expect(valueOf(lazy)).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('readOne, count and the write operations end in one driver call each', async () => {
    const calls: DriverCall[] = [];
    const r = await runner.run({
      source: `const o = org.objects.c_things;
        return [
          o.readOne({ n: 1 }).paths('n').execute(),
          o.count({ n: 1 }),
          o.insertOne({ n: 1 }).execute(),
          o.insertMany([{ n: 1 }, { n: 2 }]).execute(),
          o.updateOne({ n: 1 }, { $set: { n: 2 } }).execute(),
          o.patchOne('r1', [{ op: 'set', value: { n: 3 } }]).execute(),
          o.deleteOne({ n: 1 }).execute(),
          o.deleteMany({ n: 1 }).execute(),
        ].length`,
      host: { driver: fakeDriver(calls) },
    });
    expect(valueOf(r)).toBe(8);
    expect(calls.map((c) => [c.operation, c.options])).toEqual([
      ['readOne', { where: { n: 1 }, paths: ['n'] }],
      ['count', { where: { n: 1 } }],
      ['insertOne', { document: { n: 1 } }],
      ['insertMany', { documents: [{ n: 1 }, { n: 2 }] }],
      ['updateOne', { match: { n: 1 }, update: { $set: { n: 2 } } }],
      ['patchOne', { match: 'r1', ops: [{ op: 'set', value: { n: 3 } }] }],
      ['deleteOne', { match: { n: 1 } }],
      ['deleteMany', { match: { n: 1 } }],
    ]);
  });

  it('host faults are catchable in the script with code, errCode and reason', async () => {
    const r = await runner.run({
      source: `try { org.objects.secrets.find().toArray() } catch (e) { return [e.code, e.errCode, e.reason, e.status, e instanceof Error] }`,
      host: {
        driver: () => {
          throw fault('accessDenied', 'acl', { reason: 'No read access.' });
        },
      },
    });
    expect(valueOf(r)).toEqual(['kAccessDenied', 'service.accessDenied.acl', 'No read access.', 403, true]);
  });

  it('an uncaught host fault ends the run with that fault and a trace to the script line', async () => {
    const r = await runner.run({
      source: 'const x = 1;\n\nfunction load() {\n  return org.objects.secrets.count()\n}\nreturn load()',
      host: {
        driver: () => {
          throw fault('notFound', 'object', { reason: 'No such object.' });
        },
      },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.fault).toMatchObject({
      errCode: 'service.notFound.object',
      code: 'kNotFound',
      status: 404,
      reason: 'No such object.',
    });
    expect(r.fault.trace).toBe('Error: No such object.\n\tload Script:4\n\tmain Script:6');
  });

  it('a script error becomes service.invalidArgument.script with the line in its trace', async () => {
    const r = await runner.run({ source: 'const a = 1;\nconst b = 2;\n\n\n\n\n\nthrow new Error("bad thing")' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.fault).toMatchObject({
      name: 'error',
      errCode: 'service.invalidArgument.script',
      status: 400,
      reason: 'bad thing',
    });
    expect(r.fault.trace).toBe('Error: bad thing\n\tmain Script:8');
    const te = await runner.run({ source: '\nnull.x' });
    expect(!te.ok && te.fault.trace).toBe("TypeError: cannot read property 'x' of null\n\tmain Script:2");
    const syntax = await runner.run({ source: 'let x = ;' });
    expect(!syntax.ok && syntax.fault.errCode).toBe('service.invalidArgument.script');
  });

  it('an unknown host call is a notImplemented fault; host internals are not shown', async () => {
    const r = await runner.run({
      source: `let a, b;
        try { org.objects.accounts.createAuthToken('k', 's') } catch (e) { a = e.errCode }
        try { org.objects.things.count() } catch (e) { b = [e.errCode, e.reason] }
        return [a, b]`,
      host: {
        driver: () => {
          throw new Error('SQLITE_ERROR near "SELECT" in /secret/path.db');
        },
      },
    });
    expect(valueOf(r)).toEqual([
      'service.notImplemented.script.host',
      ['service.error.script.host', 'The host operation failed.'],
    ]);
  });

  it('token operations map to tokens.* host calls', async () => {
    const seen: unknown[] = [];
    const r = await runner.run({
      source: `const a = org.objects.accounts;
        const jwt = a.createAuthToken(require('request').getHeader('service-client-key'), script.principal._id, { permanent: true, scope: ['*'], includeEmail: true });
        return [jwt, a.getSubjectTokens('k', 's'), a.revokeAuthToken('jti1'), org.objects.account.revokeSubjectTokens('k', 's')]`,
      context: { principal: { _id: 'p1' }, request: { headers: { 'Service-Client-Key': 'app1' } } },
      host: {
        'tokens.create': (...args) => (seen.push(['create', ...args]), 'eyJ.jwt'),
        'tokens.list': (...args) => (seen.push(['list', ...args]), [{ jti: 'j' }]),
        'tokens.revoke': (...args) => (seen.push(['revoke', ...args]), true),
        'tokens.revokeSubject': (...args) => (seen.push(['revokeSubject', ...args]), 2),
      },
    });
    expect(valueOf(r)).toEqual(['eyJ.jwt', [{ jti: 'j' }], true, 2]);
    expect(seen[0]).toEqual(['create', 'app1', 'p1', { permanent: true, scope: ['*'], includeEmail: true }]);
  });

  it('script.as asks the host, runs fn as the returned principal, and host calls see it', async () => {
    const seenAs: unknown[] = [];
    const r = await runner.run({
      source: `const inside = script.as('other@x', { safe: false }, () => [script.principal._id, org.objects.x.count()]);
        let refused; try { script.as('root', {}, () => 1) } catch (e) { refused = e.errCode }
        return [inside, script.principal._id, org.objects.x.count(), refused]`,
      context: { principal: { _id: 'me' } },
      host: {
        as(principal) {
          if (principal === 'root') throw fault('accessDenied', 'script.as');
          return { _id: 'other' };
        },
        driver(this: HostCallContext) {
          seenAs.push(this.asPrincipal ?? null);
          return seenAs.length;
        },
      },
    });
    expect(valueOf(r)).toEqual([['other', 1], 'me', 2, 'service.accessDenied.script.as']);
    expect(seenAs).toEqual([{ _id: 'other' }, null]);
  });

  it('host functions may be async (e.g. awaiting the data layer)', async () => {
    const r = await runner.run({
      source: 'return org.objects.x.count() + 1',
      host: { driver: async () => new Promise((res) => setTimeout(() => res(41), 20)) },
    });
    expect(valueOf(r)).toBe(42);
  });

  it('reports stats', async () => {
    const calls: DriverCall[] = [];
    const r = await runner.run({
      source: 'return org.objects.x.find().limit(3).toArray().length',
      host: { driver: fakeDriver(calls) },
    });
    expect(r.stats.operations).toBe(1);
    expect(r.stats.bytesIn).toBeGreaterThan(10);
    expect(r.stats.bytesOut).toBeGreaterThan(30);
    expect(r.stats.elapsedMs).toBeGreaterThan(0);
    expect(r.stats.cpuMs).toBeGreaterThan(0);
    expect(r.stats.memoryPeakBytes).toBeGreaterThan(0);
    expect(r.stats.callouts).toBe(0);
  });
});

describe('checkSyntax', () => {
  it('accepts a valid script with top-level return', async () => {
    expect(await checkSyntax('const a = 1;\nreturn a')).toEqual({ ok: true });
  });
  it('reports line and column of a syntax error', async () => {
    const r = await checkSyntax('const a = 1;\nconst b = ;\n');
    expect(r).toMatchObject({ ok: false, line: 2 });
    expect(!r.ok && r.message).toMatch(/SyntaxError/);
    const first = await checkSyntax('let x = )');
    expect(first).toMatchObject({ ok: false, line: 1, column: 9 });
  });
  it('refuses an oversize script', async () => {
    expect(await checkSyntax('x'.repeat(50_001))).toMatchObject({ ok: false });
  });
});
