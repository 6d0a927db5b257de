import { useState, type FormEvent } from 'react';
import type { OrgClient } from '../../api/org-client';
import type { Schema } from '../../api/schemas';
import type { ViewRecord } from '../../api/views';
import { FaultMessage } from '../../components/FaultMessage';
import { Field, FieldError } from '../../components/Field';
import { faultOf } from '../../api/api-error';
import { useViewEditor } from './use-view-editor';
import { PathFields, RangeFields } from './ViewRangeFields';
import { ViewVariableFields } from './ViewVariableFields';

interface ViewEditorProps {
  orgClient: OrgClient;
  view: ViewRecord | null;
  schemas: Schema[];
  onSaved: (view: ViewRecord) => void;
  onDeleted: () => void;
}

/** Create or edit a view; the service validates on save and its fault is shown at the field it names. */
export function ViewEditor({ orgClient, view, schemas, onSaved, onDeleted }: ViewEditorProps) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { form, set, setVariable, variableFault, saved, save, remove, fault, faultField, faultAt, variables, query } =
    useViewEditor(orgClient, view, schemas[0]?.name ?? '', onSaved, onDeleted);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form className="panel" data-testid="view-form" onSubmit={submit} noValidate>
      <p className="panel__title">{view ? view.label || view.name : 'New view'}</p>
      <div className="form-grid">
        <Field label="Name (in the URL)" {...faultAt('name')}>
          <input
            className="input input--mono"
            data-testid="view-name"
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
            autoFocus={view === null}
          />
        </Field>
        <Field label="Label" {...faultAt('label')}>
          <input
            className="input"
            data-testid="view-label"
            value={form.label}
            onChange={(e) => set('label', e.target.value)}
          />
        </Field>
        <Field label="Source object" {...faultAt('sourceObject')}>
          <select
            className="select"
            data-testid="view-source"
            value={form.sourceObject}
            onChange={(e) => set('sourceObject', e.target.value)}
          >
            {!schemas.some((s) => s.name === form.sourceObject) && (
              <option value={form.sourceObject}>{form.sourceObject || 'Choose…'}</option>
            )}
            {schemas.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} — {s.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Run as (account email or _id; blank: the caller)" {...faultAt('principal')}>
          <input
            className="input"
            data-testid="view-principal"
            value={form.principal}
            onChange={(e) => set('principal', e.target.value)}
          />
        </Field>
        <Field label="Description" wide {...faultAt('description')}>
          <input
            className="input"
            data-testid="view-description"
            value={form.description}
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>
        <Field
          label={
            <>
              where (JSON; <code>{'"{{name}}"'}</code> is a variable filled from <code>?name=</code>)
            </>
          }
          wide
          {...faultAt('where')}
        >
          <textarea
            className="input input--mono view-editor__query"
            data-testid="view-where"
            spellCheck={false}
            value={form.where}
            placeholder={'{"c_status": "{{status}}"}'}
            onChange={(e) => set('where', e.target.value)}
          />
        </Field>
        <Field label="sort (JSON)" wide {...faultAt('sort')}>
          <input
            className="input input--mono"
            data-testid="view-sort"
            spellCheck={false}
            value={form.sort}
            placeholder={'{"created": -1}'}
            onChange={(e) => set('sort', e.target.value)}
          />
        </Field>
      </div>
      <ViewVariableFields
        variables={variables}
        values={form.variables}
        onChange={setVariable}
        query={query}
        schema={schemas.find((s) => s.name === form.sourceObject)}
        fault={
          variableFault && fault ? { name: variableFault.name, message: fault.reason ?? fault.message } : undefined
        }
        error={variableFault ? undefined : faultAt('variables').error}
      />
      <div className="view-editor__ranges">
        <RangeFields legend="limit" value={form.limit} onChange={(r) => set('limit', r)} fault={faultAt('limit')} />
        <RangeFields legend="skip" value={form.skip} onChange={(r) => set('skip', r)} fault={faultAt('skip')} />
        <PathFields form={form} set={set} faultAt={faultAt} />
      </div>
      <div className="form-grid">
        <Field
          label="Who may run it (one a line: role <code> · account <_id or *>; none: administrators)"
          {...faultAt('acl')}
        >
          <textarea
            className="input input--mono"
            data-testid="view-acl"
            spellCheck={false}
            value={form.acl}
            placeholder={'role analyst\naccount *'}
            onChange={(e) => set('acl', e.target.value)}
          />
        </Field>
        <label className="check view-editor__active">
          <input
            type="checkbox"
            data-testid="view-active"
            checked={form.active}
            onChange={(e) => set('active', e.target.checked)}
          />
          Active (an inactive view answers accessDenied.view)
        </label>
      </div>
      {fault && !faultField && <FaultMessage fault={fault} compact />}
      {fault && faultField && (
        <FieldError alert testId="view-save-fault">
          Not saved: {fault.errCode} at <code>{fault.path}</code>.
        </FieldError>
      )}
      {saved && !save.isPending && (
        <p className="note note--ok" role="status" data-testid="view-saved">
          Saved.
        </p>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary" data-testid="view-save" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : view ? 'Save view' : 'Create view'}
        </button>
        {view && !confirmDelete && (
          <button
            type="button"
            className="button button--ghost"
            data-testid="view-delete"
            onClick={() => setConfirmDelete(true)}
          >
            Delete…
          </button>
        )}
      </div>
      {view && confirmDelete && (
        <div className="confirm" role="alertdialog" aria-label="Confirm deletion">
          Delete the view {view.name}? Its URL stops working.
          <button
            type="button"
            className="button button--danger button--small"
            data-testid="view-delete-confirm"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Delete
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setConfirmDelete(false)}>
            Cancel
          </button>
        </div>
      )}
      {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
    </form>
  );
}
