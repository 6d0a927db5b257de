import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { faultOf } from '../api/api-error';
import { useConsoleClient } from '../api/client-context';
import { markSignedOut, sessionQuery, useLogoutMutation } from '../api/session';
import type { OrgSummary } from '../api/types';
import { AppShell } from '../components/AppShell';
import { ConnectionBadge } from '../components/ConnectionBadge';
import { OrgSwitcher } from '../components/OrgSwitcher';
import { ServiceLostBanner } from '../components/ServiceLostBanner';
import { LoginScreen } from '../features/login/LoginScreen';
import type { NavigateOptions, Route } from '../routing/route';
import { BootFailure, BootSplash } from './BootScreens';
import { NewOrgDialog } from './NewOrgDialog';
import { LastRoutes } from './last-routes';
import { NAV_ITEMS, ScreenView, serializeRoute } from './screens';

/** Per window: where each screen was left, for the sidebar's links. */
const lastRoutes = new LastRoutes();

interface OrgConsoleProps {
  org: OrgSummary;
  orgs: OrgSummary[];
  version: string;
  route: Route;
  onSelectOrg: (code: string) => void;
  navigate: (route: Route, options?: NavigateOptions) => void;
}

/** One org: restores the session on load, then shows login or the signed-in console. */
export function OrgConsole({ org, orgs, version, route, onSelectOrg, navigate }: OrgConsoleProps) {
  const orgClient = useConsoleClient().org(org);
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery(orgClient));
  const logout = useLogoutMutation(orgClient);
  const [newOrg, setNewOrg] = useState(false);
  useEffect(() => lastRoutes.remember(route), [route]);

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
    return (
      <>
        <ConnectionBadge variant="banner" />
        <LoginScreen orgClient={orgClient} orgs={orgs} endedBy={session.data.endedBy} onSelectOrg={onSelectOrg} />
      </>
    );
  }
  return (
    <AppShell
      orgCode={org.code}
      orgName={org.name}
      userEmail={account.email}
      version={version}
      navItems={NAV_ITEMS}
      activeScreen={route.screen}
      hrefOf={(screen) => {
        const last = lastRoutes.routeFor(screen, route.org);
        if (last) return serializeRoute(last);
        return `#/${screen}${route.org ? `?org=${encodeURIComponent(route.org)}` : ''}`;
      }}
      onLogout={() => logout.mutate()}
      loggingOut={logout.isPending}
      logoutFault={logout.isError ? faultOf(logout.error) : null}
      headerExtra={<ConnectionBadge />}
      orgSwitcher={
        <OrgSwitcher
          current={org}
          orgs={orgs}
          onSelect={onSelectOrg}
          {...(session.data.operator === true ? { onNewOrg: () => setNewOrg(true) } : {})}
        />
      }
    >
      <ServiceLostBanner />
      <ScreenView orgClient={orgClient} route={route} navigate={navigate} />
      {newOrg && (
        <NewOrgDialog
          orgClient={orgClient}
          onClose={() => setNewOrg(false)}
          onCreated={(code) => {
            setNewOrg(false);
            onSelectOrg(code);
          }}
        />
      )}
    </AppShell>
  );
}
