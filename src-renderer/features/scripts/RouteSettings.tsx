import { useQuery } from '@tanstack/react-query';
import { appsQuery } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { ROUTE_METHODS, type RouteMethod } from '../../api/scripts';
import { Field, FieldType } from '../../components/Field';
import { PrincipalField, WeightField } from './ScriptSettingsRows';
import { AclEditor } from './AclEditor';
import { AUTH_VALIDATIONS, type AuthValidation, type SaveErrors, type SaveFields } from './save-draft';

interface RouteSettingsProps {
  orgClient: OrgClient;
  fields: SaveFields;
  change: (patch: Partial<SaveFields>) => void;
  errors: SaveErrors;
  touched: boolean;
}

const AUTH_WORDS: Readonly<Record<Exclude<AuthValidation, ''>, string>> = {
  legacy:
    'legacy: the caller as the request authenticated it; a session that can no longer be used leaves it anonymous',
  all: 'all: the request must come through an app, and an unusable session is refused',
  none: 'none: credentials are not used; the route runs as its principal or anonymous',
};

/**
 * Everything the service keeps for a route script (README "Route settings"): method and path,
 * priority and weight, acl, authValidation, the one app it answers (apiKey) and whom it runs as.
 */
export function RouteSettings({ orgClient, fields, change, errors, touched }: RouteSettingsProps) {
  const apps = useQuery(appsQuery(orgClient));
  const knownApp = fields.apiKey === '' || apps.data?.some((app) => app.key === fields.apiKey);
  return (
    <div className="script-route-settings" data-testid="route-settings">
      <div className="script-save__fields">
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
        <Field
          label={
            <>
              Priority <FieldType>higher first</FieldType>
            </>
          }
          error={touched && errors.priority}
        >
          <input
            className="input input--mono script-save__number"
            inputMode="decimal"
            data-testid="save-priority"
            value={fields.priority}
            placeholder="0"
            onChange={(e) => change({ priority: e.target.value })}
          />
        </Field>
        <WeightField
          value={fields.weight}
          note="among equal priorities"
          error={touched && errors.weight}
          onChange={(weight) => change({ weight })}
        />
      </div>
      <div className="script-save__fields">
        <Field label="Credentials (authValidation)" hint={fields.authValidation && AUTH_WORDS[fields.authValidation]}>
          <select
            className="select select--large"
            data-testid="save-auth"
            value={fields.authValidation}
            onChange={(e) => change({ authValidation: e.target.value as AuthValidation })}
          >
            <option value="">default (legacy)</option>
            {AUTH_VALIDATIONS.map((mode) => (
              <option key={mode} value={mode}>
                {mode}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Only through the app (apiKey)"
          hint={fields.apiKey === '' ? 'Requests through any app.' : undefined}
        >
          <select
            className="select select--large"
            data-testid="save-app"
            value={fields.apiKey}
            onChange={(e) => change({ apiKey: e.target.value })}
          >
            <option value="">any app</option>
            {!knownApp && <option value={fields.apiKey}>{fields.apiKey} (not an app of this org)</option>}
            {apps.data?.map((app) => (
              <option key={app.key} value={app.key}>
                {app.label} · {app.key}
              </option>
            ))}
          </select>
        </Field>
        <PrincipalField
          orgClient={orgClient}
          value={fields.principal}
          emptyHint="Empty: the script runs as its caller."
          placeholder="the caller"
          onChange={(principal) => change({ principal })}
        />
      </div>
      <AclEditor
        orgClient={orgClient}
        acl={fields.acl}
        onChange={(acl) => change({ acl })}
        error={touched && errors.acl}
      />
    </div>
  );
}
