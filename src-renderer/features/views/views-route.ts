/**
 * Views in the URL:  #/views?name=<view name>   or   #/views?name=new
 * Trust boundary: hash input, shape-checked only. Run arguments and minted tokens stay in memory.
 */
import type { ScreenRoute } from '../../routing/route';

export interface ViewsState {
  /** The view open in the editor (by name), or `new` for the create form. */
  name?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    views: ViewsState;
  }
}

export type ViewsRoute = ScreenRoute<'views'>;

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

export function parseViewsParams(params: URLSearchParams): ViewsState {
  const name = params.get('name');
  return name !== null && NAME.test(name) ? { name } : {};
}

export function writeViewsParams(state: ViewsState, params: URLSearchParams): void {
  if (state.name) params.set('name', state.name);
}
