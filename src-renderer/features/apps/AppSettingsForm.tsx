import { useState } from 'react';
import type { FaultBody } from '../../../src-shared/faults';
import { TOKEN_ALGS, type AppKind, type AppSettings, type TokenAlg } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { AccountCombobox } from '../../components/AccountCombobox';
import { Field, FieldError } from '../../components/Field';
import { FaultMessage } from '../../components/FaultMessage';
import { Check, ListField } from './app-settings-controls';
import {
  AUTH_DURATION,
  MAX_TOKENS,
  draftToSettings,
  faultsByField,
  validateAppDraft,
  type AppDraft,
  type AppField,
  type FieldErrors,
} from './app-form';

interface AppSettingsFormProps {
  orgClient: OrgClient;
  kind: AppKind;
  initial: AppDraft;
  mode: 'create' | 'edit';
  /** The org's console app: it cannot be disabled or given an expiry. */
  consoleApp?: boolean;
  submitting: boolean;
  /** The service's answer to the last submit; its child faults land on their fields. */
  fault: FaultBody | null;
  submitLabel: string;
  onSubmit: (settings: AppSettings) => void;
  onCancel?: () => void;
}

/** Every app setting (docs/orgs-and-apps.md#applications), checked as typed; the service's faults shown per field. */
export function AppSettingsForm(props: AppSettingsFormProps) {
  const { kind, mode } = props;
  const [draft, setDraft] = useState(props.initial);
  const [touched, setTouched] = useState<ReadonlySet<AppField>>(new Set());
  const [attempted, setAttempted] = useState(false);
  // Server faults are shown until the field they name is edited again.
  const [faultSeen, setFaultSeen] = useState<{ fault: FaultBody | null; edited: ReadonlySet<AppField> }>({
    fault: null,
    edited: new Set(),
  });
  if (faultSeen.fault !== props.fault) setFaultSeen({ fault: props.fault, edited: new Set() });

  const local = validateAppDraft(draft, kind);
  const server = props.fault ? faultsByField(props.fault) : { fields: {} as FieldErrors, unplaced: false };
  const errorOf = (field: AppField): string | undefined => {
    if (server.fields[field] && !faultSeen.edited.has(field)) return server.fields[field];
    return attempted || touched.has(field) ? local[field] : undefined;
  };
  const set = <K extends AppField>(field: K, value: AppDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setTouched((t) => new Set(t).add(field));
    setFaultSeen((s) => ({ ...s, edited: new Set(s.edited).add(field) }));
  };
  const valid = Object.keys(local).length === 0;

  return (
    <form
      className="keys-section"
      data-testid={mode === 'create' ? 'app-create-form' : 'app-settings-form'}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        if (valid) props.onSubmit(draftToSettings(draft, kind));
      }}
    >
      <div className="keys-form">
        <Field label="Label" error={errorOf('label')} errorTestId="field-error" className="keys-form__wide">
          {(id, describedBy) => (
            <input
              id={id}
              className="input"
              data-testid="app-label"
              value={draft.label}
              maxLength={200}
              aria-describedby={describedBy}
              aria-invalid={errorOf('label') ? true : undefined}
              onChange={(e) => set('label', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Name"
          hint="With name mapping on, clients may send it in place of the key. Empty: none."
          error={errorOf('name')}
          errorTestId="field-error"
        >
          {(id, describedBy) => (
            <input
              id={id}
              className="input input--mono"
              data-testid="app-name"
              value={draft.name}
              maxLength={200}
              spellCheck={false}
              placeholder="c_patient_app"
              aria-describedby={describedBy}
              aria-invalid={errorOf('name') ? true : undefined}
              onChange={(e) => set('name', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Session / token lifetime (seconds)"
          hint={`Inactivity timeout and default token lifetime, ${AUTH_DURATION.min}–${AUTH_DURATION.max.toLocaleString('en')}.`}
          error={errorOf('authDuration')}
          errorTestId="field-error"
        >
          {(id, describedBy) => (
            <input
              id={id}
              className="input input--mono"
              inputMode="numeric"
              data-testid="app-authDuration"
              value={draft.authDuration}
              aria-describedby={describedBy}
              aria-invalid={errorOf('authDuration') ? true : undefined}
              onChange={(e) => set('authDuration', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Max stored tokens per account"
          hint={`Permanent and limited-use tokens, ${MAX_TOKENS.min}–${MAX_TOKENS.max}.`}
          error={errorOf('maxTokensPerPrincipal')}
          errorTestId="field-error"
        >
          {(id, describedBy) => (
            <input
              id={id}
              className="input input--mono"
              inputMode="numeric"
              data-testid="app-maxTokensPerPrincipal"
              value={draft.maxTokensPerPrincipal}
              aria-describedby={describedBy}
              aria-invalid={errorOf('maxTokensPerPrincipal') ? true : undefined}
              onChange={(e) => set('maxTokensPerPrincipal', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Expires"
          hint={props.consoleApp ? 'The console app cannot expire.' : 'Empty: never. In UTC.'}
          error={errorOf('expires')}
          errorTestId="field-error"
        >
          {(id, describedBy) => (
            <input
              id={id}
              type="datetime-local"
              className="input"
              data-testid="app-expires"
              value={draft.expires}
              disabled={props.consoleApp}
              aria-describedby={describedBy}
              aria-invalid={errorOf('expires') ? true : undefined}
              onChange={(e) => set('expires', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Principal"
          hint="The account signed requests act as; empty: anonymous."
          error={errorOf('principalId')}
          errorTestId="field-error"
        >
          {(id, describedBy) => (
            <AccountCombobox
              orgClient={props.orgClient}
              id={id}
              describedBy={describedBy}
              value={draft.principalId === '' ? undefined : draft.principalId}
              clearable
              invalid={errorOf('principalId') !== undefined}
              testId="app-principalId"
              placeholder="Anonymous — search by email or name"
              onChange={(account) => set('principalId', account?._id ?? '')}
            />
          )}
        </Field>
        <Field
          label="Token algorithm"
          hint={
            mode === 'edit'
              ? 'Pinned to the key pair: change it by regenerating the RSA pair.'
              : 'PS512 (RSA-PSS) unless a verifier needs RS512.'
          }
          error={errorOf('alg')}
          errorTestId="field-error"
        >
          {(id, describedBy) => (
            <select
              id={id}
              className="select select--large"
              data-testid="app-alg"
              value={draft.alg}
              disabled={mode === 'edit'}
              aria-describedby={describedBy}
              onChange={(e) => set('alg', e.target.value as TokenAlg)}
            >
              {TOKEN_ALGS.map((alg) => (
                <option key={alg} value={alg}>
                  {alg}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="keys-form__wide keys-checks" role="group" aria-label="Switches">
          <Check
            label="Enabled"
            checked={draft.enabled}
            disabled={props.consoleApp}
            title={props.consoleApp ? 'The console app cannot be disabled.' : undefined}
            error={errorOf('enabled')}
            testId="app-enabled"
            onChange={(v) => set('enabled', v)}
          />
          <Check
            label="Read-only"
            checked={draft.readOnly}
            error={errorOf('readOnly')}
            testId="app-readOnly"
            onChange={(v) => set('readOnly', v)}
          />
          <Check
            label="CSRF token required"
            checked={draft.csrf}
            error={errorOf('csrf')}
            testId="app-csrf"
            onChange={(v) => set('csrf', v)}
          />
          <Check
            label="Name mapping (the name is accepted where clients send the key)"
            checked={draft.allowNameMapping}
            error={errorOf('allowNameMapping')}
            testId="app-allowNameMapping"
            onChange={(v) => set('allowNameMapping', v)}
          />
          {mode === 'create' && (
            // Editing: the one Expose keys control is on the Keys tab, beside what it publishes.
            <Check
              label="Expose keys (publish JWK and PEM)"
              checked={draft.expose}
              error={errorOf('expose')}
              testId="app-expose"
              onChange={(v) => set('expose', v)}
            />
          )}
          <Check
            label="Allow unsigned requests"
            checked={draft.allowUnsigned}
            disabled={kind !== 'signing'}
            title={kind !== 'signing' ? 'Signing apps only.' : undefined}
            error={errorOf('allowUnsigned')}
            testId="app-allowUnsigned"
            onChange={(v) => set('allowUnsigned', v)}
          />
          <Check
            label="Require signature version 2 (nonce, query and body signed)"
            checked={draft.requireSignatureV2}
            disabled={kind !== 'signing'}
            title={kind !== 'signing' ? 'Signing apps only.' : undefined}
            error={errorOf('requireSignatureV2')}
            testId="app-requireSignatureV2"
            onChange={(v) => set('requireSignatureV2', v)}
          />
          <Check
            label="Principal override"
            checked={draft.principalOverride}
            disabled={kind !== 'signing'}
            title={kind !== 'signing' ? 'Signing apps only.' : undefined}
            error={errorOf('principalOverride')}
            testId="app-principalOverride"
            onChange={(v) => set('principalOverride', v)}
          />
        </div>
        <ListField
          label="CORS origins"
          hint="One per line, e.g. https://app.example.org"
          value={draft.corsOrigins}
          error={errorOf('corsOrigins')}
          testId="app-corsOrigins"
          onChange={(v) => set('corsOrigins', v)}
        />
        <ListField
          label="IP allow list"
          hint="Addresses or CIDR ranges; empty: any."
          value={draft.ipAllow}
          error={errorOf('ipAllow')}
          testId="app-ipAllow"
          onChange={(v) => set('ipAllow', v)}
        />
        <ListField
          label="IP deny list"
          hint="Addresses or CIDR ranges."
          value={draft.ipDeny}
          error={errorOf('ipDeny')}
          testId="app-ipDeny"
          onChange={(v) => set('ipDeny', v)}
        />
      </div>
      {props.fault && (server.unplaced || Object.keys(server.fields).length === 0) && (
        <FaultMessage fault={props.fault} compact />
      )}
      {attempted && !valid && <FieldError alert>Fix the marked fields first.</FieldError>}
      <div className="form__actions">
        <button type="submit" className="button button--primary" data-testid="app-save" disabled={props.submitting}>
          {props.submitting ? 'Saving…' : props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" className="button button--ghost" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
