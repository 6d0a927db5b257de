/**
 * The Applications screen's state in the URL hash (never a secret: app keys are public, secrets
 * are not in the URL):
 *
 *   #/apps                 the list, first app selected
 *   #/apps?key=<appKey>    one app selected
 *
 * Trust boundary: the hash is user input; a key that is not 1–64 letters/digits is dropped.
 */
import type { ScreenRoute } from '../../routing/route';
const APP_KEY = /^[A-Za-z0-9]{1,64}$/;

export interface AppsState {
  /** The key of the selected app. */
  key?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    apps: AppsState;
  }
}

export type AppsRoute = ScreenRoute<'apps'>;

export function parseAppsParams(params: URLSearchParams): AppsState {
  const key = params.get('key');
  return key !== null && APP_KEY.test(key) ? { key } : {};
}

export function writeAppsParams(state: AppsState, params: URLSearchParams): void {
  if (state.key !== undefined) params.set('key', state.key);
}
