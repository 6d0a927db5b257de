import type { ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { Tabs } from '../../components/Tabs';
import { APP_TABS, type AppTab } from './apps-route';
import { KeysTab } from './KeysTab';
import { SessionsTab } from './SessionsTab';
import { SettingsTab } from './SettingsTab';
import { TokensTab } from './TokensTab';

const TAB_LABELS: Record<AppTab, string> = {
  settings: 'Settings',
  keys: 'Keys',
  tokens: 'Tokens',
  sessions: 'Sessions',
};

/** The selected app: its name, then Settings, Keys, Tokens and Sessions as tabs (the tab is in the URL). */
export function AppDetail({
  orgClient,
  app,
  tab,
  onTab,
  onSecret,
  onDeleted,
  onOpenTokenLab,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  tab: AppTab;
  onTab: (tab: AppTab) => void;
  onSecret: (secret: string) => void;
  onDeleted: () => void;
  onOpenTokenLab: () => void;
}) {
  const consoleApp = app.key === orgClient.appKey;
  return (
    <article className="keys-detail app-tabs" data-testid="app-detail" aria-label={`${app.label} application`}>
      <div className="keys-section__head">
        <div>
          <h2 className="keys-section__title" data-testid="app-title">
            {app.label}
          </h2>
          <p className="keys-note">
            {app.kind === 'session' ? 'Session app' : 'Signing app'}
            {app.name && (
              <>
                {' · named '}
                <code data-testid="app-name-note">{app.name}</code>
                {app.allowNameMapping ? ', which clients may send for the key' : ''}
              </>
            )}
            {consoleApp && ' · the console signs in with this app'}
            {!app.enabled && ' · disabled'}
          </p>
        </div>
      </div>
      <Tabs tabs={APP_TABS} labels={TAB_LABELS} current={tab} onChange={onTab} label="Application" testId="app-tab" />
      <div role="tabpanel" aria-label={TAB_LABELS[tab]} data-testid={`app-panel-${tab}`}>
        {tab === 'settings' && <SettingsTab orgClient={orgClient} app={app} onDeleted={onDeleted} />}
        {tab === 'keys' && <KeysTab orgClient={orgClient} app={app} onSecret={onSecret} />}
        {tab === 'tokens' && <TokensTab orgClient={orgClient} app={app} onOpenTokenLab={onOpenTokenLab} />}
        {tab === 'sessions' && <SessionsTab orgClient={orgClient} app={app} />}
      </div>
    </article>
  );
}
