import { formatUtc } from '../../components/utc-time';
import { UtcTime } from '../../components/UtcTime';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { revokeAllTokens, revokeToken, storedTokensQuery, tokenKeys } from '../../api/tokens';
import { FaultMessage } from '../../components/FaultMessage';

/** An account's stored (permanent / limited-use) tokens for one app: uses, remaining, revoke. */
export function StoredTokens({
  orgClient,
  accountId,
  app,
}: {
  orgClient: OrgClient;
  accountId: string | undefined;
  app: ServiceApp | undefined;
}) {
  const queryClient = useQueryClient();
  const ready = accountId !== undefined && app !== undefined;
  const tokens = useQuery({ ...storedTokensQuery(orgClient, accountId ?? '', app?.key ?? ''), enabled: ready });
  const [confirmAll, setConfirmAll] = useState(false);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: tokenKeys.stored(orgClient.org, accountId ?? '', app?.key ?? '') });
  const revoke = useMutation({
    mutationFn: (jti: string) => revokeToken(orgClient, accountId ?? '', jti),
    onSettled: refresh,
  });
  const revokeAll = useMutation({
    mutationFn: () => revokeAllTokens(orgClient, accountId ?? '', app?.key ?? ''),
    onSettled: () => {
      setConfirmAll(false);
      return refresh();
    },
  });

  return (
    <section className="keys-section" data-testid="stored-tokens" aria-labelledby="stored-title">
      <div className="keys-section__head">
        <h2 className="keys-section__title" id="stored-title">
          Stored tokens
        </h2>
        {ready && (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => void tokens.refetch()}
            disabled={tokens.isFetching}
          >
            {tokens.isFetching ? 'Loading…' : 'Refresh'}
          </button>
        )}
      </div>
      <p className="keys-note">
        Permanent and limited-use tokens of the account for the app. Ephemeral tokens are not stored.
      </p>
      {!ready && <p className="empty-state">Pick an account and an application.</p>}
      {ready && tokens.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Loading tokens…
        </p>
      )}
      {ready && tokens.isError && (
        <FaultMessage fault={faultOf(tokens.error)} onRetry={() => void tokens.refetch()} compact />
      )}
      {ready && tokens.data?.length === 0 && (
        <p className="empty-state" data-testid="stored-empty">
          No live stored tokens.
        </p>
      )}
      {ready && tokens.data && tokens.data.length > 0 && (
        <>
          <div className="grid-frame">
            <table className="grid" data-testid="stored-table">
              <thead>
                <tr>
                  <th scope="col">jti</th>
                  <th scope="col">used</th>
                  <th scope="col">left</th>
                  <th scope="col">expires</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.map((t) => (
                  <tr key={t.jti} data-testid="stored-row" data-jti={t.jti}>
                    <td className="grid__id" title={t.jti}>
                      {t.jti.slice(0, 8)}…
                    </td>
                    <td title={t.last_authorized ? `last used ${formatUtc(t.last_authorized)}` : 'never used'}>
                      {t.times_authorized}
                    </td>
                    <td data-testid="stored-remaining">{t.uses_remaining ?? '∞'}</td>
                    <td>{t.expires_at ? <UtcTime iso={t.expires_at} /> : 'never'}</td>
                    <td>
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        data-testid="stored-revoke"
                        aria-label={`Revoke token ${t.jti}`}
                        disabled={revoke.isPending}
                        onClick={() => revoke.mutate(t.jti)}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {confirmAll ? (
            <div className="lab__row">
              <button type="button" className="button button--ghost button--small" onClick={() => setConfirmAll(false)}>
                Cancel
              </button>
              <button
                type="button"
                className="button button--danger button--small"
                data-testid="stored-revoke-all-confirm"
                disabled={revokeAll.isPending}
                onClick={() => revokeAll.mutate()}
              >
                Revoke all {tokens.data.length} for {app.label}
              </button>
            </div>
          ) : (
            <button
              type="button"
              className="button button--secondary button--small"
              data-testid="stored-revoke-all"
              onClick={() => setConfirmAll(true)}
            >
              Revoke all…
            </button>
          )}
        </>
      )}
      {revoke.isError && <FaultMessage fault={faultOf(revoke.error)} compact />}
      {revokeAll.isError && <FaultMessage fault={faultOf(revokeAll.error)} compact />}
      {revokeAll.isSuccess && (
        <p className="keys-ok" role="status">
          Revoked {revokeAll.data} token{revokeAll.data === 1 ? '' : 's'}.
        </p>
      )}
    </section>
  );
}
