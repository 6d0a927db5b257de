import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { schemasQuery } from '../../api/schemas';
import { QueryState } from '../../components/QueryState';
import { ScreenHeader } from '../../components/ScreenHeader';
import { Tabs } from '../../components/Tabs';
import type { Route } from '../../routing/route';
import type { ConfigurationRoute } from './configuration-route';
import { CONFIGURATION_TABS, type ConfigurationTab } from './configuration-route';
import { DeploymentsPanel } from './DeploymentsPanel';
import { ExportPanel } from './ExportPanel';
import { ImportPanel } from './ImportPanel';
import '../../styles/access.css';
import '../../styles/views.css';

interface ConfigurationScreenProps {
  orgClient: OrgClient;
  route: ConfigurationRoute;
  navigate: (route: Route) => void;
}

const TAB_LABELS: Record<ConfigurationTab, string> = {
  export: 'Export',
  import: 'Import',
  deployments: 'Deployments',
};

/** Configuration as files: export with a manifest, import with a dry-run diff, deployments between orgs. */
export function ConfigurationScreen({ orgClient, route, navigate }: ConfigurationScreenProps) {
  const schemas = useQuery(schemasQuery(orgClient));
  return (
    <section className="screen screen--scroll config-screen" aria-labelledby="configuration-title">
      <ScreenHeader
        title="Configuration"
        titleId="configuration-title"
        description={
          <>
            Object definitions, roles, apps, scripts, views and settings as NDJSON files:{' '}
            <code>/{orgClient.org}/v2/developer/environment/export | import</code>
          </>
        }
      />
      <div className="config-tabs">
        <Tabs
          tabs={CONFIGURATION_TABS}
          labels={TAB_LABELS}
          current={route.tab}
          label="Configuration"
          testId="config-tab"
          onChange={(tab) => navigate({ screen: 'configuration', tab, org: route.org })}
        />
      </div>
      {route.tab === 'export' && (
        <QueryState query={schemas} loading="Loading object definitions…">
          {(data) => <ExportPanel orgClient={orgClient} schemas={data} />}
        </QueryState>
      )}
      {route.tab === 'import' && <ImportPanel orgClient={orgClient} />}
      {route.tab === 'deployments' && (
        <DeploymentsPanel
          orgClient={orgClient}
          selectedId={route.deployment}
          onSelect={(deployment) => navigate({ ...route, deployment })}
        />
      )}
    </section>
  );
}
