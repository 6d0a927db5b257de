import { decodeJwt, explainClaims, type ClaimExplanation } from './claims';
import { UtcTime } from '../../components/UtcTime';
import { TokenInput } from './TokenInput';
import { FieldError } from '../../components/Field';

const GROUP_TITLES: Record<ClaimExplanation['group'], string> = {
  header: 'Header',
  registered: 'Registered claims',
  service: 'Service claims',
  other: 'Other claims',
};

/** Any JWT, decoded without verifying: header, payload, and every claim in words. */
export function DecodePane({ token, onToken }: { token: string; onToken: (text: string) => void }) {
  const decoded = token.trim() === '' ? null : decodeJwt(token);
  const claims = decoded?.ok ? explainClaims(decoded.header, decoded.payload) : [];
  return (
    <div className="keys-section" data-testid="decode-pane">
      <TokenInput token={token} onToken={onToken} testId="decode-token" />
      {decoded === null && <p className="empty-state">Paste a token, or mint one, to see what it says.</p>}
      {decoded && !decoded.ok && (
        <p className="keys-bad" role="alert" data-testid="decode-error">
          {decoded.reason}
        </p>
      )}
      {decoded?.ok && (
        <>
          <p className="keys-note">
            Decoded only — the Verify pane checks the signature and whether the service accepts it.
          </p>
          <div className="decode-json">
            <div>
              <h3 className="pane-title">header</h3>
              <pre className="keys-pre keys-pre--words" data-testid="decode-header">
                {JSON.stringify(decoded.header, null, 2)}
              </pre>
            </div>
            <div>
              <h3 className="pane-title">payload</h3>
              <pre className="keys-pre keys-pre--words" data-testid="decode-payload">
                {JSON.stringify(decoded.payload, null, 2)}
              </pre>
            </div>
          </div>
          {(['header', 'registered', 'service', 'other'] as const).map((group) => {
            const rows = claims.filter((c) => c.group === group);
            if (rows.length === 0) return null;
            return (
              <table className="claims" key={group} data-testid={`claims-${group}`}>
                <caption className="pane-title" style={{ textAlign: 'left', padding: '4px 0' }}>
                  {GROUP_TITLES[group]}
                </caption>
                <tbody>
                  {rows.map((c) => (
                    <tr key={`${c.claim}-${c.value}`} data-testid="claim-row" data-claim={c.claim}>
                      <th scope="row">{c.claim}</th>
                      <td className="claims__value">
                        {c.value}
                        {c.date && (
                          <span className="claims__date" data-testid="claim-date">
                            <UtcTime iso={c.date} seconds />
                          </span>
                        )}
                      </td>
                      <td>
                        {c.meaning}
                        {c.warning && <FieldError as="span"> {c.warning}</FieldError>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          })}
        </>
      )}
    </div>
  );
}
