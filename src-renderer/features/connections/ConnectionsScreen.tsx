import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  connectionKeys,
  connectionsBridge,
  hostOf,
  switchConnection,
  type ConnectionDraft,
  type ConnectionInfo,
  type CredentialKind,
} from '../../api/desktop-connections';
import type { OrgClient } from '../../api/org-client';
import { ScreenHeader } from '../../components/ScreenHeader';
import { FieldError } from '../../components/Field';
import { TextField } from '../../components/TextField';
import type { Route, ScreenRoute } from '../../routing/route';
import '../../styles/connections.css';

interface ConnectionsScreenProps {
  orgClient: OrgClient;
  route: ScreenRoute<'connections'>;
  navigate: (route: Route) => void;
}

const KIND_LABELS: Record<CredentialKind, string> = {
  session: 'Session (sign in on its login screen)',
  token: 'Token (Authorization: Bearer)',
  signing: 'Signing app (signed requests, version 2)',
};

interface FormState {
  id?: string;
  name: string;
  url: string;
  kind: CredentialKind;
  appKey: string;
  principal: string;
  secret: string;
}
const EMPTY_FORM: FormState = { name: '', url: '', kind: 'session', appKey: '', principal: '', secret: '' };

/** Electron prefixes a refused IPC call's message ("Error invoking remote method …: Error: …"). */
function problemOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Error invoking remote method '[^']*': (\w*Error: )?/, '');
}

/** Saved connections to other instances of this service (desktop app only; issue #18 item 14). */
export function ConnectionsScreen(_props: ConnectionsScreenProps) {
  const bridge = connectionsBridge();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<FormState>(EMPTY_FORM);
  const list = useQuery({ queryKey: connectionKeys.all, queryFn: () => bridge!.list(), enabled: bridge !== undefined });
  const active = useQuery({
    queryKey: connectionKeys.active,
    queryFn: () => bridge!.active(),
    enabled: bridge !== undefined,
  });
  const save = useMutation({
    mutationFn: (draft: ConnectionDraft) => bridge!.save(draft),
    onSuccess: () => {
      setForm(EMPTY_FORM);
      void queryClient.invalidateQueries({ queryKey: connectionKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => bridge!.remove(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
  });
  const connect = useMutation({
    mutationFn: (id: string | null) =>
      switchConnection(queryClient, () => (id === null ? bridge!.activateLocal() : bridge!.activate(id))),
  });

  if (!bridge) {
    return (
      <section className="screen" aria-labelledby="connections-title">
        <ScreenHeader title="Connections" titleId="connections-title" />
        <p>Connections to other services exist only in the desktop app.</p>
      </section>
    );
  }

  const activeId = active.data && !active.data.local ? active.data.connection.id : null;
  const set = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const draft: ConnectionDraft = { name: form.name, url: form.url, kind: form.kind };
    if (form.id !== undefined) draft.id = form.id;
    if (form.kind === 'signing') {
      draft.appKey = form.appKey;
      if (form.principal.trim() !== '') draft.principal = form.principal;
    }
    if (form.kind !== 'session' && form.secret !== '') draft.secret = form.secret;
    save.mutate(draft);
  };
  const edit = (c: ConnectionInfo) =>
    setForm({
      id: c.id,
      name: c.name,
      url: c.url,
      kind: c.kind,
      appKey: c.appKey ?? '',
      principal: c.principal ?? '',
      secret: '',
    });

  return (
    <section className="screen" aria-labelledby="connections-title" data-testid="connections-screen">
      <ScreenHeader
        title="Connections"
        titleId="connections-title"
        description="Talk to another instance of this service (a headless one on another machine or port). Secrets stay in the desktop app, sealed with the OS keychain; the console never receives them."
      />
      <div className="connections">
        <ul className="connections__list" aria-label="Connections" data-testid="connections-list">
          <ConnectionRow
            name="This computer"
            detail="The service this app runs"
            active={activeId === null}
            testId="connection-local"
            onConnect={() => connect.mutate(null)}
            busy={connect.isPending}
          />
          {(list.data ?? []).map((c) => (
            <ConnectionRow
              key={c.id}
              name={c.name}
              detail={`${hostOf(c.url)} · ${c.kind}${c.appKey ? ` · ${c.appKey}` : ''}`}
              url={c.url}
              active={activeId === c.id}
              testId={`connection-${c.name}`}
              onConnect={() => connect.mutate(c.id)}
              onEdit={() => edit(c)}
              onDelete={() => remove.mutate(c.id)}
              busy={connect.isPending}
            />
          ))}
        </ul>
        {connect.isError && (
          <FieldError alert testId="connection-error">
            {problemOf(connect.error)}
          </FieldError>
        )}
        <form className="panel connections__form" onSubmit={submit} noValidate data-testid="connection-form">
          <p className="panel__title">{form.id ? `Edit “${form.name}”` : 'New connection'}</p>
          <TextField
            label="Name"
            testId="connection-name"
            value={form.name}
            onChange={(e) => set({ name: e.target.value })}
          />
          <TextField
            label="Service URL"
            hint="Scheme, host and port only, e.g. http://10.0.0.5:7788"
            testId="connection-url"
            value={form.url}
            inputMode="url"
            onChange={(e) => set({ url: e.target.value })}
          />
          <fieldset className="connections__kinds">
            <legend>Sign in with</legend>
            {(Object.keys(KIND_LABELS) as CredentialKind[]).map((kind) => (
              <label key={kind} className="connections__kind">
                <input
                  type="radio"
                  name="connection-kind"
                  value={kind}
                  checked={form.kind === kind}
                  data-testid={`connection-kind-${kind}`}
                  onChange={() => set({ kind, secret: '' })}
                />
                {KIND_LABELS[kind]}
              </label>
            ))}
          </fieldset>
          {form.kind === 'signing' && (
            <>
              <TextField
                label="App key"
                testId="connection-app-key"
                value={form.appKey}
                onChange={(e) => set({ appKey: e.target.value })}
              />
              <TextField
                label="Act as (optional)"
                hint="Account id or email, for apps with principal override"
                testId="connection-principal"
                value={form.principal}
                onChange={(e) => set({ principal: e.target.value })}
              />
            </>
          )}
          {form.kind !== 'session' && (
            <TextField
              label={form.kind === 'token' ? 'Token' : 'API secret'}
              hint={
                form.id
                  ? 'Leave empty to keep the stored one. It is never shown again.'
                  : 'Stored encrypted with the OS keychain; never shown again.'
              }
              type="password"
              autoComplete="off"
              testId="connection-secret"
              value={form.secret}
              onChange={(e) => set({ secret: e.target.value })}
            />
          )}
          {save.isError && (
            <FieldError alert testId="connection-form-error">
              {problemOf(save.error)}
            </FieldError>
          )}
          <div className="connections__actions">
            <button
              type="submit"
              className="button button--primary"
              disabled={save.isPending}
              data-testid="connection-save"
            >
              {save.isPending ? 'Saving…' : 'Save connection'}
            </button>
            {form.id && (
              <button type="button" className="button button--ghost" onClick={() => setForm(EMPTY_FORM)}>
                Cancel
              </button>
            )}
          </div>
        </form>
      </div>
    </section>
  );
}

function ConnectionRow(props: {
  name: string;
  detail: string;
  url?: string;
  active: boolean;
  testId: string;
  busy: boolean;
  onConnect: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  return (
    <li
      className={props.active ? 'connections__row connections__row--active' : 'connections__row'}
      data-testid={props.testId}
    >
      <div className="connections__text">
        <span className="connections__name">{props.name}</span>
        <span className="connections__detail" title={props.url}>
          {props.detail}
        </span>
      </div>
      <div className="connections__row-actions">
        {props.active ? (
          <span className="connections__active" data-testid="connection-active">
            Active
          </span>
        ) : (
          <button
            type="button"
            className="button button--small"
            disabled={props.busy}
            onClick={props.onConnect}
            data-testid="connection-connect"
          >
            Connect
          </button>
        )}
        {props.onEdit && (
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={props.onEdit}
            data-testid="connection-edit"
          >
            Edit
          </button>
        )}
        {props.onDelete && !props.active && (
          <button
            type="button"
            className="button button--danger button--small"
            onClick={props.onDelete}
            data-testid="connection-delete"
          >
            Delete
          </button>
        )}
      </div>
    </li>
  );
}
