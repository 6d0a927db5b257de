/**
 * The Scripts screen's state in the URL hash: which library script is open.
 *
 *   #/scripts?id=<_id>
 *
 * The script text, arguments and runs stay in memory. Trust boundary: a malformed id is dropped.
 */
import type { ScreenRoute } from '../../routing/route';
const OBJECT_ID = /^[0-9a-f]{24}$/;

export interface ScriptsState {
  id?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    scripts: ScriptsState;
  }
}

export type ScriptsRoute = ScreenRoute<'scripts'>;

export function parseScriptsParams(params: URLSearchParams): ScriptsState {
  const id = params.get('id')?.toLowerCase();
  return id !== undefined && OBJECT_ID.test(id) ? { id } : {};
}

export function writeScriptsParams(state: ScriptsState, params: URLSearchParams): void {
  if (state.id !== undefined) params.set('id', state.id);
}
