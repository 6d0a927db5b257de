import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appKeys, deleteApp, updateApp, type AppSettings, type ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { draftFromApp, settingsPatch, splitSecret } from './app-form';
import { storeApp } from './app-cache';
import { AppSettingsForm } from './AppSettingsForm';

/** An app's settings form, and deleting the app (never the console's own). */
export function SettingsTab({
  orgClient,
  app,
  onDeleted,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const consoleApp = app.key === orgClient.appKey;
  const [formVersion, setFormVersion] = useState(0);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: appKeys.all(orgClient.org) });
  const save = useMutation({
    mutationFn: (patch: Partial<AppSettings>) => updateApp(orgClient, app.key, patch),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      setFormVersion((v) => v + 1);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteApp(orgClient, app.key),
    onSuccess: async () => {
      await refresh();
      onDeleted();
    },
  });
  return (
    <>
      <AppSettingsForm
        orgClient={orgClient}
        key={formVersion}
        kind={app.kind}
        mode="edit"
        consoleApp={consoleApp}
        initial={draftFromApp(app)}
        submitting={save.isPending}
        fault={save.isError ? faultOf(save.error) : null}
        submitLabel="Save settings"
        onSubmit={(settings) => {
          const patch = settingsPatch(app, settings);
          if (Object.keys(patch).length > 0) save.mutate(patch);
        }}
      />
      {save.isSuccess && (
        <p className="keys-ok" role="status" data-testid="app-saved">
          Settings saved.
        </p>
      )}
      {!consoleApp && (
        <section className="keys-section keys-section--danger" aria-labelledby="delete-title">
          <div className="keys-section__head">
            <h3 className="keys-section__title" id="delete-title">
              Delete application
            </h3>
            {confirmDelete ? (
              <span className="lab__row">
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => setConfirmDelete(false)}
                >
                  Cancel
                </button>
                <button
                  type="button"
                  className="button button--danger button--small"
                  data-testid="app-delete-confirm"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate()}
                >
                  Delete {app.label} and invalidate its tokens
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="button button--ghost button--small"
                data-testid="app-delete"
                onClick={() => setConfirmDelete(true)}
              >
                Delete…
              </button>
            )}
          </div>
          <p className="keys-note">Its key stops working at once; every token it issued is refused.</p>
          {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
        </section>
      )}
    </>
  );
}
