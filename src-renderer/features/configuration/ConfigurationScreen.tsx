import { useQuery } from '@tanstack/react-query';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { schemasQuery } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
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
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="configuration-title">
            Configuration
          </h1>
          <p className="screen__subtitle">
            Object definitions, roles, apps, scripts, views and settings as NDJSON files:{' '}
            <code>/{orgClient.org}/v2/developer/environment/export | import</code>
          </p>
        </div>
      </div>
      <div className="segmented config-tabs" role="tablist" aria-label="Configuration">
        {CONFIGURATION_TABS.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={route.tab === tab}
            className={route.tab === tab ? 'segmented__item segmented__item--on' : 'segmented__item'}
            data-testid={`config-tab-${tab}`}
            onClick={() => navigate({ screen: 'configuration', tab, org: route.org })}
          >
            {TAB_LABELS[tab]}
          </button>
        ))}
      </div>
      {route.tab === 'export' && schemas.isError && (
        <FaultMessage fault={faultOf(schemas.error)} onRetry={() => void schemas.refetch()} />
      )}
      {route.tab === 'export' && schemas.data && <ExportPanel orgClient={orgClient} schemas={schemas.data} />}
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
