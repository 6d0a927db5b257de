import { useState } from 'react';
import type { HttpMethod } from '../../api/http';
import { SIGNED_METHODS, methodHasBody, type AppSummary } from '../../api/signing';
import { Field, FieldHint } from '../../components/Field';
import { PairEditor } from './PairEditor';
import { joinPath, splitPath, type Pair } from './request-parts';
import type { SignedRequestsRoute } from './signed-route';

interface ComposerFieldsProps {
  org: string;
  apps: AppSummary[];
  route: SignedRequestsRoute;
  secret: string;
  headers: Pair[];
  onSecret: (secret: string) => void;
  onHeaders: (headers: Pair[]) => void;
  onApp: (app: string | undefined) => void;
  onEdit: (next: Partial<SignedRequestsRoute>) => void;
}

/**
 * The request being composed: app and secret, method, path with its query parameters as rows
 * (kept in the path of the URL state), a body, extra headers (memory only) and the principal.
 */
export function ComposerFields(props: ComposerFieldsProps) {
  const { route, onEdit } = props;
  // The path box and the rows keep what is being typed (a query typed into the box moves into the
  // rows when the box is left; a row's name may still be empty); both are re-read whenever the path
  // changes from elsewhere (history, the URL).
  const [pathText, setPathText] = useState(() => splitPath(route.path).path);
  const [params, setParams] = useState<Pair[]>(() => splitPath(route.path).params);
  const [synced, setSynced] = useState(route.path);
  if (route.path !== synced) {
    const split = splitPath(route.path);
    setPathText(split.path);
    setParams(split.params);
    setSynced(route.path);
  }
  const write = (text: string, rows: Pair[]) => {
    const full = joinPath(text, rows);
    setPathText(text);
    setParams(rows);
    setSynced(full);
    onEdit({ path: full });
  };
  const app = props.apps.find((candidate) => candidate.key === route.app);

  return (
    <div className="form-grid">
      <Field label="Signing app">
        <select
          className="select select--large"
          data-testid="signed-app"
          value={route.app ?? ''}
          onChange={(e) => props.onApp(e.target.value || undefined)}
        >
          <option value="">Choose…</option>
          {props.apps.map((candidate) => (
            <option key={candidate.key} value={candidate.key}>
              {candidate.label} — {candidate.key}
              {candidate.enabled ? '' : ' (disabled)'}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Secret (not stored)">
        <input
          className="input input--mono"
          type="password"
          autoComplete="off"
          spellCheck={false}
          data-testid="signed-secret"
          value={props.secret}
          placeholder="64 letters and digits"
          onChange={(e) => props.onSecret(e.target.value)}
        />
      </Field>
      <Field label="Method">
        <select
          className="select select--large"
          data-testid="signed-method"
          value={route.method}
          onChange={(e) => onEdit({ method: e.target.value as HttpMethod })}
        >
          {SIGNED_METHODS.map((method) => (
            <option key={method}>{method}</option>
          ))}
        </select>
      </Field>
      <Field label={<>Path under /{props.org}/v2</>}>
        <input
          className="input input--mono"
          data-testid="signed-path"
          spellCheck={false}
          value={pathText}
          onChange={(e) => write(e.target.value, params)}
          onBlur={() => {
            const typed = splitPath(pathText);
            if (typed.params.length > 0) write(typed.path, [...params, ...typed.params]);
          }}
        />
      </Field>
      <PairEditor
        legend="Query parameters"
        rows={params}
        onChange={(rows) => write(pathText, rows)}
        testId="signed-param"
        namePlaceholder="name (e.g. where)"
        valuePlaceholder='value (e.g. {"email":"ann@demo.test"})'
        note="Encoded and signed with the path."
      />
      {methodHasBody(route.method) && (
        <Field label="JSON body (optional)" wide>
          <textarea
            className="input input--mono"
            data-testid="signed-body"
            spellCheck={false}
            value={route.body}
            onChange={(e) => onEdit({ body: e.target.value })}
          />
        </Field>
      )}
      <PairEditor
        legend="Headers"
        rows={props.headers}
        onChange={props.onHeaders}
        testId="signed-header"
        namePlaceholder="name (e.g. Accept)"
        valuePlaceholder="value"
        note="Sent as typed, not signed; kept in this window only (a value can be a credential)."
      />
      <Field label="Act as (Service-Client-Account, optional)" wide>
        <input
          className="input input--mono"
          data-testid="signed-as"
          spellCheck={false}
          placeholder="account id or email"
          value={route.as}
          onChange={(e) => onEdit({ as: e.target.value })}
        />
        {app && !app.principalOverride && route.as.trim() !== '' && (
          <span className="note note--warn">
            This app does not allow principal override; the service ignores the header and uses the app's principal.
          </span>
        )}
        {app && !app.principalOverride && route.as.trim() === '' && app.principalId === null && (
          <FieldHint>This app's principal is anonymous.</FieldHint>
        )}
      </Field>
    </div>
  );
}
