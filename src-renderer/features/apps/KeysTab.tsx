import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appKeys, rotateSecret, type ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { CopyButton } from '../../components/CopyButton';
import { UtcTime } from '../../components/UtcTime';
import { splitSecret } from './app-form';
import { storeApp } from './app-cache';
import { KeyPairSection } from './KeyPairSection';
import { RotateSecretDialog } from './KeyDialogs';

/** The app's key, its signing secret (rotate), and its token signing key pair with the public key. */
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
      <KeyPairSection orgClient={orgClient} app={app} />
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
