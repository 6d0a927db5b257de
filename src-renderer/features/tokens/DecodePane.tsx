import { decodeJwt, explainClaims, type ClaimExplanation } from './claims';
import { UtcTime } from '../../components/UtcTime';
import { TokenInput } from './TokenInput';
import { FieldError } from '../../components/Field';
import { remintFromClaims, type Remint } from './remint';
import { tokenParts } from './token-parts';

const GROUP_TITLES: Record<ClaimExplanation['group'], string> = {
  header: 'Header',
  registered: 'Registered claims',
  service: 'Service claims',
  other: 'Other claims',
};

/** Any JWT, decoded without verifying: its parts in colour, header, payload, and every claim in words. */
export function DecodePane({
  token,
  onToken,
  onRemint,
}: {
  token: string;
  onToken: (text: string) => void;
  /** "Edit and re-mint": the mint form filled from this token's claims (offered when given). */
  onRemint?: (remint: Remint) => void;
}) {
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
      {decoded && <EncodedToken token={token} />}
      {decoded?.ok && (
        <>
          <div className="lab__row">
            <p className="keys-note">
              Decoded only — the Verify pane checks the signature and whether the service accepts it.
            </p>
            {onRemint && (
              <button
                type="button"
                className="button button--secondary button--small"
                data-testid="decode-remint"
                title="Fill the mint form with this token's account, app, scope, roles and lifetime"
                onClick={() => onRemint(remintFromClaims(decoded.payload))}
              >
                Edit and re-mint…
              </button>
            )}
          </div>
          <div className="decode-json">
            <div className="decode-json__part decode-json__part--header">
              <h3 className="pane-title">header</h3>
              <pre className="keys-pre keys-pre--words" data-testid="decode-header">
                {JSON.stringify(decoded.header, null, 2)}
              </pre>
            </div>
            <div className="decode-json__part decode-json__part--payload">
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

/** The token as sent, its parts coloured as jwt.io colours them (and as the decoded halves below are). */
function EncodedToken({ token }: { token: string }) {
  return (
    <div className="jwt-encoded">
      <p className="jwt-legend" aria-hidden="true">
        <span className="jwt-part--header">header</span> . <span className="jwt-part--payload">payload</span> .{' '}
        <span className="jwt-part--signature">signature</span>
      </p>
      <code className="jwt-parts" data-testid="decode-parts">
        {tokenParts(token).map((piece, index) =>
          piece === '.' ? (
            <span key={index} className="jwt-dot">
              .
            </span>
          ) : (
            <span key={index} className={`jwt-part--${piece.part}`} data-part={piece.part} title={piece.part}>
              {piece.text}
            </span>
          ),
        )}
      </code>
    </div>
  );
}
