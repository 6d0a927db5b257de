import type { FastifyRequest } from 'fastify';
import { parseLimit, parseSkip } from '../../../src-shared/query/parse.js';
import { isRecord } from './route-schemas.js';

/**
 * Trust boundary: `skip` and `limit` of a plain paged list, under the list-query language's own
 * limits (default 100, at most 1000). A repeated argument is as invalid as a malformed one.
 */
export function pageArgs(request: FastifyRequest): { skip: number; limit: number } {
  const q = isRecord(request.query) ? request.query : {};
  const text = (name: string): string | undefined => {
    const raw = q[name];
    return raw === undefined || typeof raw === 'string' ? raw : '-';
  };
  return { skip: parseSkip(text('skip')), limit: parseLimit(text('limit')) };
}
