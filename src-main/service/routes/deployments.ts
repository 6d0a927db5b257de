import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { requireCaller, requirePrincipal } from '../http/context.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { ANY_BODY, isRecord, memberOf, pathParams, type TypedServer } from '../http/route-schemas.js';
import { deploymentRuns, findDeployment, peerRuns, runDeployment } from '../environment/deployments.js';
import { auditRequest } from '../http/audit.js';

/**
 * Deployments are records at `/deployments` (object routes: create, list, edit, delete). Here:
 *   POST /deployments/<_id | name>/run   {dryRun?} → the run: its diff (added/changed/unchanged/kept per
 *        resource) and result; with dryRun nothing is written. The body is an object (or absent).
 *   GET  /deployments/<_id | name>/runs  → the run log, newest first.
 *   GET  /developer/deployment-runs      → runs of other orgs' deployments that read or wrote this
 *        org with a credential it issued, newest first (each with `from`: which org and deployment,
 *        who ran it there, which credential).
 */
export function deploymentRoutes(svc: Service) {
  return async (server: TypedServer) => {
    const params = pathParams('id');
    server.post('/deployments/:id/run', { schema: { params, body: ANY_BODY } }, async (request) => {
      const principal = requirePrincipal(request);
      // Trust boundary: `[]`, `"x"` or `1` are not "no options"; only an object (or no body) is.
      if (request.body !== undefined && (!isRecord(request.body) || Array.isArray(request.body))) {
        throw fault('invalidArgument', 'body', { reason: 'The body is a JSON object: {"dryRun": true|false}.' });
      }
      const dryRun = memberOf(request.body, 'dryRun');
      // triggers: the imported records' triggers run in the target (docs/configuration.md#import).
      const triggers = memberOf(request.body, 'triggers');
      for (const [name, value] of [
        ['dryRun', dryRun],
        ['triggers', triggers],
      ] as const) {
        if (value !== undefined && typeof value !== 'boolean') {
          throw fault('invalidArgument', name, { path: name, reason: `${name} is true or false.` });
        }
      }
      const caller = requireCaller(svc, request);
      const run = await runDeployment(
        svc,
        request.ctx.org,
        caller,
        principal.email,
        request.params.id,
        dryRun === true,
        { triggers: triggers === true },
      );
      if (dryRun !== true) {
        auditRequest(svc, request, {
          cat: 'deployment',
          sub: 'run',
          target: { object: 'deployment', _id: request.params.id },
          summary: `Ran deployment ${request.params.id.slice(0, 100)}.`,
        });
      }
      return run;
    });

    server.get('/deployments/:id/runs', { ...ADMIN_ONLY, schema: { params } }, async (request) => {
      const record = findDeployment(svc, request.ctx.org, request.params.id);
      if (!record)
        throw fault('notFound', 'deployment', { reason: `There is no deployment ${request.params.id.slice(0, 100)}.` });
      return { object: 'list', data: deploymentRuns(svc, request.ctx.org, record._id), hasMore: false };
    });

    server.get('/developer/deployment-runs', ADMIN_ONLY, async (request) => {
      return { object: 'list', data: peerRuns(svc, request.ctx.org), hasMore: false };
    });
  };
}
