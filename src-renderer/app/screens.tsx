/**
 * The one list of console screens. Each entry says how its route reads from and writes to the URL
 * hash, which component shows it, and where it sits in the sidebar; `parseRoute`, `serializeRoute`,
 * the org console and the sidebar all read this table. Adding a screen: its feature folder (whose
 * `*-route.ts` adds the screen's state to `ScreenStates`) and one entry here; the table's type
 * refuses a screen declared without an entry, and the Route type follows from the states.
 */
import type { ComponentType } from 'react';
import type { OrgClient } from '../api/org-client';
import type { NavSection } from '../components/AppShell';
import { AccountsAdminScreen } from '../features/accounts-admin/AccountsAdminScreen';
import { parseAccountsAdminParams, writeAccountsAdminParams } from '../features/accounts-admin/accounts-admin-route';
import { AccountsScreen } from '../features/accounts/AccountsScreen';
import { AppsScreen } from '../features/apps/AppsScreen';
import { parseAppsParams, writeAppsParams } from '../features/apps/apps-route';
import { DemoDataScreen } from '../features/demo-data/DemoDataScreen';
import { parseDemoDataParams, writeDemoDataParams } from '../features/demo-data/demo-data-route';
import { parseAccountsParams, writeAccountsParams } from '../features/accounts/accounts-route';
import { parseSchemasParams, writeSchemasParams } from '../features/schemas/schemas-route';
import { BrowseScreen } from '../features/object-browser/BrowseScreen';
import { parseBrowseParams, writeBrowseParams } from '../features/object-browser/browse-route';
import { OutboxScreen } from '../features/outbox/OutboxScreen';
import { parseOutboxParams, writeOutboxParams } from '../features/outbox/outbox-route';
import { RolesScreen } from '../features/roles/RolesScreen';
import { parseRolesParams, writeRolesParams } from '../features/roles/roles-route';
import { SchemasScreen } from '../features/schemas/SchemasScreen';
import { ScopeTesterScreen } from '../features/scope-tester/ScopeTesterScreen';
import { parseTesterParams, writeTesterParams } from '../features/scope-tester/tester-route';
import { ScriptsScreen } from '../features/scripts/ScriptsScreen';
import { parseScriptsParams, writeScriptsParams } from '../features/scripts/scripts-route';
import { SignedRequestsScreen } from '../features/signed-requests/SignedRequestsScreen';
import { parseSignedParams, writeSignedParams } from '../features/signed-requests/signed-route';
import { ViewsScreen } from '../features/views/ViewsScreen';
import { parseViewsParams, writeViewsParams } from '../features/views/views-route';
import { ConnectionsScreen } from '../features/connections/ConnectionsScreen';
import { parseConnectionsParams, writeConnectionsParams } from '../features/connections/connections-route';
import { connectionsBridge } from '../api/desktop-connections';
import { ConfigurationScreen } from '../features/configuration/ConfigurationScreen';
import { parseConfigurationParams, writeConfigurationParams } from '../features/configuration/configuration-route';
import { TokenLabScreen } from '../features/tokens/TokenLabScreen';
import { LogsScreen } from '../features/logs/LogsScreen';
import { parseLogsParams, writeLogsParams } from '../features/logs/logs-route';
import { AuditScreen } from '../features/audit/AuditScreen';
import { parseAuditParams, writeAuditParams } from '../features/audit/audit-route';
import { ApiReferenceScreen } from '../features/api-reference/ApiReferenceScreen';
import { parseApiReferenceParams, writeApiReferenceParams } from '../features/api-reference/api-reference-route';
import { parseTokensParams, writeTokensParams } from '../features/tokens/tokens-route';
import {
  DEFAULT_PAGE_SIZE,
  withOrgParam,
  type NavigateOptions,
  type Route,
  type Screen,
  type ScreenRoute,
  type ScreenStates,
} from '../routing/route';

export interface ScreenProps<R> {
  orgClient: OrgClient;
  route: R;
  navigate: (route: Route, options?: NavigateOptions) => void;
}

export interface ScreenEntry<S extends Screen> {
  label: string;
  section: NavSection;
  /** The screen's state from the hash's query (the org aside). User input: anything odd gives defaults. */
  parse: (params: URLSearchParams) => ScreenStates[S];
  write: (state: ScreenStates[S], params: URLSearchParams) => void;
  Component: ComponentType<ScreenProps<ScreenRoute<S>>>;
  /** Whether the sidebar lists it here (default: always). */
  available?: () => boolean;
}

type ScreenTable = { [S in Screen]: ScreenEntry<S> };

/** Where an empty or unknown hash leads. */
export const DEFAULT_ROUTE: ScreenRoute<'accounts'> = { screen: 'accounts', skip: 0, limit: DEFAULT_PAGE_SIZE };

/** In sidebar order. */
export const SCREENS: ScreenTable = {
  accounts: {
    label: 'Accounts',
    section: 'Data',
    parse: parseAccountsParams,
    write: writeAccountsParams,
    Component: AccountsScreen,
  },
  browse: {
    label: 'Browse',
    section: 'Data',
    parse: parseBrowseParams,
    write: writeBrowseParams,
    Component: BrowseScreen,
  },
  views: {
    label: 'Views',
    section: 'Data',
    parse: parseViewsParams,
    write: writeViewsParams,
    Component: ViewsScreen,
  },
  schemas: {
    label: 'Schemas',
    section: 'Model',
    parse: parseSchemasParams,
    write: writeSchemasParams,
    Component: SchemasScreen,
  },
  scripts: {
    label: 'Scripts',
    section: 'Model',
    parse: parseScriptsParams,
    write: writeScriptsParams,
    Component: ScriptsScreen,
  },
  logs: {
    label: 'Logs',
    section: 'Model',
    parse: parseLogsParams,
    write: writeLogsParams,
    Component: LogsScreen,
  },
  audit: {
    label: 'Audit',
    section: 'Model',
    parse: parseAuditParams,
    write: writeAuditParams,
    Component: AuditScreen,
  },
  configuration: {
    label: 'Configuration',
    section: 'Model',
    parse: parseConfigurationParams,
    write: writeConfigurationParams,
    Component: ConfigurationScreen,
  },
  'demo-data': {
    label: 'Demo data',
    section: 'Model',
    parse: parseDemoDataParams,
    write: writeDemoDataParams,
    Component: DemoDataScreen,
  },
  apps: {
    label: 'Applications',
    section: 'Keys & tokens',
    parse: parseAppsParams,
    write: writeAppsParams,
    Component: AppsScreen,
  },
  tokens: {
    label: 'Token lab',
    section: 'Keys & tokens',
    parse: parseTokensParams,
    write: writeTokensParams,
    Component: TokenLabScreen,
  },
  outbox: {
    label: 'Outbox & sessions',
    section: 'Keys & tokens',
    parse: parseOutboxParams,
    write: writeOutboxParams,
    Component: OutboxScreen,
  },
  'accounts-admin': {
    label: 'Manage accounts',
    section: 'Access',
    parse: parseAccountsAdminParams,
    write: writeAccountsAdminParams,
    Component: AccountsAdminScreen,
  },
  roles: {
    label: 'Roles',
    section: 'Access',
    parse: parseRolesParams,
    write: writeRolesParams,
    Component: RolesScreen,
  },
  'scope-tester': {
    label: 'Scope tester',
    section: 'Access',
    parse: parseTesterParams,
    write: writeTesterParams,
    Component: ScopeTesterScreen,
  },
  'signed-requests': {
    label: 'Signed requests',
    section: 'Access',
    parse: parseSignedParams,
    write: writeSignedParams,
    Component: SignedRequestsScreen,
  },
  'api-reference': {
    label: 'API reference',
    section: 'Access',
    parse: parseApiReferenceParams,
    write: writeApiReferenceParams,
    Component: ApiReferenceScreen,
  },
  connections: {
    label: 'Connections',
    section: 'Desktop',
    parse: parseConnectionsParams,
    write: writeConnectionsParams,
    Component: ConnectionsScreen,
    // Only the desktop app has other services to connect to (its preload bridge).
    available: () => connectionsBridge() !== undefined,
  },
};

export const SCREEN_IDS = Object.keys(SCREENS) as Screen[];

function entryOf<S extends Screen>(screen: S): ScreenEntry<S> {
  return SCREENS[screen];
}

function isScreen(path: string): path is Screen {
  return Object.hasOwn(SCREENS, path);
}

/** The route a hash names; anything unrecognised is the default route (the hash is user input). */
export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#/, '').replace(/^\/+/, '');
  const queryStart = text.indexOf('?');
  const path = queryStart === -1 ? text : text.slice(0, queryStart);
  const params = new URLSearchParams(queryStart === -1 ? '' : text.slice(queryStart + 1));
  if (path === '') return withOrgParam({ ...DEFAULT_ROUTE, ...parseAccountsParams(params) }, params);
  if (!isScreen(path)) return withOrgParam({ ...DEFAULT_ROUTE }, params);
  return withOrgParam({ screen: path, ...entryOf(path).parse(params) } as Route, params);
}

export function serializeRoute(route: Route): string {
  const params = new URLSearchParams();
  (entryOf(route.screen).write as (route: Route, params: URLSearchParams) => void)(route, params);
  if (route.org !== undefined) params.set('org', route.org);
  const query = params.toString();
  return query === '' ? `#/${route.screen}` : `#/${route.screen}?${query}`;
}

/** The screen the route names. */
export function ScreenView({ orgClient, route, navigate }: ScreenProps<Route>) {
  const Component = entryOf(route.screen).Component as ComponentType<ScreenProps<Route>>;
  return <Component orgClient={orgClient} route={route} navigate={navigate} />;
}

/** The sidebar: screens grouped by section, in table order. */
export const NAV_ITEMS = SCREEN_IDS.filter((id) => SCREENS[id].available?.() ?? true).map((id) => ({
  screen: id,
  label: SCREENS[id].label,
  section: SCREENS[id].section,
}));
