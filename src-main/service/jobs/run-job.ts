/**
 * One job run, once its slot is claimed (job-runs.ts): as the job's principal (anonymous when it
 * names none, as in the original), through `runScriptFor` — the org's limits, its fair queue (the
 * job is the queue's caller), a log entry of type `job` — and its row finished with the outcome.
 */
import { makeFault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { anonymousCaller, callerOf } from '../access/caller.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { runScriptFor } from '../scripting/script-host.js';
import { refused, type RunResult } from '../scripting/run-types.js';
import { writeRunLog } from '../logs/run-log.js';
import type { JobRun } from './job-runs.js';
import type { JobDef } from './registry.js';
import { overCapFault } from './job-cap.js';

const logMeta = (job: JobDef) => ({
  type: 'job' as const,
  scriptId: job.scriptId,
  label: job.label,
  ...(job.handler ? { resource: job.handler } : {}),
});

/**
 * A run refused over the org's cap (its row, claimed by job-runs.ts, has ended already): a log entry
 * of type `job` at `lvl: error` with `accessDenied.maxJobsPerDay`, as the original logs it.
 */
export function refuseOverCap(svc: Service, org: Org, job: JobDef, cap: number): RunResult {
  const result = refused(overCapFault(cap));
  writeRunLog(svc, org, logMeta(job), svc.clock.now(), result);
  return result;
}

export async function runJob(svc: Service, org: Org, job: JobDef, run: JobRun): Promise<RunResult> {
  const begin = svc.clock.now();
  const log = logMeta(job);
  let caller = anonymousCaller();
  if (job.principal !== undefined) {
    const found = lookupAccountPrincipal(svc, org, job.principal);
    if (!('principal' in found)) {
      const result = refused(makeFault('error', 'job.principal', { reason: `Job ${job.label}: ${found.problem}` }));
      writeRunLog(svc, org, log, begin, result);
      finish(svc, run, result);
      return result;
    }
    caller = callerOf(svc, { org, principal: found.principal });
  }
  let result: RunResult;
  try {
    result = await runScriptFor(svc, {
      org,
      caller,
      source: job.source,
      arguments: {},
      requester: `job:${job.key}`,
      log,
    });
  } catch {
    result = refused(makeFault('error', 'job', { reason: 'The job could not run.' }));
  }
  finish(svc, run, result);
  return result;
}

function finish(svc: Service, run: JobRun, result: RunResult): void {
  try {
    svc.jobRuns.finish(
      run.id,
      svc.clock.now(),
      result.ok ? 'ok' : 'fault',
      result.ok ? undefined : result.fault.errCode,
      undefined,
    );
  } catch {
    // A busy database leaves the row unfinished; it counts as running until it is stale.
  }
}
