/**
 * The host call being answered, for code a host function reaches without being handed it: a write a
 * script makes runs the record's triggers (triggers/engine.ts), and a trigger started inside a host
 * call must run nested in it (`runNested`) — its parent holds a worker while it waits, so queueing
 * it behind the parent's org could deadlock the pool. The runner answers each host call in the
 * async context of the code that started the run (runner.ts), so what that code set (a trigger's
 * depth) is seen by the writes the run makes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HostCallContext } from './run-types.js';

const store = new AsyncLocalStorage<HostCallContext>();

export function withHostCall<T>(ctx: HostCallContext, fn: () => T): T {
  return store.run(ctx, fn);
}

/** The host call whose answer is being computed, if any. */
export function currentHostCall(): HostCallContext | undefined {
  return store.getStore();
}

/** Runs `fn` outside any host call (work that outlives the call, such as after triggers). */
export function outsideHostCall<T>(fn: () => T): T {
  return store.exit(fn);
}
