import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import {
  appKeys,
  appsQuery,
  createApp,
  deleteApp,
  publishedKeysQuery,
  regenerateRsa,
  rotateSecret,
  updateApp,
  type AppKind,
  type AppSettings,
  type ServiceApp,
  type TokenAlg,
} from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import type { Route } from '../../routing/route';
import type { AppsRoute } from './apps-route';
import { draftFromApp, emptyDraft, settingsPatch, splitSecret } from './app-form';
import { AppSettingsForm } from './AppSettingsForm';
import { CopyButton } from '../../components/CopyButton';
import { RegenerateRsaDialog, RotateSecretDialog, SecretRevealDialog } from './KeyDialogs';
import '../../styles/keys.css';

interface AppsScreenProps {
  orgClient: OrgClient;
  route: AppsRoute;
  navigate: (route: Route) => void;
}

/** A secret being shown once: held in component state only, dropped when the dialog closes. */
interface Revealed {
  label: string;
  secret: string;
}

/** Applications and their keys (decisions.md §3, §6): list, create, edit, secrets, RSA pairs, exposed keys. */
export function AppsScreen({ orgClient, route, navigate }: AppsScreenProps) {
  const apps = useQuery(appsQuery(orgClient));
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const selected = apps.data?.find((a) => a.key === route.key) ?? (creating ? undefined : apps.data?.[0]);
  const select = (key: string) => {
    setCreating(false);
    navigate({ ...route, key });
  };

  return (
    <section className="screen" aria-labelledby="apps-title">
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="apps-title">
            Applications
          </h1>
          <p className="screen__subtitle">
            Keys, secrets and token-signing key pairs: <code>GET /{orgClient.org}/v2/apps</code>
          </p>
        </div>
        <button
          type="button"
          className="button button--primary"
          data-testid="app-new"
          aria-expanded={creating}
          onClick={() => setCreating((on) => !on)}
        >
          {creating ? 'Close' : '+ New app'}
        </button>
      </div>
      {apps.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Loading applications…
        </p>
      )}
      {apps.isError && <FaultMessage fault={faultOf(apps.error)} onRetry={() => void apps.refetch()} />}
      {apps.data && (
        <div className="keys-layout">
          {apps.data.length === 0 ? (
            <p className="empty-state" data-testid="apps-empty">
              No applications yet.
            </p>
          ) : (
            <ul className="keys-list" data-testid="app-list" aria-label="Applications">
              {apps.data.map((a) => (
                <li key={a.key}>
                  <button
                    type="button"
                    className={a.key === selected?.key ? 'keys-list__item keys-list__item--on' : 'keys-list__item'}
                    aria-current={a.key === selected?.key || undefined}
                    data-testid="app-item"
                    data-key={a.key}
                    onClick={() => select(a.key)}
                  >
                    <span className="keys-list__label">{a.label}</span>
                    <span className={a.enabled ? 'badge badge--muted' : 'badge badge--warn'}>
                      {a.enabled ? a.kind : 'disabled'}
                    </span>
                    <span className="keys-list__sub">{a.key}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="keys-detail">
            {creating && (
              <NewApp
                orgClient={orgClient}
                onCreated={(app, secret) => {
                  if (secret !== null) setRevealed({ label: app.label, secret });
                  select(app.key);
                }}
                onCancel={() => setCreating(false)}
              />
            )}
            {!creating && selected && (
              <AppDetail
                key={selected.key}
                orgClient={orgClient}
                app={selected}
                onSecret={(secret) => setRevealed({ label: selected.label, secret })}
                onDeleted={() => navigate({ screen: 'apps', org: route.org })}
              />
            )}
          </div>
        </div>
      )}
      {revealed && (
        <SecretRevealDialog label={revealed.label} secret={revealed.secret} onClose={() => setRevealed(null)} />
      )}
    </section>
  );
}

/** Puts an app into the cached list; the app passed here never carries a full secret. */
function storeApp(queryClient: ReturnType<typeof useQueryClient>, org: string, app: ServiceApp): void {
  queryClient.setQueryData<ServiceApp[]>(appKeys.list(org), (list) => {
    if (!list) return list;
    const index = list.findIndex((a) => a.key === app.key);
    return index === -1 ? [...list, app] : list.map((a) => (a.key === app.key ? app : a));
  });
}

function NewApp({
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

function AppDetail({
  orgClient,
  app,
  onSecret,
  onDeleted,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  onSecret: (secret: string) => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const consoleApp = app.key === orgClient.appKey;
  const [dialog, setDialog] = useState<'secret' | 'rsa' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [formVersion, setFormVersion] = useState(0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: appKeys.all(orgClient.org) });

  const save = useMutation({
    mutationFn: (patch: Partial<AppSettings>) => updateApp(orgClient, app.key, patch),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      setFormVersion((v) => v + 1);
      void refresh();
    },
  });
  const expose = useMutation({
    mutationFn: (on: boolean) => updateApp(orgClient, app.key, { expose: on }),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      setFormVersion((v) => v + 1);
      void refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: async () => {
      const { app: masked, secret } = splitSecret(await rotateSecret(orgClient, app.key));
      setDialog(null);
      if (secret !== null) onSecret(secret);
      return masked;
    },
    onSuccess: (masked) => {
      storeApp(queryClient, orgClient.org, masked);
      void refresh();
    },
  });
  const rsa = useMutation({
    mutationFn: (alg: TokenAlg) => regenerateRsa(orgClient, app.key, alg),
    onSuccess: (updated) => {
      storeApp(queryClient, orgClient.org, splitSecret(updated).app);
      setDialog(null);
      setFormVersion((v) => v + 1);
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['org', orgClient.org, 'tokens'] });
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
    <article className="keys-detail" data-testid="app-detail" aria-label={`${app.label} application`}>
      <div className="keys-section">
        <div className="keys-section__head">
          <div>
            <h2 className="keys-section__title" data-testid="app-title">
              {app.label}
            </h2>
            <p className="keys-note">
              {app.kind === 'session' ? 'Session app' : 'Signing app'}
              {consoleApp && ' · the console signs in with this app'}
              {!app.enabled && ' · disabled'}
            </p>
          </div>
        </div>
        <dl className="keys-facts">
          <dt>Key</dt>
          <dd className="lab__row">
            <code data-testid="app-key">{app.key}</code>
            <CopyButton text={app.key} testId="app-key-copy" />
          </dd>
          <dt>Created</dt>
          <dd>{new Date(app.created).toLocaleString()}</dd>
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
                setDialog('secret');
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
              setDialog('rsa');
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
            <dd>{new Date(app.rsa.created).toLocaleString()}</dd>
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

      <ExposedKeys
        orgClient={orgClient}
        app={app}
        busy={expose.isPending}
        onToggle={(on) => expose.mutate(on)}
        fault={expose.isError ? faultOf(expose.error) : null}
      />

      <AppSettingsForm
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

      {dialog === 'secret' && (
        <RotateSecretDialog
          orgClient={orgClient}
          app={app}
          busy={rotate.isPending}
          fault={rotate.isError ? faultOf(rotate.error) : null}
          onCancel={() => setDialog(null)}
          onConfirm={() => rotate.mutate()}
        />
      )}
      {dialog === 'rsa' && (
        <RegenerateRsaDialog
          orgClient={orgClient}
          app={app}
          busy={rsa.isPending}
          fault={rsa.isError ? faultOf(rsa.error) : null}
          onCancel={() => setDialog(null)}
          onConfirm={(alg) => rsa.mutate(alg)}
        />
      )}
    </article>
  );
}

/** Expose Keys: on/off, and the app's key exactly as `/auth/certs/jwk` and `/auth/certs/pem` publish it. */
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
