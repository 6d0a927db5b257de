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
 *   #/views?name=…                         views; #/configuration?tab=…&deployment=… export/import, deployments
 *
 * `org` is written only when it is not the default org (the first org the service lists).
 * Setup and login are not routes: they follow from the service's state, and after signing in the
 * user lands on the screen the URL names.
 *
 * Trust boundary: the hash is user input. Anything unrecognised parses to the default route, and
 * `useRoute` rewrites the address bar to the normalised form.
 */
import type { BrowseState } from '../features/object-browser/browse-route';
import type { AppsState } from '../features/apps/apps-route';
import type { TokensState } from '../features/tokens/tokens-route';
import type { OutboxState } from '../features/outbox/outbox-route';
import type { AccountsAdminState } from '../features/accounts-admin/accounts-admin-route';
import type { RolesState } from '../features/roles/roles-route';
import type { TesterState } from '../features/scope-tester/tester-route';
import type { SignedRequestState } from '../features/signed-requests/signed-route';
import type { ScriptsState } from '../features/scripts/scripts-route';
import type { ViewsState } from '../features/views/views-route';
import type { ConfigurationState } from '../features/configuration/configuration-route';

export interface NavigateOptions {
  /** Replace the history entry instead of adding one (for corrections, not user moves). */
  replace?: boolean;
}

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

/** Scripts: runner, library, route scripts (features/scripts/scripts-route.ts); runs stay in memory. */
export interface ScriptsRoute extends ScriptsState {
  screen: 'scripts';
  org?: string;
}

/** Views: stored queries, their runs and view tokens (features/views/views-route.ts). */
export interface ViewsRoute extends ViewsState {
  screen: 'views';
  org?: string;
}

/** Configuration export/import and deployments (features/configuration/configuration-route.ts). */
export interface ConfigurationRoute extends ConfigurationState {
  screen: 'configuration';
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
  | SignedRequestsRoute
  | ScriptsRoute
  | ViewsRoute
  | ConfigurationRoute;
export type Screen = Route['screen'];

export const DEFAULT_ROUTE: AccountsRoute = { screen: 'accounts', skip: 0, limit: DEFAULT_PAGE_SIZE };

/** The accounts grid's page from the query (parseRoute and serializeRoute live in app/screens.tsx). */
export function parseAccountsParams(params: URLSearchParams): Pick<AccountsRoute, 'skip' | 'limit'> {
  return { skip: parseSkip(params.get('skip')), limit: parsePageSize(params.get('limit')) };
}

export function writeAccountsParams(route: AccountsRoute, params: URLSearchParams): void {
  params.set('skip', String(route.skip));
  params.set('limit', String(route.limit));
}

export function parseSchemasParams(params: URLSearchParams): Pick<SchemasRoute, 'name'> {
  const name = params.get('name');
  return name !== null && SCHEMA_NAME.test(name) ? { name } : {};
}

export function writeSchemasParams(route: SchemasRoute, params: URLSearchParams): void {
  if (route.name !== undefined) params.set('name', route.name);
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

/** Adds the `org` of the query when it is a valid org code. */
export function withOrgParam<R extends Route>(route: R, params: URLSearchParams): R {
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
