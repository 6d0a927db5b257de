/**
 * The console's screen state lives in the URL hash so any view can be bookmarked and reopened:
 *
 *   #/accounts?skip=100&limit=50           accounts grid of the default org, rows 101–150
 *   #/accounts?skip=0&limit=25&org=acme    the same screen for another org
 *   #/browse?c=accounts&where=…&sort=…     the object browser (features/object-browser/browse-route.ts)
 *   #/schemas?name=c_conversation          object definitions
 *   #/demo-data                            demo-data seeding
 *   #/accounts-admin?q=…&id=…              account administration; #/roles?id=… roles
 *   #/scope-tester?chain=…&rows=…          scope-chain tester; #/signed-requests?app=…&path=… composer
 *
 * `org` is written only when it is not the default org (the first org the service lists).
 * Setup and login are not routes: they follow from the service's state, and after signing in the
 * user lands on the screen the URL names.
 *
 * Trust boundary: the hash is user input. Anything unrecognised parses to the default route, and
 * `useRoute` rewrites the address bar to the normalised form.
 */
import { parseBrowseParams, writeBrowseParams, type BrowseState } from '../features/object-browser/browse-route';
import { parseAppsParams, writeAppsParams, type AppsState } from '../features/apps/apps-route';
import { parseTokensParams, writeTokensParams, type TokensState } from '../features/tokens/tokens-route';
import { parseOutboxParams, writeOutboxParams, type OutboxState } from '../features/outbox/outbox-route';
import {
  parseAccountsAdminParams,
  writeAccountsAdminParams,
  type AccountsAdminState,
} from '../features/accounts-admin/accounts-admin-route';
import { parseRolesParams, writeRolesParams, type RolesState } from '../features/roles/roles-route';
import { parseTesterParams, writeTesterParams, type TesterState } from '../features/scope-tester/tester-route';
import {
  parseSignedParams,
  writeSignedParams,
  type SignedRequestState,
} from '../features/signed-requests/signed-route';

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;
/** The service rejects a larger skip (decisions.md §8). */
export const MAX_SKIP = 500_000;

const ORG_CODE = /^[a-z0-9-]+$/;
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export interface AccountsRoute {
  screen: 'accounts';
  skip: number;
  limit: PageSize;
  org?: string;
}

export interface BrowseRoute extends BrowseState {
  screen: 'browse';
  org?: string;
}

export interface SchemasRoute {
  screen: 'schemas';
  /** The definition shown, by object name. */
  name?: string;
  org?: string;
}

export interface DemoDataRoute {
  screen: 'demo-data';
  org?: string;
}

/** Applications and keys (features/apps/apps-route.ts). */
export interface AppsRoute extends AppsState {
  screen: 'apps';
  org?: string;
}

/** Token lab (features/tokens/tokens-route.ts); tokens themselves never go in the URL. */
export interface TokensRoute extends TokensState {
  screen: 'tokens';
  org?: string;
}

/** Outbox and sessions (features/outbox/outbox-route.ts). */
export interface OutboxRoute extends OutboxState {
  screen: 'outbox';
  org?: string;
}

/** Account administration (features/accounts-admin/accounts-admin-route.ts). */
export interface AccountsAdminRoute extends AccountsAdminState {
  screen: 'accounts-admin';
  org?: string;
}

/** Roles and their scopes (features/roles/roles-route.ts). */
export interface RolesRoute extends RolesState {
  screen: 'roles';
  org?: string;
}

/** Scope-chain tester (features/scope-tester/tester-route.ts); a pasted token never goes in the URL. */
export interface ScopeTesterRoute extends TesterState {
  screen: 'scope-tester';
  org?: string;
}

/** Signed-request composer (features/signed-requests/signed-route.ts); the app secret never goes in the URL. */
export interface SignedRequestsRoute extends SignedRequestState {
  screen: 'signed-requests';
  org?: string;
}

export type Route =
  | AccountsRoute
  | BrowseRoute
  | SchemasRoute
  | DemoDataRoute
  | AppsRoute
  | TokensRoute
  | OutboxRoute
  | AccountsAdminRoute
  | RolesRoute
  | ScopeTesterRoute
  | SignedRequestsRoute;
export type Screen = Route['screen'];

export const DEFAULT_ROUTE: AccountsRoute = { screen: 'accounts', skip: 0, limit: DEFAULT_PAGE_SIZE };

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#/, '').replace(/^\/+/, '');
  const queryStart = text.indexOf('?');
  const path = queryStart === -1 ? text : text.slice(0, queryStart);
  const params = new URLSearchParams(queryStart === -1 ? '' : text.slice(queryStart + 1));

  if (path === 'browse') return withOrgParam({ screen: 'browse', ...parseBrowseParams(params) }, params);
  if (path === 'demo-data') return withOrgParam({ screen: 'demo-data' }, params);
  if (path === 'apps') return withOrgParam({ screen: 'apps', ...parseAppsParams(params) }, params);
  if (path === 'tokens') return withOrgParam({ screen: 'tokens', ...parseTokensParams(params) }, params);
  if (path === 'outbox') return withOrgParam({ screen: 'outbox', ...parseOutboxParams(params) }, params);
  if (path === 'accounts-admin') {
    return withOrgParam({ screen: 'accounts-admin', ...parseAccountsAdminParams(params) }, params);
  }
  if (path === 'roles') return withOrgParam({ screen: 'roles', ...parseRolesParams(params) }, params);
  if (path === 'scope-tester') return withOrgParam({ screen: 'scope-tester', ...parseTesterParams(params) }, params);
  if (path === 'signed-requests') {
    return withOrgParam({ screen: 'signed-requests', ...parseSignedParams(params) }, params);
  }
  if (path === 'schemas') {
    const route: SchemasRoute = { screen: 'schemas' };
    const name = params.get('name');
    if (name !== null && SCHEMA_NAME.test(name)) route.name = name;
    return withOrgParam(route, params);
  }
  const route: AccountsRoute = { ...DEFAULT_ROUTE };
  if (path !== 'accounts' && path !== '') return withOrgParam(route, params);
  route.skip = parseSkip(params.get('skip'));
  route.limit = parsePageSize(params.get('limit'));
  return withOrgParam(route, params);
}

export function serializeRoute(route: Route): string {
  const params = new URLSearchParams();
  switch (route.screen) {
    case 'accounts':
      params.set('skip', String(route.skip));
      params.set('limit', String(route.limit));
      break;
    case 'browse':
      writeBrowseParams(route, params);
      break;
    case 'schemas':
      if (route.name !== undefined) params.set('name', route.name);
      break;
    case 'demo-data':
      break;
    case 'apps':
      writeAppsParams(route, params);
      break;
    case 'tokens':
      writeTokensParams(route, params);
      break;
    case 'outbox':
      writeOutboxParams(route, params);
      break;
    case 'accounts-admin':
      writeAccountsAdminParams(route, params);
      break;
    case 'roles':
      writeRolesParams(route, params);
      break;
    case 'scope-tester':
      writeTesterParams(route, params);
      break;
    case 'signed-requests':
      writeSignedParams(route, params);
      break;
  }
  if (route.org !== undefined) params.set('org', route.org);
  const query = params.toString();
  return query === '' ? `#/${route.screen}` : `#/${route.screen}?${query}`;
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

function withOrgParam<R extends Route>(route: R, params: URLSearchParams): R {
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
