import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { fetchPublishedJwks, listStoredTokens, tryToken, type TryResult } from '../../api/tokens';
import { FaultMessage } from '../../components/FaultMessage';
import { normalizeToken } from './claims';
import { TokenInput } from './TokenInput';
import { verifyToken, type CheckState, type VerifyReport } from './verify';
import { accountLabel } from '../../components/AccountCombobox';

const STATE_CLASS: Record<CheckState, string> = {
  pass: 'keys-ok',
  fail: 'keys-bad',
  warn: 'keys-warn',
  info: 'keys-info',
};
const STATE_WORD: Record<CheckState, string> = { pass: 'OK', fail: 'Fails', warn: 'Not checked', info: 'Note' };

/**
 * Verify as a relying party would (offline: signature against the published JWK, time against the
 * service's clock, the stored-token list), and "Try it" against the service itself.
 */
export function VerifyPane({
  orgClient,
  apps,
  token,
  onToken,
}: {
  orgClient: OrgClient;
  apps: readonly ServiceApp[];
  token: string;
  onToken: (text: string) => void;
}) {
  // Results belong to the token they were made for; editing the token clears them.
  const [report, setReport] = useState<{ token: string; report: VerifyReport } | null>(null);
  const [tried, setTried] = useState<{ token: string; result: TryResult } | null>(null);
  const [busy, setBusy] = useState<'verify' | 'try' | null>(null);
  const queryClient = useQueryClient();
  const text = normalizeToken(token);
  const shownReport = report?.token === text ? report.report : null;
  const shownTry = tried?.token === text ? tried.result : null;

  const verify = async () => {
    setBusy('verify');
    try {
      const result = await verifyToken(text, {
        org: orgClient.org,
        apps,
        fetchJwks: () => fetchPublishedJwks(orgClient.org),
        listStored: (account, app) => listStoredTokens(orgClient, account, app),
      });
      setReport({ token: text, report: result });
    } finally {
      setBusy(null);
    }
  };
  const tryIt = async () => {
    setBusy('try');
    try {
      setTried({ token: text, result: await tryToken(orgClient.org, text) });
    } finally {
      setBusy(null);
      // A use was spent (or the token refused): the stored-token list's counts are stale now.
      void queryClient.invalidateQueries({ queryKey: ['org', orgClient.org, 'tokens'] });
    }
  };

  return (
    <div className="keys-section" data-testid="verify-pane">
      <TokenInput token={token} onToken={onToken} testId="verify-token" />
      <div className="form__actions">
        <button
          type="button"
          className="button button--primary"
          data-testid="verify-run"
          disabled={text === '' || busy !== null}
          onClick={() => void verify()}
        >
          {busy === 'verify' ? 'Verifying…' : 'Verify offline'}
        </button>
        <button
          type="button"
          className="button button--secondary"
          data-testid="verify-try"
          disabled={text === '' || busy !== null}
          onClick={() => void tryIt()}
        >
          {busy === 'try' ? 'Calling…' : 'Try it: GET /accounts/me'}
        </button>
      </div>
      <p className="keys-note">
        Try it sends the token as <code>Authorization: Bearer …</code> without the console’s cookie. A limited-use token
        spends one use.
      </p>
      {text === '' && <p className="empty-state">Paste a token, or mint one, to verify it.</p>}
      {shownReport && (
        <div className="keys-section" data-testid="verify-report" data-valid={shownReport.valid}>
          <p className={shownReport.valid ? 'keys-ok' : 'keys-bad'} data-testid="verify-verdict">
            <strong>
              {shownReport.valid
                ? 'Valid: the service should accept this token now.'
                : 'Invalid: the service will refuse this token.'}
            </strong>
            {shownReport.serverTime !== undefined && (
              <span className="keys-note"> Service time {new Date(shownReport.serverTime).toISOString()}.</span>
            )}
          </p>
          <ul className="checks-list">
            {shownReport.checks.map((c) => (
              <li key={c.id} className={STATE_CLASS[c.state]} data-testid={`verify-check-${c.id}`} data-state={c.state}>
                <strong>
                  {c.title}: {STATE_WORD[c.state]}.
                </strong>{' '}
                {c.detail}
              </li>
            ))}
          </ul>
        </div>
      )}
      {shownTry && (
        <div className="keys-section" data-testid="try-result" data-ok={shownTry.ok}>
          <h3 className="keys-section__title">GET /{orgClient.org}/v2/accounts/me</h3>
          {shownTry.ok ? (
            <>
              <p className="keys-ok" data-testid="try-account">
                Accepted: the service answered as <strong>{accountLabel(shownTry.account)}</strong>{' '}
                <code className="grid__id">{shownTry.account._id}</code>.
              </p>
              <pre className="keys-pre">{JSON.stringify(shownTry.account, null, 2)}</pre>
            </>
          ) : (
            <FaultMessage fault={shownTry.error.fault} />
          )}
        </div>
      )}
    </div>
  );
}
