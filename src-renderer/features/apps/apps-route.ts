/**
 * The Applications screen's state in the URL hash (never a secret: app keys are public, secrets
 * are not in the URL):
 *
 *   #/apps                          the list, first app selected, Settings tab
 *   #/apps?key=<appKey>&tab=keys    one app selected, one tab open
 *
 * Trust boundary: the hash is user input; a key that is not 1–64 letters/digits is dropped, an
 * unknown tab gives Settings.
 */
import type { ScreenRoute } from '../../routing/route';

const APP_KEY = /^[A-Za-z0-9]{1,64}$/;

export const APP_TABS = ['settings', 'keys', 'tokens', 'sessions'] as const;
export type AppTab = (typeof APP_TABS)[number];

export interface AppsState {
  /** The key of the selected app. */
  key?: string;
  tab: AppTab;
}

declare module '../../routing/route' {
  interface ScreenStates {
    apps: AppsState;
  }
}

export type AppsRoute = ScreenRoute<'apps'>;

const isTab = (value: string | null): value is AppTab => (APP_TABS as readonly (string | null)[]).includes(value);

export function parseAppsParams(params: URLSearchParams): AppsState {
  const key = params.get('key');
  const tab = params.get('tab');
  const state: AppsState = { tab: isTab(tab) ? tab : 'settings' };
  if (key !== null && APP_KEY.test(key)) state.key = key;
  return state;
}

export function writeAppsParams(state: AppsState, params: URLSearchParams): void {
  if (state.key !== undefined) params.set('key', state.key);
  if (state.tab !== 'settings') params.set('tab', state.tab);
}
