/**
 * The accounts grid's page in the URL:  #/accounts?skip=100&limit=50
 * Trust boundary: hash input; odd values give the first page at the default size.
 */
import { MAX_SKIP, parsePageSize, parseSkip, type AccountsRoute, type PageSize } from '../../routing/route';

export interface AccountsState {
  skip: number;
  limit: PageSize;
}

declare module '../../routing/route' {
  interface ScreenStates {
    accounts: AccountsState;
  }
}

export function parseAccountsParams(params: URLSearchParams): AccountsState {
  return { skip: parseSkip(params.get('skip')), limit: parsePageSize(params.get('limit')) };
}

export function writeAccountsParams(state: AccountsState, params: URLSearchParams): void {
  params.set('skip', String(state.skip));
  params.set('limit', String(state.limit));
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
