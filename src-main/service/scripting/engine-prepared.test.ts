/**
 * A context prepared ahead of its run (the prelude compiled while the worker waits) serves that
 * one run with the run's own context, and is gone after it: nothing of one run reaches the next.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { runInEngine, type HostBridge } from './engine.js';
import { prepareEngine } from './engine-prepared.js';
import { DEFAULT_SCRIPT_LIMITS } from './limits.js';

let mod: QuickJSWASMModule;
beforeAll(async () => {
  mod = await newQuickJSWASMModuleFromVariant(releaseSync);
});

const bridge: HostBridge = { call: () => ({ type: 'reply', seq: 0, ok: true, valueJson: 'null' }) as never };

describe('a prepared engine', () => {
  it("runs one script with the run's own context, then is disposed", () => {
    const engine = prepareEngine(mod);
    const r = runInEngine(
      mod,
      'globalThis.leaked = 1; console.log("hi"); return script.arguments.x + 1',
      { arguments: { x: 41 } },
      DEFAULT_SCRIPT_LIMITS,
      bridge,
      undefined,
      engine,
    );
    expect(r).toMatchObject({ ok: true, valueJson: '42', logs: [{ level: 'log', message: 'hi' }] });
    expect(engine.ctx.alive).toBe(false);
    expect(engine.rt.alive).toBe(false);
    const next = runInEngine(
      mod,
      'return typeof leaked',
      {},
      DEFAULT_SCRIPT_LIMITS,
      bridge,
      undefined,
      prepareEngine(mod),
    );
    expect(next).toMatchObject({ ok: true, valueJson: '"undefined"' });
  });

  it('holds no native function on the global object, prepared or not', () => {
    const source =
      "return ['__host', '__log', '__exit', '__compile', '__builtin', '__context'].filter((n) => n in globalThis)";
    for (const prepared of [prepareEngine(mod), undefined]) {
      const r = runInEngine(mod, source, {}, DEFAULT_SCRIPT_LIMITS, bridge, undefined, prepared);
      expect(r).toMatchObject({ ok: true, valueJson: '[]' });
    }
  });

  it("applies the run's limits to a context prepared without them", () => {
    const r = runInEngine(
      mod,
      'for (;;) {}',
      {},
      { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 50 },
      bridge,
      undefined,
      prepareEngine(mod),
    );
    expect(r.ok).toBe(false);
    expect(r.fault?.errCode).toBe('service.timeout.script');
  });
});
