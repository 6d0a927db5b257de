import type { FastifyInstance } from 'fastify';
import type { Service } from '../service.js';

/** TODO: routes of this resource (placeholder registered by app.ts). */
export function appsRoutes(_svc: Service) {
  return async (_app: FastifyInstance) => {};
}
