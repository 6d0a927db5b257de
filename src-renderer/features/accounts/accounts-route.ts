/**
 * The accounts grid's page and search in the URL:  #/accounts?q=smi&skip=100&limit=50
 * Trust boundary: hash input; odd values give the first page at the default size, an overlong
 * search is dropped.
 */
import { MAX_SKIP, parsePageSize, parseSkip, type AccountsRoute, type PageSize } from '../../routing/route';

export interface AccountsState {
  skip: number;
  limit: PageSize;
  /** The search text (email, first or last name prefix, or an `_id`), as Manage accounts and Browse search. */
  q?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    accounts: AccountsState;
  }
}

export function parseAccountsParams(params: URLSearchParams): AccountsState {
  const state: AccountsState = { skip: parseSkip(params.get('skip')), limit: parsePageSize(params.get('limit')) };
  const q = params.get('q');
  if (q !== null && q.trim() !== '' && q.length <= 200) state.q = q;
  return state;
}

export function writeAccountsParams(state: AccountsState, params: URLSearchParams): void {
  if (state.q) params.set('q', state.q);
  params.set('skip', String(state.skip));
  params.set('limit', String(state.limit));
}

/** A new search starts on the first page. */
export function withSearch(route: AccountsRoute, text: string): AccountsRoute {
  const next: AccountsRoute = { ...route, skip: 0 };
  if (text.trim() === '') delete next.q;
  else next.q = text.slice(0, 200);
  return next;
}

export function nextPage(route: AccountsRoute): AccountsRoute {
  return { ...route, skip: Math.min(route.skip + route.limit, MAX_SKIP) };
}

export function previousPage(route: AccountsRoute): AccountsRoute {
  return { ...route, skip: Math.max(route.skip - route.limit, 0) };
}

/** Changing the page size keeps the first visible row on the new page (pages stay aligned). */
export function withPageSize(route: AccountsRoute, limit: PageSize): AccountsRoute {
  return { ...route, limit, skip: Math.floor(route.skip / limit) * limit };
}
