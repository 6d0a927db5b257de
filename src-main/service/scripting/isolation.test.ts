/**
 * Escape attempts: nothing of Node (require, process, fetch, the file system, WebAssembly,
 * dynamic import) is reachable from a script, whatever route it takes to the global object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptRunner } from './runner.js';
import type { RunResult } from './run-types.js';

let runner: ScriptRunner;
beforeAll(async () => {
  runner = new ScriptRunner({ poolSize: 1 });
  await runner.ready();
});
afterAll(async () => {
  await runner.close();
});

function valueOf(r: RunResult): unknown {
  if (!r.ok) throw new Error(`run failed: ${JSON.stringify(r.fault)}`);
  return r.value;
}

describe('sandbox isolation', () => {
  it('the Function constructor reaches only the sandbox global', async () => {
    const r = await runner.run({
      source: `
        const F = this === undefined ? (function(){}).constructor : this.constructor.constructor;
        const out = {};
        for (const name of ['process', 'require', 'module', 'Buffer', 'fetch', 'WebAssembly', 'XMLHttpRequest', 'setTimeout', 'global']) {
          out[name] = F('return typeof ' + name)();
        }
        try { F('return process')(); out.direct = 'reached'; } catch (e) { out.direct = e.name; }
        return out`,
    });
    expect(valueOf(r)).toEqual({
      process: 'undefined',
      require: 'undefined',
      module: 'undefined',
      Buffer: 'undefined',
      fetch: 'undefined',
      WebAssembly: 'undefined',
      XMLHttpRequest: 'undefined',
      setTimeout: 'undefined',
      global: 'undefined',
      direct: 'ReferenceError',
    });
  });

  it('this.constructor.constructor("return process")() fails as in the classic vm escape', async () => {
    const r = await runner.run({ source: "return this.constructor.constructor('return process')()" });
    expect(r.ok).toBe(false);
    // Either `this` is undefined in the wrapper (TypeError) or process is undefined (ReferenceError).
    expect(!r.ok && r.fault.errCode).toBe('service.invalidArgument.script');
    const viaObject = await runner.run({ source: "return ({}).constructor.constructor('return process')()" });
    expect(!viaObject.ok && viaObject.fault.reason).toMatch(/process/);
  });

  it('globalThis holds only ECMAScript intrinsics: no host bridge, no Node', async () => {
    const r = await runner.run({
      source: `const names = Object.getOwnPropertyNames(globalThis);
        return { names, host: typeof globalThis.__host, log: typeof globalThis.__log, ctx: typeof globalThis.__context,
          require: typeof globalThis.require, script: typeof globalThis.script, org: typeof globalThis.org }`,
    });
    const v = valueOf(r) as Record<string, unknown> & { names: string[] };
    expect(v).toMatchObject({
      host: 'undefined',
      log: 'undefined',
      ctx: 'undefined',
      require: 'undefined',
      script: 'undefined',
      org: 'undefined',
    });
    for (const forbidden of ['process', 'require', 'fetch', 'WebAssembly', 'Buffer', 'os', 'std', '__host', '__exit']) {
      expect(v.names).not.toContain(forbidden);
    }
  });

  it('dynamic import() and static import do not load anything', async () => {
    const dyn = await runner.run({
      source: `let result = 'none';
        import('fs').then(() => { result = 'loaded' }, (e) => { result = 'refused' });
        return typeof import('node:child_process')`,
    });
    // import() yields a promise that never resolves to a module (no loader is installed).
    expect(dyn.ok ? dyn.value : dyn.fault.errCode).not.toBe('loaded');
    const stat = await runner.run({ source: "import fs from 'fs';\nreturn 1" });
    expect(!stat.ok && stat.fault.errCode).toBe('service.invalidArgument.script');
  });

  it('prototype tricks stay inside the run: changes to intrinsics do not leak into the next run', async () => {
    const poison = await runner.run({
      source: `Object.prototype.polluted = 'yes'; Array.prototype.map = () => 'hacked'; JSON.stringify = () => '"owned"'; return 1`,
    });
    // The prelude serialises the result with its own JSON.stringify captured... or the run reports
    // whatever the poisoned one wrote; either way the NEXT run is clean.
    expect(poison.ok).toBe(true);
    const next = await runner.run({ source: 'return [({}).polluted, [1, 2].map((x) => x * 2)]' });
    expect(valueOf(next)).toEqual([null, [2, 4]]);
  });

  it('a poisoned prototype cannot forge host call names or escape through the prelude', async () => {
    const r = await runner.run({
      source: `Object.defineProperty(Object.prototype, 'driver', { get() { return 'evil' } });
        Array.prototype.slice = function () { return ['fs.readFile', '/etc/passwd'] };
        try { return org.objects.x.count() } catch (e) { return e.errCode }`,
      host: { driver: (o, op) => `${String(o)}.${String(op)}` },
    });
    // The bridge captured its intrinsics before the script ran: the call arrives as made.
    expect(valueOf(r)).toBe('x.count');
  });

  it('huge strings passed to host calls are bounded by the bytes-in limit before reaching the host', async () => {
    let reached = 0;
    const r = await runner.run({
      source: 'const s = "a".repeat(3 * 1024 * 1024); return org.objects.x.insertOne({ s }).execute()',
      host: {
        driver: () => {
          reached++;
          return 1;
        },
      },
      limits: { maxBytesIn: 1024 * 1024, memoryBytes: 64 * 1024 * 1024 },
    });
    expect(!r.ok && r.fault.errCode).toBe('service.tooLarge.script.bytesIn');
    expect(reached).toBe(0);
  });

  it('the script cannot overwrite the API objects it is given', async () => {
    const r = await runner.run({
      source: `'use strict';
        const errs = [];
        try { script.exit = () => 1 } catch (e) { errs.push(e.name) }
        try { org.objects = {} } catch (e) { errs.push(e.name) }
        try { require('request').body = 1 } catch (e) { errs.push(e.name) }
        return errs`,
    });
    expect(valueOf(r)).toEqual(['TypeError', 'TypeError', 'TypeError']);
  });
});
