/**
 * A write's trigger memo (issue 41, docs/scripting.md#triggers): the original passes its triggers
 * `memo` (`script.arguments.memo`, and the `memo` argument of a decorated `@trigger` method), an
 * object the before and after triggers of ONE write share, so a before trigger can hand the after
 * triggers what it found. Each write has its own (the writer makes one and gives it to both
 * phases, records/write-hooks.ts `newMemo`), so parallel writes never see each other's.
 *
 * Trust boundary: what a script stores here is its own JSON text (`trigger.memo`, sent by the
 * prelude when the run ends, scripting/prelude-trigger.ts), kept in this process for the length of
 * the write. JSON only (what JSON.stringify keeps), and at most MAX_MEMO_BYTES: a larger memo is
 * refused with `service.tooLarge.trigger.memo` (never truncated: a cut memo would be read as a
 * whole one), which is the run's fault (a before trigger's refuses the write).
 */
import { fault } from '../../../src-shared/faults.js';
import type { Json } from '../objects/validate.js';
import type { TriggerMemo } from '../records/write-hooks.js';

export const MAX_MEMO_BYTES = 64 * 1024;

/** The memo as a run receives it (a fresh copy: a run changes it only through `storeMemo`). */
export const memoValue = (memo: TriggerMemo): Json => JSON.parse(memo.json) as Json;

/** Stores what a run left in its memo; throws the fault of a memo that is not a JSON object or too large. */
export function storeMemo(memo: TriggerMemo, value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fault('invalidArgument', 'trigger.memo', { path: 'memo', reason: 'The memo must be an object.' });
  }
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_MEMO_BYTES) {
    throw fault('tooLarge', 'trigger.memo', {
      path: 'memo',
      reason: `The trigger memo is ${bytes} bytes of JSON; the limit is ${MAX_MEMO_BYTES}.`,
    });
  }
  memo.json = json;
}
