import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { pathParams, type TypedServer } from '../http/route-schemas.js';
import { presentJob, SeedJobs } from '../demo/jobs.js';
import { MAX_SEED_ACCOUNTS } from '../../../src-shared/contracts/demo-data.js';

export { MAX_SEED_ACCOUNTS };

/** `/demo-data/jobs`: seed demo records from the console, with progress; org administrators only. */
export function demoDataRoutes(svc: Service) {
  const jobs = new SeedJobs(svc);
  return async (server: TypedServer) => {
    server.post(
      '/demo-data/jobs',
      {
        config: { admin: true },
        schema: {
          body: {
            type: 'object',
            required: ['accounts'],
            additionalProperties: false,
            properties: {
              accounts: { type: 'integer', minimum: 1, maximum: MAX_SEED_ACCOUNTS },
              seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
            },
          } as const,
        },
      },
      async (request) => {
        const { org } = request.ctx;
        if (jobs.running(org)) throw fault('conflict', 'job', { reason: 'A demo-data job is already running.' });
        const { body } = request;
        return { object: 'result', data: presentJob(jobs.start(org, body.accounts, body.seed)) };
      },
    );

    const job = { ...ADMIN_ONLY, schema: { params: pathParams('id') } };
    server.get('/demo-data/jobs/:id', job, async (request) => {
      const job = jobs.get(request.ctx.org, request.params.id);
      if (!job) throw fault('notFound', 'job', { reason: 'No such demo-data job.' });
      return { object: 'result', data: presentJob(job) };
    });

    server.delete('/demo-data/jobs/:id', job, async (request) => {
      const job = jobs.get(request.ctx.org, request.params.id);
      if (!job) throw fault('notFound', 'job', { reason: 'No such demo-data job.' });
      job.cancel = true;
      return { object: 'result', data: presentJob(job) };
    });
  };
}
