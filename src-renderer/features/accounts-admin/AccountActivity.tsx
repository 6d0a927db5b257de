import { useQueries, useQuery } from '@tanstack/react-query';
import { appsQuery } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { storedTokensQuery } from '../../api/tokens';
import { SessionsTable } from '../../components/SessionsTable';
import { UtcTime } from '../../components/UtcTime';

/** The account's live sessions and its stored tokens across every app. */
export function AccountActivity({
  orgClient,
  accountId,
  onOpenTokenLab,
}: {
  orgClient: OrgClient;
  accountId: string;
  onOpenTokenLab: () => void;
}) {
  const apps = useQuery(appsQuery(orgClient));
  const tokenLists = useQueries({
    queries: (apps.data ?? []).map((app) => storedTokensQuery(orgClient, accountId, app.key)),
  });
  const tokens = (apps.data ?? []).flatMap((app, index) =>
    (tokenLists[index]?.data ?? []).map((token) => ({ app, token })),
  );
  const loading = apps.isPending || tokenLists.some((list) => list.isPending);
  return (
    <>
      <div className="panel__section" data-testid="account-sessions">
        <p className="panel__heading">Sessions</p>
        <SessionsTable orgClient={orgClient} account={accountId} testId="account-sessions" compact />
      </div>
      <div className="panel__section" data-testid="account-tokens">
        <div className="access-toolbar">
          <p className="panel__heading">Stored tokens</p>
          <button
            type="button"
            className="button button--ghost button--small"
            data-testid="account-open-token-lab"
            onClick={onOpenTokenLab}
          >
            Open in the Token lab…
          </button>
        </div>
        {loading ? (
          <p className="status-line" role="status">
            <span className="spinner" aria-hidden="true" /> Loading tokens…
          </p>
        ) : tokens.length === 0 ? (
          <p className="note" data-testid="account-tokens-empty">
            No stored tokens (ephemeral tokens are not stored).
          </p>
        ) : (
          <table className="grid" data-testid="account-tokens-table">
            <thead>
              <tr>
                <th scope="col">jti</th>
                <th scope="col">app</th>
                <th scope="col">used</th>
                <th scope="col">expires</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map(({ app, token }) => (
                <tr key={token.jti} data-testid="account-token-row">
                  <td className="grid__id" title={token.jti}>
                    {token.jti.slice(0, 8)}…
                  </td>
                  <td>{app.label}</td>
                  <td>{token.times_authorized}</td>
                  <td>{token.expires_at ? <UtcTime iso={token.expires_at} /> : 'never'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </>
  );
}
