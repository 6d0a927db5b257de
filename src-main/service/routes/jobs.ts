import type { Service } from '../service.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { pathParams, type TypedServer } from '../http/route-schemas.js';
import type { JobScheduler } from '../jobs/scheduler.js';
import { jobSummaries } from '../jobs/summaries.js';
import { presentRun } from './script-runner.js';

/**
 * Jobs (issue 41), org administrators only:
 *   GET  /jobs               every job script with its schedule, next run and latest runs
 *   POST /scripts/:id/run    runs a job now (whatever its schedule or `active`), answered like the
 *                            runner answers a run; refused (`conflict.job.running`) while it runs
 */
export function jobRoutes(svc: Service, scheduler: JobScheduler) {
  return async (server: TypedServer) => {
    server.get('/jobs', ADMIN_ONLY, async (request) => ({
      object: 'list',
      data: jobSummaries(svc, request.ctx.org),
      hasMore: false,
    }));

    server.post('/scripts/:id/run', { ...ADMIN_ONLY, schema: { params: pathParams('id') } }, async (request, reply) =>
      presentRun(reply, await scheduler.runNow(request.ctx.org, request.params.id)),
    );
  };
}
