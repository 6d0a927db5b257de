/**
 * The Scripts screen's state in the URL hash: which library script is open.
 *
 *   #/scripts?id=<_id>[&line=<n>]
 *
 * The script text, arguments and runs stay in memory. Trust boundary: a malformed id is dropped.
 */
import type { ScreenRoute } from '../../routing/route';
const OBJECT_ID = /^[0-9a-f]{24}$/;

export interface ScriptsState {
  id?: string;
  /** A line to show (a log entry's fault opens its script there). */
  line?: number;
}

declare module '../../routing/route' {
  interface ScreenStates {
    scripts: ScriptsState;
  }
}

export type ScriptsRoute = ScreenRoute<'scripts'>;

export function parseScriptsParams(params: URLSearchParams): ScriptsState {
  const id = params.get('id')?.toLowerCase();
  if (id === undefined || !OBJECT_ID.test(id)) return {};
  const line = Number(params.get('line'));
  return Number.isSafeInteger(line) && line > 0 && line < 100_000 ? { id, line } : { id };
}

export function writeScriptsParams(state: ScriptsState, params: URLSearchParams): void {
  if (state.id !== undefined) params.set('id', state.id);
  if (state.id !== undefined && state.line !== undefined) params.set('line', String(state.line));
}
