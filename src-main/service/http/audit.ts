/**
 * Audit entries of actions taken over HTTP (audit/record.ts): the actor is the request's — its
 * account, how it authenticated (session, token with its `jti`, signed request), the app it came
 * through and the peer address — and the caller of the access model carries the same for writes
 * of records (records/ audits them, access/caller.ts `origin`).
 */
import type { FastifyRequest } from 'fastify';
import type { Service } from '../service.js';
import type { AuditActor } from '../audit/actor.js';
import { recordAudit, type AuditEvent } from '../audit/record.js';

/** Who made the request, as an audit entry names them. */
export function requestActor(request: Pick<FastifyRequest, 'ctx' | 'ip'>): AuditActor {
  const { ctx } = request;
  const jti = ctx.claims?.jti;
  return {
    type: ctx.via === 'anonymous' ? 'session' : ctx.via,
    ...(ctx.principal ? { account: ctx.principal.accountId, email: ctx.principal.email } : {}),
    ...(ctx.app ? { app: ctx.app.key } : {}),
    ...(typeof jti === 'string' ? { jti } : {}),
    address: request.ip,
  };
}

/** Records an administrative action done for `request` (after it succeeded). */
export function auditRequest(svc: Service, request: Pick<FastifyRequest, 'ctx' | 'ip'>, event: AuditEvent): void {
  recordAudit(svc, request.ctx.org, requestActor(request), event);
}
