/**
 * Roles in the URL:  #/roles?id=<role _id>   or   #/roles?id=new
 * Trust boundary: hash input, shape-checked only.
 */
import type { ScreenRoute } from '../../routing/route';
export interface RolesState {
  /** The role open in the editor, or `new` for the create form. */
  id?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    roles: RolesState;
  }
}

export type RolesRoute = ScreenRoute<'roles'>;

const ID = /^[0-9a-f]{24}$/i;

export function parseRolesParams(params: URLSearchParams): RolesState {
  const id = params.get('id');
  if (id === 'new') return { id };
  if (id !== null && ID.test(id)) return { id: id.toLowerCase() };
  return {};
}

export function writeRolesParams(state: RolesState, params: URLSearchParams): void {
  if (state.id) params.set('id', state.id);
}
