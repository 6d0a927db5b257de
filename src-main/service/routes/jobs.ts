import type { Service } from '../service.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { fault } from '../../../src-shared/faults.js';
import { isRecord, pathParams, type TypedServer } from '../http/route-schemas.js';
import type { JobScheduler } from '../jobs/scheduler.js';
import { jobCap, jobSummaries } from '../jobs/summaries.js';
import { presentRun } from './script-runner.js';

/**
 * Jobs (issue 41), org administrators only:
 *   GET  /jobs               every job script with its schedule, next run and latest runs, and
 *                            `cap`: the org's maxJobRunsPerDay and the runs left of it now
 *   POST /scripts/:id/run    runs a job now (whatever its schedule or `active`), answered like the
 *                            runner answers a run; refused (`conflict.job.running`) while it runs.
 *                            A library's `@job`: body `{handler: "Class.method"}` (optional when
 *                            the library has one job)
 */
export function jobRoutes(svc: Service, scheduler: JobScheduler) {
  return async (server: TypedServer) => {
    server.get('/jobs', ADMIN_ONLY, async (request) => ({
      object: 'list',
      data: jobSummaries(svc, request.ctx.org),
      hasMore: false,
      cap: jobCap(svc, request.ctx.org),
    }));

    server.post('/scripts/:id/run', { ...ADMIN_ONLY, schema: { params: pathParams('id') } }, async (request, reply) =>
      presentRun(reply, await scheduler.runNow(request.ctx.org, request.params.id, handlerOf(request.body))),
    );
  };
}

/** Trust boundary: the optional body `{handler}` naming a library's decorated job method. */
function handlerOf(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  const handler = isRecord(body) ? body.handler : undefined;
  if (handler === undefined && isRecord(body) && Object.keys(body).length === 0) return undefined;
  if (typeof handler !== 'string' || handler === '' || handler.length > 200) {
    throw fault('invalidArgument', 'handler', {
      path: 'handler',
      reason: 'handler names a library job method as Class.method.',
    });
  }
  return handler;
}
