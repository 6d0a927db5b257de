import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appKeys, createApp, type AppKind, type AppSettings, type ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { emptyDraft, splitSecret } from './app-form';
import { storeApp } from './app-cache';
import { AppSettingsForm } from './AppSettingsForm';

/** Creating an app: its kind, then every setting; a signing app's secret goes to the caller once. */
export function NewApp({
  orgClient,
  onCreated,
  onCancel,
}: {
  orgClient: OrgClient;
  onCreated: (app: ServiceApp, secret: string | null) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<AppKind>('session');
  const create = useMutation({
    // The secret is split off before anything is returned, so the mutation cache never holds it.
    mutationFn: async (settings: AppSettings) => {
      const { app, secret } = splitSecret(await createApp(orgClient, { ...settings, kind }));
      storeApp(queryClient, orgClient.org, app);
      void queryClient.invalidateQueries({ queryKey: appKeys.all(orgClient.org) });
      onCreated(app, secret);
      return app.key;
    },
  });
  return (
    <>
      <div className="keys-section">
        <div className="keys-section__head">
          <h2 className="keys-section__title">New application</h2>
        </div>
        <div className="segmented" role="radiogroup" aria-label="Kind">
          {(['session', 'signing'] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="radio"
              aria-checked={kind === k}
              className={kind === k ? 'segmented__item segmented__item--on' : 'segmented__item'}
              data-testid={`app-kind-${k}`}
              onClick={() => setKind(k)}
            >
              {k === 'session' ? 'Session app' : 'Signing app'}
            </button>
          ))}
        </div>
        <p className="keys-note">
          {kind === 'session'
            ? 'For browser and desktop clients whose users sign in: cookie sessions with a CSRF token.'
            : 'For back-end integrations: requests signed with the app’s key and secret. The secret is shown once, right after creation.'}
        </p>
      </div>
      <AppSettingsForm
        orgClient={orgClient}
        key={kind}
        kind={kind}
        mode="create"
        initial={emptyDraft()}
        submitting={create.isPending}
        fault={create.isError ? faultOf(create.error) : null}
        submitLabel={kind === 'session' ? 'Create session app' : 'Create signing app'}
        onSubmit={(settings) => create.mutate(settings)}
        onCancel={onCancel}
      />
    </>
  );
}
