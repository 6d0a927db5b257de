/**
 * How deep in triggers a write is: a write a caller makes is level 0; the triggers it fires run at
 * level 1, their writes fire triggers at level 2, and so on. A write whose triggers would run past
 * `MAX_TRIGGER_DEPTH` is refused (`service.tooLarge.trigger.depth`) instead of recursing. The level
 * follows the async context from the trigger's run into the writes it makes (the runner answers a
 * run's host calls in the context that started the run, scripting/runner.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { fault } from '../../../src-shared/faults.js';

export const MAX_TRIGGER_DEPTH = 4;

const store = new AsyncLocalStorage<number>();

/** The trigger level of the code running now (0 outside triggers). */
export function currentTriggerDepth(): number {
  return store.getStore() ?? 0;
}

export function atTriggerDepth<T>(level: number, fn: () => T): T {
  return store.run(level, fn);
}

export function depthFault(level: number) {
  return fault('tooLarge', 'trigger.depth', {
    reason: `Triggers nest at most ${MAX_TRIGGER_DEPTH} deep: a trigger's write would fire triggers at level ${level}.`,
  });
}
