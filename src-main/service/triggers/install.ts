/** Installs the trigger engine in a service's caller writes (records/write-hooks.ts); open-service.ts calls it. */
import type { Service } from '../service.js';
import { setWriteHooks } from '../records/write-hooks.js';
import { hasTriggers, runAfterTriggers, runBeforeTriggers } from './engine.js';

export function installTriggers(svc: Service): void {
  setWriteHooks(svc, {
    has: (s, write, phase) => hasTriggers(s, write, phase),
    before: (s, write) => runBeforeTriggers(s, write),
    after: (s, write) => runAfterTriggers(s, write),
  });
}
