/**
 * The Audit screen's state in the URL hash (issue 41):
 *
 *   #/audit?actor=<_id>&action=<cat or cat.sub>&target=<id>&from=2026-01-01&to=2026-02-01&skip=0
 *
 * Trust boundary: the hash is user input; anything malformed is dropped.
 */
import type { ScreenRoute } from '../../routing/route';

const OBJECT_ID = /^[0-9a-f]{24}$/;
const ACTION = /^[a-z]{2,20}(\.[A-Za-z]{2,40})?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TARGET = /^[A-Za-z0-9_.:@-]{1,100}$/;
export const AUDIT_PAGE = 50;

export interface AuditState {
  actor?: string;
  /** A category (`app`) or a category and its action (`app.rotateSecret`). */
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  skip: number;
}

declare module '../../routing/route' {
  interface ScreenStates {
    audit: AuditState;
  }
}

export type AuditRoute = ScreenRoute<'audit'>;

export function parseAuditParams(params: URLSearchParams): AuditState {
  const skip = Number(params.get('skip'));
  const state: AuditState = { skip: Number.isSafeInteger(skip) && skip > 0 && skip <= 500_000 ? skip : 0 };
  const take = (name: keyof Omit<AuditState, 'skip'>, pattern: RegExp) => {
    const value = params.get(name);
    if (value !== null && pattern.test(value)) state[name] = value;
  };
  take('actor', OBJECT_ID);
  take('action', ACTION);
  take('target', TARGET);
  take('from', DAY);
  take('to', DAY);
  return state;
}

export function writeAuditParams(state: AuditState, params: URLSearchParams): void {
  for (const key of ['actor', 'action', 'target', 'from', 'to'] as const) {
    const value = state[key];
    if (value !== undefined) params.set(key, value);
  }
  if (state.skip > 0) params.set('skip', String(state.skip));
}

/** The `where` of the list request the filters make (days are UTC). */
export function auditWhere(state: AuditState): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  if (state.actor) where.principal = state.actor;
  if (state.action) {
    const [cat, sub] = state.action.split('.');
    where.cat = cat;
    if (sub) where.sub = sub;
  }
  if (state.target) where['context._id'] = state.target;
  const created: Record<string, string> = {};
  if (state.from) created.$gte = `${state.from}T00:00:00.000Z`;
  if (state.to) created.$lt = new Date(Date.parse(`${state.to}T00:00:00.000Z`) + 86_400_000).toISOString();
  if (Object.keys(created).length > 0) where.created = created;
  return where;
}
