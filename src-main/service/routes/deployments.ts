import type { FastifyInstance } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { requireCaller, requirePrincipal } from '../http/context.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { deploymentRuns, findDeployment, runDeployment } from '../environment/deployments.js';
import { openExistingDataFolder } from '../open-service.js';
import { SCRIPT_RULES } from './environment.js';

/**
 * Deployments are records at `/deployments` (object routes: create, list, edit, delete). Here:
 *   POST /deployments/<_id | name>/run   {dryRun?} → the run: its diff (added/changed/unchanged/kept per
 *        resource) and result; with dryRun nothing is written.
 *   GET  /deployments/<_id | name>/runs  → the run log, newest first.
 */
export function deploymentRoutes(svc: Service) {
  return async (server: FastifyInstance) => {
    server.post<{ Params: { id: string } }>('/deployments/:id/run', async (request) => {
      const principal = requirePrincipal(request);
      const body = (request.body ?? {}) as { dryRun?: unknown };
      if (body.dryRun !== undefined && typeof body.dryRun !== 'boolean') {
        throw fault('invalidArgument', 'dryRun', { path: 'dryRun', reason: 'dryRun is true or false.' });
      }
      const caller = requireCaller(svc, request);
      return runDeployment(svc, request.ctx.org, caller, principal.email, request.params.id, body.dryRun === true, {
        openFolder: openExistingDataFolder,
        scripts: SCRIPT_RULES,
      });
    });

    server.get<{ Params: { id: string } }>('/deployments/:id/runs', ADMIN_ONLY, async (request) => {
      const record = findDeployment(svc, request.ctx.org, request.params.id);
      if (!record)
        throw fault('notFound', 'deployment', { reason: `There is no deployment ${request.params.id.slice(0, 100)}.` });
      return { object: 'list', data: deploymentRuns(svc, request.ctx.org, record._id), hasMore: false };
    });
  };
}
