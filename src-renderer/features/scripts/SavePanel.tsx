import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { jobKeys } from '../../api/jobs';
import type { OrgClient } from '../../api/org-client';
import { SCRIPT_TYPES, saveScript, scriptKeys, type ScriptRecord, type ScriptType } from '../../api/scripts';
import { Field, FieldType } from '../../components/Field';
import { FaultMessage } from '../../components/FaultMessage';
import { RouteSettings } from './RouteSettings';
import { RouteTry } from './RouteTry';
import { TriggerJobSettings } from './TriggerJobSettings';
import { checkSave, fieldsOf, type SaveFields } from './save-draft';

interface SavePanelProps {
  orgClient: OrgClient;
  script: string;
  fields: SaveFields;
  onFields: (fields: SaveFields) => void;
  /** The open library script, when editing one. */
  saved: ScriptRecord | undefined;
  /** The editor or the form differs from what is saved. */
  dirty: boolean;
  onSaved: (record: ScriptRecord) => void;
}

const TYPE_WORDS: Readonly<Record<ScriptType, string>> = {
  library: 'Library',
  route: 'Route',
  job: 'Job',
  trigger: 'Trigger',
};

/**
 * Save as a library, route, trigger or job script, with every setting the service keeps; the heading
 * names what is open and whether it has unsaved changes, and "Saved" shows only while it is true.
 */
export function SavePanel({ orgClient, script, fields, onFields, saved, dirty, onSaved }: SavePanelProps) {
  const queryClient = useQueryClient();
  const check = checkSave(fields, script, saved ? fieldsOf(saved) : undefined);
  const errors = check.ok ? {} : check.errors;
  const [touched, setTouched] = useState(false);
  const change = (patch: Partial<SaveFields>) => onFields({ ...fields, ...patch });

  const save = useMutation({
    mutationFn: () =>
      check.ok ? saveScript(orgClient, check.draft, saved?._id) : Promise.reject(new Error('invalid')),
    onSuccess: (record) => {
      onSaved(record);
      void queryClient.invalidateQueries({ queryKey: scriptKeys.all(orgClient.org) });
      // A job's schedule and next run (TriggerJobPanel) follow its saved configuration.
      if (record.type === 'job') void queryClient.invalidateQueries({ queryKey: jobKeys.all(orgClient.org) });
    },
  });
  const savedRoute = saved?.type === 'route' ? saved.configuration : undefined;
  const state = !saved ? 'new' : dirty ? 'unsaved' : 'saved';

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
        <h2 className="keys-section__title" data-testid="save-title">
          {saved ? `${TYPE_WORDS[saved.type]} script “${saved.label ?? saved.name}”` : 'Save the new script'}
        </h2>
        <span className={`save-state save-state--${state}`} data-testid="save-state" data-state={state}>
          {state === 'new' ? 'Not saved yet' : state === 'unsaved' ? 'Unsaved changes' : 'Saved'}
        </span>
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
        <Field
          label={
            <>
              Label <FieldType>optional</FieldType>
            </>
          }
        >
          <input
            className="input"
            data-testid="save-label"
            value={fields.label}
            placeholder={fields.name || 'the name'}
            onChange={(e) => change({ label: e.target.value })}
          />
        </Field>
        <label className="check script-save__active">
          <input
            type="checkbox"
            data-testid="save-active"
            checked={fields.active}
            onChange={(e) => change({ active: e.target.checked })}
          />
          Active
        </label>
      </div>
      <Field
        wide
        label={
          <>
            Description <FieldType>optional</FieldType>
          </>
        }
      >
        <input
          className="input"
          data-testid="save-description"
          value={fields.description}
          onChange={(e) => change({ description: e.target.value })}
        />
      </Field>
      {fields.type === 'route' && (
        <RouteSettings orgClient={orgClient} fields={fields} change={change} errors={errors} touched={touched} />
      )}
      {(fields.type === 'trigger' || fields.type === 'job') && (
        <TriggerJobSettings orgClient={orgClient} fields={fields} change={change} errors={errors} touched={touched} />
      )}
      {save.isError && <FaultMessage fault={faultOf(save.error)} compact />}
      <div className="form__actions">
        <button type="submit" className="button button--primary" data-testid="save-submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : saved ? 'Save changes' : `Save as ${fields.type} script`}
        </button>
        {save.isSuccess && !save.isPending && !dirty && (
          <span className="keys-ok" data-testid="save-done">
            Saved.
          </span>
        )}
      </div>
      {savedRoute?.path !== undefined && (
        <RouteTry orgClient={orgClient} route={{ ...savedRoute, path: savedRoute.path }} />
      )}
    </form>
  );
}
