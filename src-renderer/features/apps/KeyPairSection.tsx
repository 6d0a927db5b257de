import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appKeys, publishedKeysQuery, regenerateRsa, updateApp, type ServiceApp, type TokenAlg } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { CopyButton } from '../../components/CopyButton';
import { FaultMessage } from '../../components/FaultMessage';
import { UtcTime } from '../../components/UtcTime';
import { splitSecret } from './app-form';
import { storeApp } from './app-cache';
import { RegenerateRsaDialog } from './KeyDialogs';

/**
 * The RSA pair that signs the app's tokens, in one place: its kid, algorithm and age, "Regenerate
 * RSA pair" beside the public key it replaces, and the one "Expose keys" control with the public
 * key exactly as `/auth/certs/jwk` and `/auth/certs/pem` publish it.
 */
export function KeyPairSection({ orgClient, app }: { orgClient: OrgClient; app: ServiceApp }) {
  const queryClient = useQueryClient();
  const [regenerating, setRegenerating] = useState(false);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: appKeys.all(orgClient.org) });
    void queryClient.invalidateQueries({ queryKey: ['org', orgClient.org, 'tokens'] });
  };
  const rsa = useMutation({
    mutationFn: (alg: TokenAlg) => regenerateRsa(orgClient, app.key, alg),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      setRegenerating(false);
      refresh();
    },
  });
  const expose = useMutation({
    mutationFn: (on: boolean) => updateApp(orgClient, app.key, { expose: on }),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      refresh();
    },
  });
  return (
    <section className="keys-section" aria-labelledby="rsa-title" data-testid="key-pair-section">
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
          Regenerate RSA pair…
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
      <PublicKey
        orgClient={orgClient}
        app={app}
        busy={expose.isPending}
        onToggle={(on) => expose.mutate(on)}
        fault={expose.isError ? faultOf(expose.error) : null}
      />
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
    </section>
  );
}

/** Expose keys: on/off, and the pair's public key as the service publishes it. */
function PublicKey({
  orgClient,
  app,
  busy,
  onToggle,
  fault,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  busy: boolean;
  onToggle: (on: boolean) => void;
  fault: ReturnType<typeof faultOf> | null;
}) {
  const certs = useQuery({ ...publishedKeysQuery(orgClient), enabled: app.expose });
  const kid = app.rsa?.kid;
  const jwk = certs.data?.jwk.find((k) => k.kid === kid);
  const pem = certs.data?.pem.find((k) => k.kid === kid);
  const base = `/${orgClient.org}/v2/auth/certs`;
  return (
    <div className="keys-subsection" data-testid="expose-section">
      <div className="keys-section__head">
        <h4 className="keys-section__subtitle" id="expose-title">
          Public key
        </h4>
        <label className="check">
          <input
            type="checkbox"
            checked={app.expose}
            disabled={busy}
            data-testid="expose-toggle"
            onChange={(e) => onToggle(e.target.checked)}
          />
          Expose keys: publish this app’s public key
        </label>
      </div>
      {fault && <FaultMessage fault={fault} compact />}
      {!app.expose && (
        <p className="keys-note" data-testid="expose-off">
          Not published. Turn this on so verifiers can check this app’s tokens with <code>{base}/jwk</code> or{' '}
          <code>{base}/pem</code>.
        </p>
      )}
      {app.expose && certs.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Reading the published keys…
        </p>
      )}
      {app.expose && certs.isError && (
        <FaultMessage fault={faultOf(certs.error)} onRetry={() => void certs.refetch()} compact />
      )}
      {app.expose && certs.data && !jwk && (
        <p className="keys-warn" data-testid="expose-missing">
          {app.enabled
            ? 'The service does not list this app’s current key yet.'
            : 'Disabled apps are not published: enable the app to publish its key.'}
        </p>
      )}
      {jwk && (
        <>
          <p className="keys-note">
            Published at <code>{base}/jwk</code> (JWK):
          </p>
          <pre className="keys-pre" data-testid="published-jwk">
            {JSON.stringify(jwk, null, 2)}
          </pre>
        </>
      )}
      {pem && (
        <>
          <p className="keys-note lab__row">
            and at <code>{base}/pem</code> (PEM):
            <CopyButton text={pem.key} label="Copy PEM" testId="pem-copy" />
          </p>
          <pre className="keys-pre" data-testid="published-pem">
            {pem.key}
          </pre>
        </>
      )}
    </div>
  );
}
