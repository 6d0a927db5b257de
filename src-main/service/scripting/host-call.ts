/**
 * A host call a script makes, answered on the service thread: the named host function of the
 * active run is called with `this` bound to a HostCallContext, and its value (or its fault) goes
 * back to the worker as a reply. Internal errors are never shown to scripts.
 */
import { FaultError, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import type { HostCallMessage, HostReplyMessage } from './protocol.js';
import type { HostCallContext, RunRequest, RunResult } from './run-types.js';
import { withHostCall } from './host-call-context.js';

/** The run a host call belongs to, as the runner knows it. */
export interface HostCallRun {
  runId: number;
  request: RunRequest;
  depth: number;
}

export async function answerHostCall(
  active: HostCallRun | undefined,
  m: HostCallMessage,
  run: (request: RunRequest) => Promise<RunResult>,
): Promise<HostReplyMessage> {
  try {
    if (!active || active.runId !== m.runId)
      throw new FaultError(makeFault('error', 'script', { reason: 'No run is active.' }));
    const fn = active.request.host?.[m.name];
    if (typeof fn !== 'function' || !Object.prototype.hasOwnProperty.call(active.request.host, m.name)) {
      throw new FaultError(
        makeFault('notImplemented', 'script.host', { reason: `${m.name} is not available to scripts here.` }),
      );
    }
    const args = JSON.parse(m.argsJson) as unknown[];
    const ctx: HostCallContext = {
      depth: active.depth,
      asPrincipal: m.asJson === null ? undefined : (JSON.parse(m.asJson) as unknown),
      context: active.request.context ?? {},
      runNested: (req) => run({ ...req, depth: active.depth + 1 }),
    };
    const value = await withHostCall(ctx, () => fn.apply(ctx, args));
    const valueJson = JSON.stringify(value === undefined ? null : value) ?? 'null';
    return { type: 'reply', seq: m.seq, ok: true, valueJson };
  } catch (e) {
    return { type: 'reply', seq: m.seq, ok: false, fault: toFault(e) };
  }
}

function toFault(e: unknown): FaultBody {
  if (e instanceof FaultError) return e.fault;
  // Internal errors of host functions are not shown to scripts (they may name files or SQL).
  return makeFault('error', 'script.host', { reason: 'The host operation failed.' });
}
