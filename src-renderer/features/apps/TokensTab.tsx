import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appKeys, regenerateRsa, rotationPreviewQuery, type ServiceApp, type TokenAlg } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { UtcTime } from '../../components/UtcTime';
import { splitSecret } from './app-form';
import { storeApp } from './app-cache';
import { RegenerateRsaDialog } from './KeyDialogs';

/** What signs the app's tokens (its RSA pair), how many stored tokens it has, and where to mint one. */
export function TokensTab({
  orgClient,
  app,
  onOpenTokenLab,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  onOpenTokenLab: () => void;
}) {
  const queryClient = useQueryClient();
  const [regenerating, setRegenerating] = useState(false);
  // The service counts the app's live stored tokens for the rotation preview; the same number is shown here.
  const counts = useQuery(rotationPreviewQuery(orgClient, app.key));
  const rsa = useMutation({
    mutationFn: (alg: TokenAlg) => regenerateRsa(orgClient, app.key, alg),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      setRegenerating(false);
      void queryClient.invalidateQueries({ queryKey: appKeys.all(orgClient.org) });
      void queryClient.invalidateQueries({ queryKey: ['org', orgClient.org, 'tokens'] });
    },
  });
  return (
    <>
      <section className="keys-section" aria-labelledby="rsa-title">
        <div className="keys-section__head">
          <h3 className="keys-section__title" id="rsa-title">
            Token signing key pair
          </h3>
          <button
            type="button"
            className="button button--secondary button--small"
            data-testid="regenerate-rsa"
            onClick={() => {
              rsa.reset();
              setRegenerating(true);
            }}
          >
            Regenerate…
          </button>
        </div>
        {app.rsa ? (
          <dl className="keys-facts">
            <dt>kid</dt>
            <dd>
              <code data-testid="app-kid">{app.rsa.kid}</code>
            </dd>
            <dt>Algorithm</dt>
            <dd>{app.rsa.alg}</dd>
            <dt>Created</dt>
            <dd>
              <UtcTime iso={app.rsa.created} />
            </dd>
          </dl>
        ) : (
          <p className="keys-note">No key pair: this app cannot sign tokens until one is generated.</p>
        )}
        {rsa.isSuccess && (
          <p className="keys-ok" role="status" data-testid="rsa-done">
            New key pair in use. Every earlier token of this app is now refused.
          </p>
        )}
      </section>
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
      {regenerating && (
        <RegenerateRsaDialog
          orgClient={orgClient}
          app={app}
          busy={rsa.isPending}
          fault={rsa.isError ? faultOf(rsa.error) : null}
          onCancel={() => setRegenerating(false)}
          onConfirm={(alg) => rsa.mutate(alg)}
        />
      )}
    </>
  );
}
