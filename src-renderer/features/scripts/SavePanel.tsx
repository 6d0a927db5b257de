import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { HttpMethod } from '../../api/http';
import type { OrgClient } from '../../api/org-client';
import {
  ROUTE_METHODS,
  SCRIPT_TYPES,
  callRoute,
  saveScript,
  scriptKeys,
  type RouteAnswer,
  type RouteMethod,
  type ScriptRecord,
  type ScriptType,
} from '../../api/scripts';
import { CopyButton } from '../../components/CopyButton';
import { FaultMessage } from '../../components/FaultMessage';
import { checkSave, routeUrl, type SaveFields } from './save-draft';
import { Field } from '../../components/Field';
import { useServiceOrigin } from '../../api/desktop-connections';

interface SavePanelProps {
  orgClient: OrgClient;
  script: string;
  fields: SaveFields;
  onFields: (fields: SaveFields) => void;
  /** The open library script, when editing one. */
  saved: ScriptRecord | undefined;
  onSaved: (record: ScriptRecord) => void;
}

/** Save as a library, route or job script; a saved route shows its URL and a "try it" call. */
export function SavePanel({ orgClient, script, fields, onFields, saved, onSaved }: SavePanelProps) {
  // Copied URLs name the service that answers (on the desktop, not the gateway's origin).
  const serviceOrigin = useServiceOrigin();
  const queryClient = useQueryClient();
  const [tried, setTried] = useState<RouteAnswer | null>(null);
  const check = checkSave(fields, script);
  const errors = check.ok ? {} : check.errors;
  const [touched, setTouched] = useState(false);
  const change = (patch: Partial<SaveFields>) => onFields({ ...fields, ...patch });

  const save = useMutation({
    mutationFn: () =>
      check.ok ? saveScript(orgClient, check.draft, saved?._id) : Promise.reject(new Error('invalid')),
    onSuccess: (record) => {
      onSaved(record);
      void queryClient.invalidateQueries({ queryKey: scriptKeys.all(orgClient.org) });
    },
  });
  const savedRoute = saved?.type === 'route' ? saved.configuration : undefined;
  const tryIt = useMutation({
    mutationFn: () => {
      const method = (savedRoute?.method ?? 'get') === '*' ? 'GET' : (savedRoute?.method ?? 'get').toUpperCase();
      return callRoute(orgClient, method as HttpMethod, savedRoute?.path ?? '');
    },
    onMutate: () => setTried(null),
    onSuccess: setTried,
  });

  return (
    <form
      className="keys-section script-save"
      data-testid="script-save"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (check.ok) save.mutate();
      }}
    >
      <div className="keys-section__head">
        <h2 className="keys-section__title">{saved ? `Library script “${saved.label ?? saved.name}”` : 'Save'}</h2>
      </div>
      <div className="script-save__fields">
        <Field label="Type">
          <select
            className="select select--large"
            data-testid="save-type"
            value={fields.type}
            onChange={(e) => change({ type: e.target.value as ScriptType })}
          >
            {SCRIPT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Name" error={touched && errors.name}>
          <input
            className="input input--mono"
            data-testid="save-name"
            value={fields.name}
            placeholder="c_hello"
            onChange={(e) => change({ name: e.target.value })}
          />
        </Field>
        {fields.type === 'route' && (
          <>
            <Field label="Method">
              <select
                className="select select--large"
                data-testid="save-method"
                value={fields.method}
                onChange={(e) => change({ method: e.target.value as RouteMethod })}
              >
                {ROUTE_METHODS.map((method) => (
                  <option key={method} value={method}>
                    {method === '*' ? 'any' : method.toUpperCase()}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Path" error={touched && errors.path}>
              <input
                className="input input--mono"
                data-testid="save-path"
                value={fields.path}
                placeholder="hello/:name"
                onChange={(e) => change({ path: e.target.value })}
              />
            </Field>
          </>
        )}
      </div>
      {save.isError && <FaultMessage fault={faultOf(save.error)} compact />}
      <div className="form__actions">
        <button type="submit" className="button button--primary" data-testid="save-submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : saved ? 'Save changes' : `Save as ${fields.type} script`}
        </button>
        {save.isSuccess && !save.isPending && (
          <span className="keys-ok" data-testid="save-done">
            Saved.
          </span>
        )}
      </div>
      {savedRoute?.path !== undefined && (
        <div className="script-route" data-testid="route-info">
          <p className="keys-note">This route script answers at</p>
          <div className="lab__row">
            <code className="script-route__url" data-testid="route-url">
              {savedRoute.method === '*' ? 'ANY' : (savedRoute.method ?? 'get').toUpperCase()}{' '}
              {routeUrl(serviceOrigin, orgClient.org, savedRoute.path)}
            </code>
            <CopyButton text={routeUrl(serviceOrigin, orgClient.org, savedRoute.path)} testId="route-copy" />
            <button
              type="button"
              className="button button--secondary button--small"
              data-testid="route-try"
              disabled={tryIt.isPending || savedRoute.path.includes(':')}
              title={savedRoute.path.includes(':') ? 'Fill the :params in the URL to call it' : undefined}
              onClick={() => tryIt.mutate()}
            >
              {tryIt.isPending ? 'Calling…' : 'Try it'}
            </button>
          </div>
          {tryIt.isError && <FaultMessage fault={faultOf(tryIt.error)} compact />}
          {tried && (
            <pre
              className={tried.ok ? 'keys-pre' : 'keys-pre run-output__json--bad'}
              data-testid="route-answer"
              data-ok={tried.ok}
            >
              {JSON.stringify(tried.body, null, 2)}
            </pre>
          )}
        </div>
      )}
    </form>
  );
}
