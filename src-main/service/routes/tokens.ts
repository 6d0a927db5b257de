import type { FastifyRequest } from 'fastify';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Caller } from '../access/caller.js';
import { callerActor } from '../audit/actor.js';
import { requireCaller } from '../http/context.js';
import { ANY_BODY, pathParams, type TypedServer } from '../http/route-schemas.js';
import { minterOf } from '../auth/tokens/mint-rights.js';
import {
  authorizeTokenAdmin,
  issueSubjectToken,
  listSubjectTokens,
  revokeAllSubjectTokens,
  revokeSubjectToken,
  tokenSubjectId as subjectId,
} from '../auth/tokens/subject-tokens.js';

const account = pathParams('id');
/** `?app=KEY`: the token store reads it (a repeated or missing key is its fault to give). */
const appQuery = { type: 'object', properties: { app: {} } } as const;

/**
 * Tokens of an account (docs/tokens.md):
 *   POST   /accounts/:id/tokens          mint → {object:'result', data:'<jwt>'}
 *   GET    /accounts/:id/tokens?app=KEY  stored (permanent/limited-use) live tokens → list envelope
 *   DELETE /accounts/:id/tokens/:jti     revoke one → {object:'result', data:true}
 *   DELETE /accounts/:id/tokens?app=KEY  revoke all of the subject for the app → {object:'result', data:<count>}
 * `:id` may be `me`. Minting is for org administrators; an account may also list and revoke its own.
 * The workflows live in auth/tokens/subject-tokens.ts (shared with the script host functions).
 */
export function tokensRoutes(svc: Service) {
  return async (server: TypedServer) => {
    server.post('/accounts/:id/tokens', { schema: { params: account, body: ANY_BODY } }, async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'update', false);
      const accountId = subjectId(svc, org, caller, request.params.id);
      const minter = minterOf(caller, caller.tokenExpiry);
      return {
        object: 'result',
        data: await issueSubjectToken(
          svc,
          org,
          accountId,
          request.body,
          minter,
          request.headers.host,
          callerActor(caller),
        ),
      };
    });

    server.get('/accounts/:id/tokens', { schema: { params: account, querystring: appQuery } }, async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'read', true, request.params.id);
      const accountId = subjectId(svc, org, caller, request.params.id);
      return { object: 'list', data: listSubjectTokens(svc, org, request.query.app, accountId), hasMore: false };
    });

    server.delete('/accounts/:id/tokens/:jti', { schema: { params: pathParams('id', 'jti') } }, async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'update', true, request.params.id);
      const accountId = subjectId(svc, org, caller, request.params.id);
      if (!revokeSubjectToken(svc, org, accountId, request.params.jti, callerActor(caller))) {
        throw fault('notFound', 'instance', { reason: 'The account has no such unrevoked token.' });
      }
      return { object: 'result', data: true };
    });

    server.delete('/accounts/:id/tokens', { schema: { params: account, querystring: appQuery } }, async (request) => {
      const { org } = request.ctx;
      const caller = authorize(svc, request, 'update', true, request.params.id);
      const accountId = subjectId(svc, org, caller, request.params.id);
      return {
        object: 'result',
        data: revokeAllSubjectTokens(svc, org, request.query.app, accountId, callerActor(caller)),
      };
    });
  };
}

/** Org administrators, or (when `selfAllowed`) the account itself; see authorizeTokenAdmin. */
function authorize(
  svc: Service,
  request: FastifyRequest,
  action: 'read' | 'update',
  selfAllowed: boolean,
  targetId?: string,
): Caller {
  const caller = requireCaller(svc, request);
  const self = selfAllowed && (targetId === 'me' || targetId?.toLowerCase() === caller.accountId);
  authorizeTokenAdmin(caller, action, self);
  return caller;
}
