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
export interface NavigateOptions {
  /** Replace the history entry instead of adding one (for corrections, not user moves). */
  replace?: boolean;
}

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;
/** The service rejects a larger skip (docs/query-semantics.md). */
export const MAX_SKIP = 500_000;

const ORG_CODE = /^[a-z0-9-]+$/;

/**
 * Each screen's state in the URL, by screen id. Routing lists no screen itself: a feature adds
 * its own entry from its `*-route.ts` file by augmenting this interface —
 *
 *   declare module '../../routing/route' { interface ScreenStates { apps: AppsState } }
 *
 * — and app/screens.tsx's table, typed over these ids, refuses a screen without an entry. So a
 * new screen touches its feature folder and one registry entry, nothing here.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by augmentation
export interface ScreenStates {}

export type Screen = keyof ScreenStates & string;

/** One screen's route: its id, its state, and the org when it is not the default one. */
export type ScreenRoute<S extends Screen> = { screen: S; org?: string } & ScreenStates[S];

/** Any screen's route. */
export type Route = { [S in Screen]: ScreenRoute<S> }[Screen];

/** Names kept for files that import them; new code writes `ScreenRoute<'id'>`. */
export type AccountsRoute = ScreenRoute<'accounts'>;
export type BrowseRoute = ScreenRoute<'browse'>;
export type SchemasRoute = ScreenRoute<'schemas'>;
export type DemoDataRoute = ScreenRoute<'demo-data'>;

export function isPageSize(value: number): value is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(value);
}

/** A `skip` from the query: digits only, capped at the service's limit; anything else is 0. */
export function parseSkip(raw: string | null): number {
  if (raw === null || !/^\d{1,7}$/.test(raw)) return 0;
  return Math.min(Number(raw), MAX_SKIP);
}

/** A page size from the query, one of PAGE_SIZES or the default. */
export function parsePageSize(raw: string | null): PageSize {
  if (raw === null || !/^\d{1,4}$/.test(raw)) return DEFAULT_PAGE_SIZE;
  const size = Number(raw);
  return isPageSize(size) ? size : DEFAULT_PAGE_SIZE;
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
