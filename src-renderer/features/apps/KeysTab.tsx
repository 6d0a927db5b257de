import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appKeys, publishedKeysQuery, rotateSecret, updateApp, type ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { CopyButton } from '../../components/CopyButton';
import { FaultMessage } from '../../components/FaultMessage';
import { UtcTime } from '../../components/UtcTime';
import { splitSecret } from './app-form';
import { storeApp } from './app-cache';
import { RotateSecretDialog } from './KeyDialogs';

/** The app's key, its signing secret (rotate), and the one "Expose keys" control with what it publishes. */
export function KeysTab({
  orgClient,
  app,
  onSecret,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  onSecret: (secret: string) => void;
}) {
  const queryClient = useQueryClient();
  const [rotating, setRotating] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: appKeys.all(orgClient.org) });
  const rotate = useMutation({
    mutationFn: async () => {
      const { app: masked, secret } = splitSecret(await rotateSecret(orgClient, app.key));
      setRotating(false);
      if (secret !== null) onSecret(secret);
      return masked;
    },
    onSuccess: (masked) => {
      storeApp(queryClient, orgClient.org, masked);
      void refresh();
    },
  });
  const expose = useMutation({
    mutationFn: (on: boolean) => updateApp(orgClient, app.key, { expose: on }),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      void refresh();
    },
  });
  return (
    <>
      <div className="keys-section">
        <dl className="keys-facts">
          <dt>Key</dt>
          <dd className="lab__row">
            <code data-testid="app-key">{app.key}</code>
            <CopyButton text={app.key} testId="app-key-copy" />
          </dd>
          <dt>Created</dt>
          <dd>
            <UtcTime iso={app.created} />
          </dd>
        </dl>
      </div>
      {app.kind === 'signing' && (
        <section className="keys-section" aria-labelledby="secret-title">
          <div className="keys-section__head">
            <h3 className="keys-section__title" id="secret-title">
              Signing secret
            </h3>
            <button
              type="button"
              className="button button--secondary button--small"
              data-testid="rotate-secret"
              onClick={() => {
                rotate.reset();
                setRotating(true);
              }}
            >
              Rotate secret…
            </button>
          </div>
          <p className="keys-note">
            Stored encrypted; shown in full only once, when created or rotated:{' '}
            <code data-testid="app-secret-masked">{app.secret ?? '(none)'}</code>
          </p>
        </section>
      )}
      <ExposedKeys
        orgClient={orgClient}
        app={app}
        busy={expose.isPending}
        onToggle={(on) => expose.mutate(on)}
        fault={expose.isError ? faultOf(expose.error) : null}
      />
      {rotating && (
        <RotateSecretDialog
          orgClient={orgClient}
          app={app}
          busy={rotate.isPending}
          fault={rotate.isError ? faultOf(rotate.error) : null}
          onCancel={() => setRotating(false)}
          onConfirm={() => rotate.mutate()}
        />
      )}
    </>
  );
}

/** Expose keys: on/off, and the app's key exactly as `/auth/certs/jwk` and `/auth/certs/pem` publish it. */
function ExposedKeys({
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
    <section className="keys-section" aria-labelledby="expose-title" data-testid="expose-section">
      <div className="keys-section__head">
        <h3 className="keys-section__title" id="expose-title">
          Expose keys
        </h3>
        <label className="check">
          <input
            type="checkbox"
            checked={app.expose}
            disabled={busy}
            data-testid="expose-toggle"
            onChange={(e) => onToggle(e.target.checked)}
          />
          Publish this app’s public key
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
    </section>
  );
}
