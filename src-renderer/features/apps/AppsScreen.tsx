import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { appsQuery } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { QueryState } from '../../components/QueryState';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { Route } from '../../routing/route';
import { AppDetail } from './AppDetail';
import { AppList } from './AppList';
import type { AppsRoute } from './apps-route';
import { SecretRevealDialog } from './KeyDialogs';
import { NewApp } from './NewApp';
import '../../styles/keys.css';

interface AppsScreenProps {
  orgClient: OrgClient;
  route: AppsRoute;
  navigate: (route: Route) => void;
}

/** A secret being shown once: held in component state only, dropped when the dialog closes. */
interface Revealed {
  label: string;
  secret: string;
}

/** Applications and their keys (docs/orgs-and-apps.md#applications, docs/tokens.md): a list, and the selected app in tabs. */
export function AppsScreen({ orgClient, route, navigate }: AppsScreenProps) {
  const apps = useQuery(appsQuery(orgClient));
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const selected = apps.data?.find((a) => a.key === route.key) ?? (creating ? undefined : apps.data?.[0]);
  const select = (key: string) => {
    setCreating(false);
    navigate({ ...route, key });
  };

  return (
    <section className="screen" aria-labelledby="apps-title">
      <ScreenHeader
        title="Applications"
        titleId="apps-title"
        description={
          <>
            Keys, secrets and token-signing key pairs: <code>GET /{orgClient.org}/v2/apps</code>
          </>
        }
        actions={
          <button
            type="button"
            className="button button--primary"
            data-testid="app-new"
            aria-expanded={creating}
            onClick={() => setCreating((on) => !on)}
          >
            {creating ? 'Close' : '+ New app'}
          </button>
        }
      />
      <QueryState query={apps} loading="Loading applications…">
        {(list) => (
          <div className="keys-layout">
            <AppList apps={list} selectedKey={selected?.key} onSelect={select} />
            <div className="keys-detail">
              {creating && (
                <NewApp
                  orgClient={orgClient}
                  onCreated={(app, secret) => {
                    if (secret !== null) setRevealed({ label: app.label, secret });
                    select(app.key);
                  }}
                  onCancel={() => setCreating(false)}
                />
              )}
              {!creating && selected && (
                <AppDetail
                  key={selected.key}
                  orgClient={orgClient}
                  app={selected}
                  tab={route.tab}
                  onTab={(tab) => navigate({ ...route, key: selected.key, tab })}
                  onSecret={(secret) => setRevealed({ label: selected.label, secret })}
                  onDeleted={() => navigate({ screen: 'apps', tab: 'settings', org: route.org })}
                  onOpenTokenLab={() => navigate({ screen: 'tokens', pane: 'mint', app: selected.key, org: route.org })}
                />
              )}
            </div>
          </div>
        )}
      </QueryState>
      {revealed && (
        <SecretRevealDialog label={revealed.label} secret={revealed.secret} onClose={() => setRevealed(null)} />
      )}
    </section>
  );
}
