/**
 * The trigger engine (issue 41): what the one write path (records/) calls around every write.
 *
 * - `runBeforeTriggers` runs the write's before triggers in weight order, before the write's
 *   transaction (a script run is asynchronous; a SQLite transaction is not held across it). Each
 *   sees the record with the changes of the ones before it. A trigger that throws (or returns
 *   `false`) refuses the write: nothing is written and the write answers its fault. The changes
 *   they make come back as top-level values for the write to validate and store.
 * - `runAfterTriggers` runs the after triggers once the write has committed, outside any
 *   transaction and outside the host call that wrote (so they queue like any run and cannot hold
 *   their writer's worker): they cannot undo the write, and a failing one is logged, never answered.
 *
 * Triggers fired by a trigger's own writes run one level deeper (depth.ts); past
 * MAX_TRIGGER_DEPTH the write is refused. A write with no trigger on its object returns at the
 * first lookup (registry.ts, in memory).
 */
import { FaultError, fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Json } from '../objects/validate.js';
import { refused } from '../scripting/run-types.js';
import { outsideHostCall } from '../scripting/host-call-context.js';
import { writeRunLog } from '../logs/run-log.js';
import { TriggerChanges } from './changes.js';
import { atTriggerDepth, currentTriggerDepth, depthFault, MAX_TRIGGER_DEPTH } from './depth.js';
import { triggersFor, type TriggerDef, type TriggerEvent } from './registry.js';
import { runTrigger, type TriggeredWrite } from './run-trigger.js';
import { conditionHolds } from './trigger-condition.js';
import { orgCache } from '../scripting/org-cache.js';
import { touchesPaths } from './trigger-paths.js';
import { newMemo } from '../records/write-hooks.js';

export type { TriggeredWrite, WriteOp } from './run-trigger.js';

/** Whether a write of this kind has triggers to run (for writers that prepare work only then). */
export function hasTriggers(
  svc: Service,
  write: Pick<TriggeredWrite, 'org' | 'def' | 'op'>,
  phase: 'before' | 'after',
) {
  return triggersFor(svc, write.org, write.def.name, `${write.op}.${phase}` as TriggerEvent).length > 0;
}

/** A trigger's fault as its writer is answered: the trace stays in the run's log entry. */
function answered(f: FaultBody & { trace?: string }): FaultBody {
  const { trace: _trace, ...rest } = f;
  return rest;
}

/**
 * Whether `trigger` runs for `write`: an update touches one of its `paths` (when it lists any),
 * and a decorated trigger's `if` holds for the record (the one written, else the one deleted);
 * throws a refused `if`'s fault.
 */
function holds(svc: Service, trigger: TriggerDef, write: TriggeredWrite, next: TriggeredWrite['next']): boolean {
  if (trigger.paths && write.op === 'update' && !touchesPaths(trigger.paths, write.modified)) return false;
  if (!trigger.condition) return true;
  // `$cache` reads the write's org cache only, as `require('cache').get` in its scripts does.
  const cache = (key: string) => orgCache(svc, write.org.id).get(key, svc.clock.now());
  return conditionHolds(trigger.condition, { ...(next ?? write.old ?? {}), _id: write.id }, cache);
}

const cancelled = (trigger: TriggerDef) =>
  fault('accessDenied', 'triggerCancelled', { reason: `Trigger ${trigger.label} cancelled the write.` });

/**
 * Runs the before triggers of `write`; answers the top-level values they changed (undefined when
 * none changed anything). Throws the fault of the first trigger that refuses.
 */
export async function runBeforeTriggers(
  svc: Service,
  write: TriggeredWrite,
): Promise<Record<string, Json> | undefined> {
  const triggers = triggersFor(svc, write.org, write.def.name, `${write.op}.before` as TriggerEvent);
  if (triggers.length === 0) return undefined;
  const level = currentTriggerDepth() + 1;
  if (level > MAX_TRIGGER_DEPTH) throw depthFault(level);
  const changes = new TriggerChanges();
  const memo = write.memo ?? newMemo();
  const base = write.next;
  for (const trigger of triggers) {
    const next = base && !changes.empty ? { ...base, ...changes.topLevelValues(base) } : base;
    const begin = svc.clock.now();
    let result;
    try {
      if (!holds(svc, trigger, write, next)) continue;
      result = await atTriggerDepth(level, () =>
        runTrigger(svc, trigger, { ...write, ...(next ? { next } : {}) }, changes, memo),
      );
    } catch (e) {
      // The run did not start (its principal is gone): the write is refused and the log says why.
      logUnrun(svc, trigger, write, begin, e);
      throw e;
    }
    if (!result.ok) throw new FaultError(answered(result.fault));
    if (result.value === false) throw cancelled(trigger);
  }
  return changes.empty || !base ? undefined : changes.topLevelValues(base);
}

const pending = new WeakMap<Service, Set<Promise<void>>>();

/** Resolves once every after trigger started so far has finished (tests; a closing server). */
export async function afterTriggersSettled(svc: Service): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const now = [...(pending.get(svc) ?? [])];
    if (now.length === 0) return;
    await Promise.all(now);
  }
}

/**
 * Starts the after triggers of a committed write, in weight order, one after the other. Answers
 * when the last `inline` one has finished (at once when none is inline); never rejects.
 */
export function runAfterTriggers(svc: Service, write: TriggeredWrite): Promise<void> {
  const triggers = triggersFor(svc, write.org, write.def.name, `${write.op}.after` as TriggerEvent);
  if (triggers.length === 0 || write.dryRun) return Promise.resolve();
  const level = currentTriggerDepth() + 1;
  const lastInline = triggers.reduce((at, t, i) => (t.inline ? i : at), -1);
  const memo = write.memo ?? newMemo();
  let inlineDone: () => void = () => {};
  const inline = new Promise<void>((resolve) => (inlineDone = resolve));
  const chain = outsideHostCall(() =>
    atTriggerDepth(level, async () => {
      for (const [i, trigger] of triggers.entries()) {
        await runAfter(svc, trigger, { ...write, memo }, level);
        if (i === lastInline) inlineDone();
      }
    }),
  );
  let set = pending.get(svc);
  if (!set) pending.set(svc, (set = new Set()));
  const tracked = chain.finally(() => set.delete(tracked));
  set.add(tracked);
  return lastInline === -1 ? Promise.resolve() : inline;
}

/** One after trigger; whatever goes wrong is the run's log entry, never the writer's answer. */
async function runAfter(svc: Service, trigger: TriggerDef, write: TriggeredWrite, level: number): Promise<void> {
  const begin = svc.clock.now();
  try {
    if (level > MAX_TRIGGER_DEPTH) throw depthFault(level);
    if (!holds(svc, trigger, write, write.next)) return;
    await runTrigger(svc, trigger, write, undefined, write.memo ?? newMemo());
  } catch (e) {
    logUnrun(svc, trigger, write, begin, e);
  }
}

/** The log entry of a trigger that could not run. */
function logUnrun(svc: Service, trigger: TriggerDef, write: TriggeredWrite, begin: number, e: unknown): void {
  const body =
    e instanceof FaultError ? e.fault : makeFault('error', 'trigger', { reason: 'The trigger could not run.' });
  const meta = { type: 'trigger' as const, scriptId: trigger.scriptId, label: trigger.label, event: trigger.event };
  writeRunLog(svc, write.org, { ...meta, object: write.def.name, target: write.id }, begin, refused(body));
}
