/**
 * The Logs screen's state in the URL hash (issue 41):
 *
 *   #/logs?type=trigger&outcome=error&script=<_id>&principal=<_id>&live=1&skip=0
 *
 * Trust boundary: the hash is user input; anything malformed is dropped.
 */
import type { ScreenRoute } from '../../routing/route';

const OBJECT_ID = /^[0-9a-f]{24}$/;
export const LOG_TYPES = ['runner', 'route', 'trigger', 'job', 'policy'] as const;
export const LOG_OUTCOMES = ['info', 'error'] as const;
export const LOGS_PAGE = 50;

export interface LogsState {
  type?: (typeof LOG_TYPES)[number];
  outcome?: (typeof LOG_OUTCOMES)[number];
  script?: string;
  principal?: string;
  live: boolean;
  skip: number;
}

declare module '../../routing/route' {
  interface ScreenStates {
    logs: LogsState;
  }
}

export type LogsRoute = ScreenRoute<'logs'>;

const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
const id = (value: string | null) => (value !== null && OBJECT_ID.test(value) ? value : undefined);

export function parseLogsParams(params: URLSearchParams): LogsState {
  const skip = Number(params.get('skip'));
  const state: LogsState = {
    live: params.get('live') === '1',
    skip: Number.isSafeInteger(skip) && skip > 0 && skip <= 500_000 ? skip : 0,
  };
  const type = pick(params.get('type'), LOG_TYPES);
  const outcome = pick(params.get('outcome'), LOG_OUTCOMES);
  const script = id(params.get('script'));
  const principal = id(params.get('principal'));
  if (type) state.type = type;
  if (outcome) state.outcome = outcome;
  if (script) state.script = script;
  if (principal) state.principal = principal;
  return state;
}

export function writeLogsParams(state: LogsState, params: URLSearchParams): void {
  if (state.type) params.set('type', state.type);
  if (state.outcome) params.set('outcome', state.outcome);
  if (state.script) params.set('script', state.script);
  if (state.principal) params.set('principal', state.principal);
  if (state.live) params.set('live', '1');
  if (state.skip > 0) params.set('skip', String(state.skip));
}

/** The `where` of the list request the filters make. */
export function logsWhere(state: LogsState): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  if (state.type) where.stp = state.type;
  if (state.outcome) where.lvl = state.outcome;
  if (state.script) where.sid = state.script;
  if (state.principal) where.pid = state.principal;
  return where;
}
