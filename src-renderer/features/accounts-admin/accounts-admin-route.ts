/**
 * Account administration in the URL:  #/accounts-admin?q=ann&skip=50&id=<account _id>
 * `q` is the search text (email prefix or an id), `id` the account open in the side panel.
 * Trust boundary: hash input, shape-checked only.
 */
import type { ScreenRoute } from '../../routing/route';
export interface AccountsAdminState {
  q?: string;
  skip: number;
  id?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    'accounts-admin': AccountsAdminState;
  }
}

export type AccountsAdminRoute = ScreenRoute<'accounts-admin'>;

const ID = /^[0-9a-f]{24}$/i;
const MAX_SKIP = 500_000;

export function parseAccountsAdminParams(params: URLSearchParams): AccountsAdminState {
  const state: AccountsAdminState = { skip: 0 };
  const q = params.get('q');
  if (q !== null && q !== '' && q.length <= 200) state.q = q;
  const skip = params.get('skip');
  if (skip !== null && /^\d{1,7}$/.test(skip)) state.skip = Math.min(Number(skip), MAX_SKIP);
  const id = params.get('id');
  if (id !== null && ID.test(id)) state.id = id.toLowerCase();
  return state;
}

export function writeAccountsAdminParams(state: AccountsAdminState, params: URLSearchParams): void {
  if (state.q) params.set('q', state.q);
  if (state.skip > 0) params.set('skip', String(state.skip));
  if (state.id) params.set('id', state.id);
}
