import { useQuery } from '@tanstack/react-query';
import { rotationPreviewQuery, type ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';

/** How many stored tokens the app has, how long they live, and where to mint one (the key pair is under Keys). */
export function TokensTab({
  orgClient,
  app,
  onOpenTokenLab,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  onOpenTokenLab: () => void;
}) {
  // The service counts the app's live stored tokens for the rotation preview; the same number is shown here.
  const counts = useQuery(rotationPreviewQuery(orgClient, app.key));
  return (
    <>
      <section className="keys-section" aria-labelledby="app-tokens-title">
        <div className="keys-section__head">
          <h3 className="keys-section__title" id="app-tokens-title">
            Tokens
          </h3>
          <button
            type="button"
            className="button button--secondary button--small"
            data-testid="app-open-token-lab"
            onClick={onOpenTokenLab}
          >
            Mint in the Token lab…
          </button>
        </div>
        <dl className="keys-facts">
          <dt>Signed with</dt>
          <dd>
            {app.rsa ? (
              <>
                <code>{app.rsa.kid}</code> ({app.rsa.alg}) — regenerate it under Keys
              </>
            ) : (
              'no key pair yet (Keys)'
            )}
          </dd>
          <dt>Live stored tokens</dt>
          <dd data-testid="app-token-count">{counts.data ? counts.data.rsa.tokens : counts.isError ? '—' : '…'}</dd>
          <dt>Default lifetime</dt>
          <dd>{app.authDuration.toLocaleString('en')} s</dd>
          <dt>Stored tokens per account</dt>
          <dd>at most {app.maxTokensPerPrincipal}</dd>
        </dl>
        <p className="keys-note">
          Ephemeral tokens are not stored, so not counted; they stop working with the key pair.
        </p>
      </section>
    </>
  );
}
