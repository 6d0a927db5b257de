/**
 * The console's screen state lives in the URL hash so any view can be bookmarked and reopened:
 *
 *   #/accounts?skip=100&limit=50           accounts grid of the default org, rows 101–150
 *   #/accounts?skip=0&limit=25&org=acme    the same screen for another org
 *
 * `org` is written only when it is not the default org (the first org the service lists).
 * Setup and login are not routes: they follow from the service's state, and after signing in the
 * user lands on the screen the URL names.
 *
 * Trust boundary: the hash is user input. Anything unrecognised parses to the default route, and
 * `useRoute` rewrites the address bar to the normalised form.
 */

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;
/** The service rejects a larger skip (decisions.md §8). */
export const MAX_SKIP = 500_000;

const ORG_CODE = /^[a-z0-9-]+$/;

export interface AccountsRoute {
  screen: 'accounts';
  skip: number;
  limit: PageSize;
  org?: string;
}

/** One member today; more screens join this union. */
export type Route = AccountsRoute;

export const DEFAULT_ROUTE: Route = { screen: 'accounts', skip: 0, limit: DEFAULT_PAGE_SIZE };

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#/, '').replace(/^\/+/, '');
  const queryStart = text.indexOf('?');
  const path = queryStart === -1 ? text : text.slice(0, queryStart);
  const params = new URLSearchParams(queryStart === -1 ? '' : text.slice(queryStart + 1));

  const route: Route = { ...DEFAULT_ROUTE };
  if (path !== 'accounts' && path !== '') return withOrgParam(route, params);
  route.skip = parseSkip(params.get('skip'));
  route.limit = parsePageSize(params.get('limit'));
  return withOrgParam(route, params);
}

export function serializeRoute(route: Route): string {
  const params = new URLSearchParams({ skip: String(route.skip), limit: String(route.limit) });
  if (route.org !== undefined) params.set('org', route.org);
  return `#/${route.screen}?${params.toString()}`;
}

export function isPageSize(value: number): value is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(value);
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

/** Sets the org, leaving it out of the URL when it is the default org. */
export function withOrg<R extends Route>(route: R, org: string, defaultOrg: string | undefined): R {
  const next: R = { ...route };
  if (org === defaultOrg) delete next.org;
  else next.org = org;
  return next;
}

function withOrgParam(route: Route, params: URLSearchParams): Route {
  const org = params.get('org');
  if (org !== null && ORG_CODE.test(org)) route.org = org;
  return route;
}

function parseSkip(raw: string | null): number {
  if (raw === null || !/^\d{1,7}$/.test(raw)) return 0;
  return Math.min(Number(raw), MAX_SKIP);
}

function parsePageSize(raw: string | null): PageSize {
  if (raw === null || !/^\d{1,4}$/.test(raw)) return DEFAULT_PAGE_SIZE;
  const size = Number(raw);
  return isPageSize(size) ? size : DEFAULT_PAGE_SIZE;
}
