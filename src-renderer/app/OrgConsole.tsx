import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { faultOf } from '../api/api-error';
import { useConsoleClient } from '../api/client-context';
import { markSignedOut, sessionQuery, useLogoutMutation } from '../api/session';
import type { OrgSummary } from '../api/types';
import { AppShell } from '../components/AppShell';
import type { OrgClient } from '../api/org-client';
import { AccountsScreen } from '../features/accounts/AccountsScreen';
import { DemoDataScreen } from '../features/demo-data/DemoDataScreen';
import { BrowseScreen } from '../features/object-browser/BrowseScreen';
import { SchemasScreen } from '../features/schemas/SchemasScreen';
import { AppsScreen } from '../features/apps/AppsScreen';
import { TokenLabScreen } from '../features/tokens/TokenLabScreen';
import { OutboxScreen } from '../features/outbox/OutboxScreen';
import { AccountsAdminScreen } from '../features/accounts-admin/AccountsAdminScreen';
import { RolesScreen } from '../features/roles/RolesScreen';
import { ScopeTesterScreen } from '../features/scope-tester/ScopeTesterScreen';
import { SignedRequestsScreen } from '../features/signed-requests/SignedRequestsScreen';
import { LoginScreen } from '../features/login/LoginScreen';
import type { Route } from '../routing/route';
import { BootFailure, BootSplash } from './BootScreens';

interface OrgConsoleProps {
  org: OrgSummary;
  orgs: OrgSummary[];
  version: string;
  route: Route;
  onSelectOrg: (code: string) => void;
  navigate: (route: Route) => void;
}

/** One org: restores the session on load, then shows login or the signed-in console. */
export function OrgConsole({ org, orgs, version, route, onSelectOrg, navigate }: OrgConsoleProps) {
  const orgClient = useConsoleClient().org(org);
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery(orgClient));
  const logout = useLogoutMutation(orgClient);

  // Any request that finds the session gone (expired, signed in elsewhere) returns to login.
  useEffect(
    () => orgClient.onSessionEnded((fault) => markSignedOut(queryClient, orgClient.org, fault)),
    [orgClient, queryClient],
  );

  if (session.isPending) return <BootSplash label="Checking your session…" />;
  if (session.isError) {
    return (
      <BootFailure
        title="Cannot check the session"
        fault={faultOf(session.error)}
        onRetry={() => void session.refetch()}
      />
    );
  }
  const account = session.data.loggedin ? session.data.account : undefined;
  if (!account) {
    return <LoginScreen orgClient={orgClient} orgs={orgs} endedBy={session.data.endedBy} onSelectOrg={onSelectOrg} />;
  }
  return (
    <AppShell
      orgCode={org.code}
      orgName={org.name}
      userEmail={account.email}
      version={version}
      activeScreen={route.screen}
      routeOrg={route.org}
      onLogout={() => logout.mutate()}
      loggingOut={logout.isPending}
      logoutFault={logout.isError ? faultOf(logout.error) : null}
    >
      <Screen orgClient={orgClient} route={route} navigate={navigate} />
    </AppShell>
  );
}

/** The screen the route names. */
function Screen({
  orgClient,
  route,
  navigate,
}: {
  orgClient: OrgClient;
  route: Route;
  navigate: (route: Route) => void;
}) {
  switch (route.screen) {
    case 'accounts':
      return <AccountsScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'browse':
      return <BrowseScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'schemas':
      return <SchemasScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'demo-data':
      return <DemoDataScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'apps':
      return <AppsScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'tokens':
      return <TokenLabScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'outbox':
      return <OutboxScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'accounts-admin':
      return <AccountsAdminScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'roles':
      return <RolesScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'scope-tester':
      return <ScopeTesterScreen orgClient={orgClient} route={route} navigate={navigate} />;
    case 'signed-requests':
      return <SignedRequestsScreen orgClient={orgClient} route={route} navigate={navigate} />;
  }
}
