import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appsQuery } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { accountQuery, accountSearchQuery } from '../../api/tokens';
import type { Account } from '../../api/types';
import { FaultMessage } from '../../components/FaultMessage';
import type { Route, TokensRoute } from '../../routing/route';
import '../apps/keys.css';
import { DecodePane } from './DecodePane';
import { MintPane } from './MintPane';
import { emptyMintDraft, type MintDraft } from './mint-form';
import { StoredTokens } from './StoredTokens';
import { TOKEN_PANES, type TokenPane } from './tokens-route';
import { VerifyPane } from './VerifyPane';

interface TokenLabScreenProps {
  orgClient: OrgClient;
  route: TokensRoute;
  navigate: (route: Route) => void;
}

const PANE_LABELS: Record<TokenPane, string> = { mint: 'Mint', decode: 'Decode', verify: 'Verify' };

/**
 * Mint, decode and verify tokens (decisions.md §6), and manage an account's stored tokens. The
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
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="tokens-title">
            Token lab
          </h1>
          <p className="screen__subtitle">
            <code>POST /{orgClient.org}/v2/accounts/:id/tokens</code> · tokens stay in this window’s memory only
          </p>
        </div>
      </div>
      {apps.isError && <FaultMessage fault={faultOf(apps.error)} onRetry={() => void apps.refetch()} />}
      <div className="lab__context">
        <AccountPicker
          orgClient={orgClient}
          accountId={route.account}
          onPick={(id) => {
            if (id === undefined) {
              const next: TokensRoute = { ...route };
              delete next.account;
              navigate(next);
            } else go({ account: id });
          }}
        />
        <label className="field">
          <span className="field__label">Application</span>
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
        </label>
      </div>
      <div className="lab">
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
            {route.pane === 'decode' && <DecodePane token={token} onToken={setToken} />}
            {route.pane === 'verify' && (
              <VerifyPane orgClient={orgClient} apps={apps.data ?? []} token={token} onToken={setToken} />
            )}
          </div>
        </div>
        <aside className="lab__side" aria-label="Stored tokens">
          <StoredTokens orgClient={orgClient} accountId={route.account} app={app} />
        </aside>
      </div>
    </section>
  );
}

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function accountLabel(account: Pick<Account, 'email' | 'name'>): string {
  const name = [account.name?.first, account.name?.last].filter(Boolean).join(' ');
  return name ? `${name} <${account.email}>` : account.email;
}

/** Search accounts by email, name or id (`GET /accounts?where=…`) and pick one. */
function AccountPicker({
  orgClient,
  accountId,
  onPick,
}: {
  orgClient: OrgClient;
  accountId: string | undefined;
  onPick: (id: string | undefined) => void;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebounced(text, 250);
  const results = useQuery({ ...accountSearchQuery(orgClient, search), enabled: open && search.trim() !== '' });
  const current = useQuery({ ...accountQuery(orgClient, accountId ?? ''), enabled: accountId !== undefined });
  const inputId = useId();
  const listId = useId();

  if (accountId !== undefined && !open) {
    return (
      <div className="field">
        <span className="field__label">Account</span>
        <div className="lab__row" data-testid="lab-account">
          {current.isPending && <span className="spinner" aria-hidden="true" />}
          {current.data && <span data-testid="lab-account-label">{accountLabel(current.data)}</span>}
          {current.isError && <FaultMessage fault={faultOf(current.error)} compact />}
          <code className="keys-mono">{accountId}</code>
          <button
            type="button"
            className="button button--ghost button--small"
            data-testid="lab-account-change"
            onClick={() => setOpen(true)}
          >
            Change
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="field lab__picker">
      <label className="field__label" htmlFor={inputId}>
        Account
      </label>
      <input
        id={inputId}
        className="input"
        type="search"
        placeholder="Search by email, name or _id"
        data-testid="lab-account-search"
        value={text}
        autoComplete="off"
        aria-controls={listId}
        aria-expanded={open && search.trim() !== ''}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            setText('');
            setOpen(false);
          }
        }}
      />
      {open && search.trim() !== '' && (
        <ul className="lab__results" id={listId} aria-label="Matching accounts" data-testid="lab-account-results">
          {results.isPending && (
            <li className="status-line">
              <span className="spinner" aria-hidden="true" /> Searching…
            </li>
          )}
          {results.isError && (
            <li>
              <FaultMessage fault={faultOf(results.error)} compact />
            </li>
          )}
          {results.data?.length === 0 && <li className="keys-note">No account matches.</li>}
          {results.data?.map((account) => (
            <li key={account._id}>
              <button
                type="button"
                className="lab__result"
                data-testid="lab-account-result"
                onClick={() => {
                  setOpen(false);
                  setText('');
                  onPick(account._id);
                }}
              >
                <span>{accountLabel(account)}</span>
                <small>{account._id}</small>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
