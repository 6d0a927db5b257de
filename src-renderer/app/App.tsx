import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { faultOf } from '../api/api-error';
import { useConsoleClient } from '../api/client-context';
import { serviceInfoQuery } from '../api/service';
import { SetupScreen } from '../features/setup/SetupScreen';
import { withOrg } from '../routing/route';
import { useRoute } from './use-route';
import { ConnectionBadge } from '../components/ConnectionBadge';
import { BootFailure, BootSplash } from './BootScreens';
import { OrgConsole } from './OrgConsole';
import { selectOrg } from './org-selection';

/** Decides the screen: setup on first run, else the console of the org the URL names. */
export function App() {
  const client = useConsoleClient();
  const info = useQuery(serviceInfoQuery(client));
  const [route, navigate] = useRoute();
  const org = info.data ? selectOrg(info.data.orgs, route.org) : undefined;
  const defaultOrg = info.data?.orgs[0]?.code;

  // An org the service does not have (a stale bookmark) falls back to the default one.
  useEffect(() => {
    if (org && route.org !== undefined && route.org !== org.code) {
      navigate(withOrg(route, org.code, defaultOrg), { replace: true });
    }
  }, [org, route, defaultOrg, navigate]);

  if (info.isPending) return <BootSplash label="Connecting to the service…" />;
  if (info.isError) {
    // A remote connection that cannot be reached: the banner offers the way back to this computer.
    return (
      <>
        <ConnectionBadge variant="banner" />
        <BootFailure title="Service unavailable" fault={faultOf(info.error)} onRetry={() => void info.refetch()} />
      </>
    );
  }
  if (info.data.setupRequired) return <SetupScreen defaultOrg={info.data.defaultOrg} />;
  if (!org) {
    return (
      <BootFailure
        title="No org"
        fault={{
          object: 'fault',
          name: 'error',
          code: 'kNotFound',
          errCode: 'console.noOrg',
          status: 0,
          message: 'The service reports no org and no setup to do. Create an org with the admin CLI.',
        }}
        onRetry={() => void info.refetch()}
      />
    );
  }
  return (
    <OrgConsole
      key={org.code}
      org={org}
      orgs={info.data.orgs}
      version={info.data.version}
      route={route}
      onSelectOrg={(code) => navigate(withOrg(route, code, defaultOrg))}
      navigate={navigate}
    />
  );
}
