/**
 * A context prepared ahead of its run (the prelude compiled while the worker waits) serves that
 * one run with the run's own context, and is gone after it: nothing of one run reaches the next.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { runInEngine, type HostBridge } from './engine.js';
import { disposeEngine, memoryUsedBytes, prepareEngine, type PreparedEngine } from './engine-prepared.js';
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

  it('hands the spent engine to `release` instead of freeing it, once the result is read', () => {
    const engine = prepareEngine(mod);
    let released: PreparedEngine | undefined;
    const r = runInEngine(mod, 'return 7', {}, DEFAULT_SCRIPT_LIMITS, bridge, undefined, engine, (e) => {
      released = e;
    });
    expect(r).toMatchObject({ ok: true, valueJson: '7' });
    expect(released).toBe(engine);
    expect(engine.rt.alive).toBe(true);
    disposeEngine(engine);
    expect(engine.rt.alive).toBe(false);
  });
});

describe('memoryUsedBytes', () => {
  it("reads QuickJS's own count, the figure computeMemoryUsage gives, and sees an allocation", () => {
    const engine = prepareEngine(mod);
    try {
      const before = memoryUsedBytes(engine);
      const h = engine.rt.computeMemoryUsage();
      const counted = (engine.ctx.dump(h) as { memory_used_size: number }).memory_used_size;
      h.dispose();
      // The object form is built in a second context, which itself takes memory: close, not equal.
      expect(before).toBeGreaterThan(100_000);
      expect(Math.abs(counted - before) / before).toBeLessThan(0.5);
      engine.ctx
        .unwrapResult(engine.ctx.evalCode('globalThis.big = new Array(200000).fill(0).map((_, i) => "s" + i); 1'))
        .dispose();
      expect(memoryUsedBytes(engine)).toBeGreaterThan(before + 1_000_000);
    } finally {
      disposeEngine(engine);
    }
  });
});
