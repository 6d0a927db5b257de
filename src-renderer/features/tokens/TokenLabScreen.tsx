import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appsQuery } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import type { Route } from '../../routing/route';
import type { TokensRoute } from './tokens-route';
import '../../styles/keys.css';
import { AccountCombobox } from '../../components/AccountCombobox';
import { DecodePane } from './DecodePane';
import { MintPane } from './MintPane';
import { emptyMintDraft, type MintDraft } from './mint-form';
import { ScriptMintSection } from './ScriptMintSection';
import { StoredTokens } from './StoredTokens';
import { TOKEN_PANES, type TokenPane } from './tokens-route';
import { VerifyPane } from './VerifyPane';
import { Field } from '../../components/Field';
import { ScreenHeader } from '../../components/ScreenHeader';

interface TokenLabScreenProps {
  orgClient: OrgClient;
  route: TokensRoute;
  navigate: (route: Route) => void;
}

const PANE_LABELS: Record<TokenPane, string> = { mint: 'Mint', decode: 'Decode', verify: 'Verify' };

/**
 * Mint, decode and verify tokens (docs/tokens.md), and manage an account's stored tokens. The
 * account, app and pane are in the URL; the token being worked on is held in memory only.
 */
export function TokenLabScreen({ orgClient, route, navigate }: TokenLabScreenProps) {
  const apps = useQuery(appsQuery(orgClient));
  // The working token: shared by the panes, never written to the URL or to storage.
  const [token, setToken] = useState('');
  const [draft, setDraft] = useState<MintDraft>(emptyMintDraft);
  const app = apps.data?.find((a) => a.key === route.app);
  const go = (change: Partial<TokensRoute>) => navigate({ ...route, ...change });

  return (
    <section className="screen" aria-labelledby="tokens-title">
      <ScreenHeader
        title="Token lab"
        titleId="tokens-title"
        description={
          <>
            <code>POST /{orgClient.org}/v2/accounts/:id/tokens</code> · tokens stay in this window’s memory only
          </>
        }
      />
      {apps.isError && <FaultMessage fault={faultOf(apps.error)} onRetry={() => void apps.refetch()} />}
      <div className="lab__context">
        <Field label="Account" className="lab__picker">
          {(id, describedBy) => (
            <>
              <AccountCombobox
                orgClient={orgClient}
                id={id}
                describedBy={describedBy}
                value={route.account}
                testId="lab-account"
                onChange={(account) => {
                  if (account) return go({ account: account._id });
                  const next: TokensRoute = { ...route };
                  delete next.account;
                  navigate(next);
                }}
              />
              {route.account && (
                <code className="combobox__id" data-testid="lab-account-id">
                  {route.account}
                </code>
              )}
            </>
          )}
        </Field>
        <Field label="Application">
          <select
            className="select select--large"
            data-testid="lab-app"
            value={route.app ?? ''}
            disabled={!apps.data}
            onChange={(e) => go({ app: e.target.value })}
          >
            <option value="" disabled>
              {apps.isPending ? 'Loading…' : 'Choose an app'}
            </option>
            {apps.data?.map((a) => (
              <option key={a.key} value={a.key}>
                {a.label} ({a.kind}){a.expose ? ' · keys exposed' : ''}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className={route.pane === 'decode' ? 'lab lab--wide' : 'lab'}>
        <div className="lab__main">
          <div className="segmented" role="tablist" aria-label="Panes">
            {TOKEN_PANES.map((pane) => (
              <button
                key={pane}
                type="button"
                role="tab"
                aria-selected={route.pane === pane}
                className={route.pane === pane ? 'segmented__item segmented__item--on' : 'segmented__item'}
                data-testid={`pane-${pane}`}
                onClick={() => go({ pane })}
              >
                {PANE_LABELS[pane]}
              </button>
            ))}
          </div>
          <div role="tabpanel" aria-label={PANE_LABELS[route.pane]}>
            {route.pane === 'mint' && (
              <MintPane
                orgClient={orgClient}
                accountId={route.account}
                app={app}
                token={token}
                draft={draft}
                onDraft={setDraft}
                onMinted={setToken}
                onOpen={(pane) => go({ pane })}
              />
            )}
            {route.pane === 'mint' && (
              <ScriptMintSection
                orgClient={orgClient}
                accountId={route.account}
                app={app}
                draft={draft}
                token={token}
                onMinted={setToken}
              />
            )}
            {route.pane === 'decode' && (
              <DecodePane
                token={token}
                onToken={setToken}
                onRemint={(remint) => {
                  setDraft(remint.draft);
                  // The token's account and app when this org has them; the mint form checks the rest.
                  const known = apps.data?.some((a) => a.key === remint.app) === true;
                  go({
                    pane: 'mint',
                    ...(remint.account ? { account: remint.account } : {}),
                    ...(known ? { app: remint.app } : {}),
                  });
                }}
              />
            )}
            {route.pane === 'verify' && (
              <VerifyPane orgClient={orgClient} apps={apps.data ?? []} token={token} onToken={setToken} />
            )}
          </div>
        </div>
        {route.pane !== 'decode' && (
          <aside className="lab__side" aria-label="Stored tokens">
            <StoredTokens orgClient={orgClient} accountId={route.account} app={app} />
          </aside>
        )}
      </div>
    </section>
  );
}
